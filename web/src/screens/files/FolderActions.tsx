import { useEffect, useState } from 'react';
import { countOf } from '../../lib/format.ts';
import { ConnectionHandler, graphql, type PreloadedQuery, useMutation, usePreloadedQuery } from 'react-relay/hooks';
import { useQueryWhileOpen, WhenLoaded } from '../../relay/queryWhileOpen.tsx';
import { useRefreshStorageUsage } from '../../shell/StorageUsageSlot.tsx';
import { ActionsMenu, ActionsMenuItem } from '../../ui/ActionsMenu.tsx';
import { Dialog, DialogButtons, FormDialog } from '../../ui/Dialog.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { FolderIcon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toast.tsx';
import type { FolderActionsDeleteMutation } from './__generated__/FolderActionsDeleteMutation.graphql';
import type { FolderActionsMoveMutation } from './__generated__/FolderActionsMoveMutation.graphql';
import type { FolderActionsPickerQuery } from './__generated__/FolderActionsPickerQuery.graphql';
import type { FolderActionsRenameMutation } from './__generated__/FolderActionsRenameMutation.graphql';

export interface FolderRowData {
  id: string;
  name: string;
  fileCount: number;
  folderCount: number;
}

export type FolderAction = 'rename' | 'move' | 'delete';

/** The ⋮ menu of one folder in the folder list. */
export function FolderMenu({
  folder,
  onAction,
}: {
  folder: FolderRowData;
  onAction: (action: FolderAction, folder: FolderRowData) => void;
}) {
  return (
    <ActionsMenu label={`Actions for folder ${folder.name}`} iconClass="h-4 w-4" widthClass="w-40">
      <ActionsMenuItem onClick={() => onAction('rename', folder)}>Rename</ActionsMenuItem>
      <ActionsMenuItem onClick={() => onAction('move', folder)}>Move to…</ActionsMenuItem>
      <ActionsMenuItem onClick={() => onAction('delete', folder)} danger>
        Delete
      </ActionsMenuItem>
    </ActionsMenu>
  );
}

/** A folder in a list: the button that opens it. */
export function FolderButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex min-w-0 flex-1 items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-slate-200 dark:hover:bg-slate-800"
    >
      <FolderIcon className="h-4 w-4 shrink-0 text-amber-500" />
      <span className="truncate">{name}</span>
    </button>
  );
}

/** A name field of the create and rename dialogs, with the server's message under it. */
export function NameField({
  id,
  label,
  value,
  onChange,
  error = null,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <input
        id={id}
        className={inputClass}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error !== null}
        aria-describedby={error ? `${id}-error` : undefined}
        data-autofocus
      />
      <div id={`${id}-error`}>
        <FormMessage message={error} />
      </div>
    </div>
  );
}

/** The 'Folder Name' field of the new-folder and rename dialogs. */
export function FolderNameField(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
}) {
  return <NameField label="Folder Name" {...props} />;
}

/**
 * What the dialogs do with a mutation's answer: a typed error is shown in the dialog (the API's
 * own words); success toasts and closes.
 */
export function completion({
  setError,
  success,
  failure,
  onClose,
  onRefused,
}: {
  setError: (message: string | null) => void;
  success: () => string;
  failure: string;
  onClose: () => void;
  onRefused?: (code: string | undefined) => void;
}) {
  return {
    settle(answer: object) {
      const refusal = answer as { message?: string; code?: string };
      if (refusal.message) {
        setError(refusal.message);
        onRefused?.(refusal.code);
        return;
      }
      toast({ title: 'Success', description: success() });
      onClose();
    },
    onError: () => setError(failure),
  };
}

export function FormMessage({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-red-600 dark:text-red-400">
      {message}
    </p>
  );
}

/**
 * The rename dialog of folders and files. `rename` sends the mutation; the server trims and
 * validates, and its messages are shown as they are.
 */
export function RenameDialog({
  target,
  kind,
  pending,
  rename,
  onClose,
}: {
  target: { id: string; name: string } | null;
  kind: 'Folder' | 'File';
  pending: boolean;
  rename: (id: string, name: string, done: ReturnType<typeof completion>) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setName(target?.name ?? '');
    setError(null);
  }, [target]);

  function submit() {
    if (!target) return;
    rename(
      target.id,
      name,
      completion({
        setError,
        success: () => `${kind} renamed successfully!`,
        failure: `Failed to rename ${kind.toLowerCase()}. Please try again.`,
        onClose,
      }),
    );
  }

  return (
    <FormDialog
      open={target !== null}
      onClose={onClose}
      title={`Rename ${kind}`}
      description={target?.name}
      size="sm"
      onSubmit={submit}
      submitLabel="Rename"
      pendingLabel="Renaming..."
      pending={pending}
    >
      <NameField
        id={`rename-${kind.toLowerCase()}-name`}
        label={`${kind} Name`}
        value={name}
        onChange={(value) => {
          setName(value);
          setError(null);
        }}
        error={error}
      />
    </FormDialog>
  );
}

function RenameFolderDialog({ folder, onClose }: { folder: FolderRowData | null; onClose: () => void }) {
  const [commit, pending] = useMutation<FolderActionsRenameMutation>(graphql`
    mutation FolderActionsRenameMutation($id: ID!, $name: String!) {
      renameFolder(id: $id, name: $name) {
        ... on MutationRenameFolderSuccess {
          data {
            id
            name
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  return (
    <RenameDialog
      target={folder}
      kind="Folder"
      pending={pending}
      rename={(id, name, done) =>
        commit({
          variables: { id, name },
          onCompleted: (result) => done.settle(result.renameFolder),
          onError: done.onError,
        })
      }
      onClose={onClose}
    />
  );
}

const pickerQuery = graphql`
  query FolderActionsPickerQuery($parentId: ID) {
    folders(parentId: $parentId, first: 500) {
      edges {
        node {
          id
          name
          fileCount
          folderCount
        }
      }
    }
  }
`;

/** One level of the destination picker: the folders directly inside the trail's end. */
function PickerLevel({
  reference,
  onOpen,
}: {
  reference: PreloadedQuery<FolderActionsPickerQuery>;
  onOpen: (folder: FolderRowData) => void;
}) {
  const data = usePreloadedQuery<FolderActionsPickerQuery>(pickerQuery, reference);
  const folders = data.folders.edges.map((e) => e.node).filter(Boolean);
  if (folders.length === 0) return <p className="py-3 text-sm text-slate-500 dark:text-slate-400">No folders</p>;
  return (
    <ul className="max-h-64 space-y-0.5 overflow-y-auto" aria-label="Destination folders">
      {folders.map((f) => (
        <li key={f.id} className="flex">
          <FolderButton name={f.name} onClick={() => onOpen(f)} />
        </li>
      ))}
    </ul>
  );
}

/** Where to move something: a path from Root down (each step a button back to it) and the folders inside its end. */
export function FolderPicker({
  trail,
  onTrail,
}: {
  trail: { id: string; name: string }[];
  onTrail: (trail: { id: string; name: string }[]) => void;
}) {
  // Asked each time: the folders may have changed since the picker last showed them.
  const level = useQueryWhileOpen<FolderActionsPickerQuery>(
    pickerQuery,
    { parentId: trail.at(-1)?.id ?? null },
    'network-only',
  );
  return (
    <>
      <nav aria-label="Destination" className="text-sm">
        <ol className="flex flex-wrap items-center gap-1 text-slate-600 dark:text-slate-400">
          <li>
            <button
              type="button"
              onClick={() => onTrail([])}
              className="rounded px-1 hover:text-indigo-600 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
              aria-current={trail.length === 0 ? 'location' : undefined}
            >
              Root
            </button>
          </li>
          {trail.map((step, index) => (
            <li key={step.id} className="flex items-center gap-1">
              <span aria-hidden="true">&gt;</span>
              <button
                type="button"
                onClick={() => onTrail(trail.slice(0, index + 1))}
                className="rounded px-1 hover:text-indigo-600 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                aria-current={index === trail.length - 1 ? 'location' : undefined}
              >
                {step.name}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <WhenLoaded reference={level}>
        {(loaded) => <PickerLevel reference={loaded} onOpen={(f) => onTrail([...trail, { id: f.id, name: f.name }])} />}
      </WhenLoaded>
    </>
  );
}

function MoveFolderDialog({
  folder,
  connectionId,
  listParentId,
  onClose,
}: {
  folder: FolderRowData | null;
  /** The folder list it is shown in: the moved folder leaves it. */
  connectionId: string | null;
  /** Which folder that list shows the inside of (null: the top level). */
  listParentId: string | null;
  onClose: () => void;
}) {
  // The picker's path from the top level down to the destination being looked at.
  const [trail, setTrail] = useState<{ id: string; name: string }[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [commit, pending] = useMutation<FolderActionsMoveMutation>(graphql`
    mutation FolderActionsMoveMutation($id: ID!, $parentId: ID) {
      moveFolder(id: $id, parentId: $parentId) {
        ... on MutationMoveFolderSuccess {
          data {
            id
            name
            parent {
              id
            }
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  // Each opening starts from the top level.
  useEffect(() => {
    if (!folder) return;
    setTrail([]);
    setError(null);
  }, [folder]);

  const destination = trail.at(-1) ?? null;

  function move() {
    if (!folder) return;
    const parentId = destination?.id ?? null;
    const done = completion({
      setError,
      success: () => `Folder moved to ${destination?.name ?? 'Root'}.`,
      failure: 'Failed to move folder. Please try again.',
      onClose,
    });
    commit({
      variables: { id: folder.id, parentId },
      updater: (store, response) => {
        const answer = response?.moveFolder;
        if (!answer || !('data' in answer) || !answer.data || !connectionId) return;
        const connection = store.get(connectionId);
        // Moving to where it already is keeps it in this list.
        if (connection && listParentId !== parentId) ConnectionHandler.deleteNode(connection, folder.id);
      },
      onCompleted: (result) => done.settle(result.moveFolder),
      onError: done.onError,
    });
  }

  return (
    <Dialog
      open={folder !== null}
      onClose={() => !pending && onClose()}
      title="Move Folder"
      description={folder ? `Choose where to move "${folder.name}".` : undefined}
      size="sm"
    >
      <div className="space-y-3">
        {folder && (
          <FolderPicker
            trail={trail}
            onTrail={(next) => {
              setTrail(next);
              setError(null);
            }}
          />
        )}
        <FormMessage message={error} />
      </div>
      <DialogButtons
        onCancel={onClose}
        onAction={move}
        label={`Move to ${destination?.name ?? 'Root'}`}
        pendingLabel="Moving..."
        pending={pending}
      />
    </Dialog>
  );
}

function contentsText(folder: FolderRowData) {
  const parts = [];
  if (folder.folderCount > 0) parts.push(countOf(folder.folderCount, 'folder'));
  if (folder.fileCount > 0) parts.push(countOf(folder.fileCount, 'file'));
  return parts.join(' and ');
}

function DeleteFolderDialog({
  folder,
  connectionId,
  onClose,
}: {
  folder: FolderRowData | null;
  connectionId: string | null;
  onClose: () => void;
}) {
  // Content is known from the list's counts; the server's refusal also switches to this step
  // (something may have been put into the folder since the list was read).
  const [withContents, setWithContents] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refreshStorage = useRefreshStorageUsage();
  const [commit, pending] = useMutation<FolderActionsDeleteMutation>(graphql`
    mutation FolderActionsDeleteMutation($id: ID!, $recursive: Boolean!, $connections: [ID!]!) {
      deleteFolder(id: $id, recursive: $recursive) {
        ... on MutationDeleteFolderSuccess {
          data {
            deletedFolderId @deleteEdge(connections: $connections)
            deletedFiles
          }
        }
        ... on Error {
          message
          code
        }
      }
    }
  `);
  useEffect(() => {
    setWithContents(folder !== null && folder.fileCount + folder.folderCount > 0);
    setError(null);
  }, [folder]);

  function confirm() {
    if (!folder) return;
    const done = completion({
      setError,
      success: () => 'Folder deleted successfully!',
      failure: 'Failed to delete folder. Please try again.',
      onClose,
      // Not empty after all: ask again, this time about everything inside.
      onRefused: (code) => code === 'CONFLICT' && setWithContents(true),
    });
    commit({
      variables: { id: folder.id, recursive: withContents, connections: connectionId ? [connectionId] : [] },
      onCompleted: (result) => {
        done.settle(result.deleteFolder);
        // The files inside went with it.
        refreshStorage();
      },
      onError: done.onError,
    });
  }

  const message = !folder
    ? ''
    : withContents
      ? `"${folder.name}" is not empty${contentsText(folder) ? `: it contains ${contentsText(folder)}` : ''}. Delete it with everything inside? This action cannot be undone.`
      : 'Are you sure you want to delete this folder? This action cannot be undone.';
  return (
    <Dialog
      open={folder !== null}
      onClose={() => !pending && onClose()}
      title="Delete Folder"
      description={message}
      size="sm"
    >
      <FormMessage message={error} />
      <DialogButtons
        onCancel={onClose}
        onAction={confirm}
        variant="destructive"
        label={withContents ? 'Delete Everything' : 'Delete'}
        pendingLabel="Deleting..."
        pending={pending}
      />
    </Dialog>
  );
}

/** The rename, move and delete dialogs of the folder list; `action` says which one is open. */
export function FolderActionDialogs({
  action,
  connectionId,
  listParentId,
  onClose,
}: {
  action: { kind: FolderAction; folder: FolderRowData } | null;
  connectionId: string | null;
  listParentId: string | null;
  onClose: () => void;
}) {
  const of = (kind: FolderAction) => (action?.kind === kind ? action.folder : null);
  return (
    <>
      <RenameFolderDialog folder={of('rename')} onClose={onClose} />
      <MoveFolderDialog folder={of('move')} connectionId={connectionId} listParentId={listParentId} onClose={onClose} />
      <DeleteFolderDialog folder={of('delete')} connectionId={connectionId} onClose={onClose} />
    </>
  );
}
