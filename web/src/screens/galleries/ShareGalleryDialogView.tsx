import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogButtons } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast.tsx';
import { SelectField } from '../../ui/Select.tsx';
import { NEW_PROJECT, ProjectFields } from '../projects/ProjectFields.tsx';
import { labelOf } from '../../lib/choices.ts';
import { PERMISSIONS, type Permission, PROJECT_TYPES, projectInput } from '../projects/options.ts';

export interface ShareProject {
  id: string;
  name: string;
  type: string;
}

export interface ShareRow {
  id: string;
  projectName: string;
  projectType: string;
  permission: string;
  status: string;
}

export interface ShareGalleryCallbacks {
  share: (projectId: string, permission: Permission) => Promise<void>;
  createProject: (input: { name: string; description: string | null; type: string }) => Promise<ShareProject>;
  revoke: (shareId: string) => Promise<void>;
}

const tabClass =
  'flex-1 rounded-md px-3 py-2 text-sm font-medium text-slate-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 data-selected:bg-white data-selected:text-slate-900 data-selected:shadow dark:text-slate-300 dark:data-selected:bg-slate-700 dark:data-selected:text-white';

function failure(description: string) {
  toast({ title: 'Error', description, variant: 'destructive' });
}

export function ShareGalleryDialogView({
  open,
  onClose,
  galleryName,
  projects,
  canRevoke,
  shares,
  callbacks,
}: {
  open: boolean;
  onClose: () => void;
  galleryName: string;
  projects: readonly ShareProject[];
  /** Revoking is the owner's; without it the list only shows the shares. */
  canRevoke: boolean;
  shares: readonly ShareRow[];
  callbacks: ShareGalleryCallbacks;
}) {
  const [tab, setTab] = useState(0);
  const [projectId, setProjectId] = useState('');
  const [permission, setPermission] = useState<Permission>('read');
  const [project, setProject] = useState(NEW_PROJECT);
  const [pending, setPending] = useState<null | 'share' | 'create' | string>(null);

  useEffect(() => {
    if (open) {
      setTab(0);
      setProjectId('');
      setPermission('read');
      setProject(NEW_PROJECT);
    }
  }, [open]);

  async function share(event: FormEvent) {
    event.preventDefault();
    if (!projectId) {
      failure('Please select a project to share with.');
      return;
    }
    setPending('share');
    try {
      await callbacks.share(projectId, permission);
      toast({ title: 'Gallery Shared', description: 'Gallery has been shared with the project successfully.' });
      // The next share starts from nothing chosen and View Only, never from this one's Edit Access.
      setProjectId('');
      setPermission('read');
    } catch {
      failure('Failed to share gallery. Please try again.');
    } finally {
      setPending(null);
    }
  }

  async function createProject(event: FormEvent) {
    event.preventDefault();
    const result = projectInput(project);
    if ('error' in result) {
      failure(result.error);
      return;
    }
    setPending('create');
    try {
      const created = await callbacks.createProject(result.input);
      toast({ title: 'Project Created', description: `Project "${created.name}" has been created.` });
      setProject(NEW_PROJECT);
      setProjectId(created.id);
      setTab(0);
    } catch {
      failure('Failed to create project. Please try again.');
    } finally {
      setPending(null);
    }
  }

  async function revoke(shareId: string) {
    setPending(shareId);
    try {
      await callbacks.revoke(shareId);
      toast({ title: 'Share Revoked', description: 'The project no longer has access to this gallery.' });
    } catch {
      failure('Failed to revoke share. Please try again.');
    } finally {
      setPending(null);
    }
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Share Gallery"
      description={`Share "${galleryName}" with a project.`}
      size="lg"
    >
      <TabGroup selectedIndex={tab} onChange={setTab}>
        <TabList className="flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
          <Tab className={tabClass}>Share to Project</Tab>
          <Tab className={tabClass}>Create Project</Tab>
        </TabList>
        <TabPanels className="mt-4">
          <TabPanel>
            <form onSubmit={share} noValidate className="space-y-4">
              <SelectField
                label="Project"
                value={projectId}
                onChange={setProjectId}
                options={projects.map((p) => ({ value: p.id, label: `${p.name} (${labelOf(PROJECT_TYPES, p.type)})` }))}
                placeholder={projects.length ? 'Select a project' : 'No projects yet: create one'}
              />
              <SelectField
                label="Permission"
                value={permission}
                onChange={(v) => setPermission(v as Permission)}
                options={PERMISSIONS}
              />
              <DialogButtons
                onCancel={onClose}
                cancelLabel="Close"
                label="Share Gallery"
                pendingLabel="Sharing..."
                pending={pending === 'share'}
                cancelDisabled={false}
              />
            </form>
          </TabPanel>
          <TabPanel>
            <form onSubmit={createProject} noValidate className="space-y-4">
              <ProjectFields form={project} onChange={setProject} />
              <DialogButtons
                onCancel={() => setTab(0)}
                cancelLabel="Back"
                label="Create Project"
                pendingLabel="Creating..."
                pending={pending === 'create'}
                cancelDisabled={false}
              />
            </form>
          </TabPanel>
        </TabPanels>
      </TabGroup>
      <section className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-700" aria-label="Current shares">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Current Shares</h3>
        {shares.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
            This gallery is not shared with any project yet.
          </p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
            {shares.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center gap-2 py-2" data-testid="share-row">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">{row.projectName}</p>
                  <p className="text-xs text-slate-500 dark:text-slate-400">
                    {labelOf(PROJECT_TYPES, row.projectType)} · {labelOf(PERMISSIONS, row.permission)}
                  </p>
                </div>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${
                    row.status === 'active'
                      ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200'
                      : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300'
                  }`}
                >
                  {row.status}
                </span>
                {canRevoke && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => revoke(row.id)}
                    disabled={pending === row.id}
                    aria-label={`Revoke share with ${row.projectName}`}
                  >
                    {pending === row.id ? 'Revoking...' : 'Revoke'}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </Dialog>
  );
}
