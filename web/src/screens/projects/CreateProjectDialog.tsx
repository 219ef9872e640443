import { type FormEvent, useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogActions } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { SelectField } from '../../ui/Select.tsx';
import { PROJECT_TYPES, type ProjectType, projectInput } from '../galleries/options.ts';
import { showError } from './options.ts';
import type { CreateProjectDialogMutation } from './__generated__/CreateProjectDialogMutation.graphql';

const EMPTY = { name: '', description: '', type: 'campaign' };

/** The share dialog's 'Create Project' form on its own: the new project goes first in the list. */
export function CreateProjectDialog({
  open,
  onClose,
  connectionId,
}: {
  open: boolean;
  onClose: () => void;
  connectionId: string;
}) {
  const [form, setForm] = useState(EMPTY);
  const [commit, pending] = useMutation<CreateProjectDialogMutation>(graphql`
    mutation CreateProjectDialogMutation(
      $name: String!
      $description: String
      $type: ProjectType
      $connections: [ID!]!
    ) {
      createProject(name: $name, description: $description, type: $type) {
        ... on MutationCreateProjectSuccess {
          data @prependNode(connections: $connections, edgeTypeName: "QueryProjectsConnectionEdge") {
            id
            name
            ...ProjectCard_project
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);

  function close() {
    setForm(EMPTY);
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = projectInput(form);
    if ('error' in result) {
      showError(result.error);
      return;
    }
    const failed = () => showError('Failed to create project. Please try again.');
    commit({
      variables: { ...result.input, type: result.input.type as ProjectType, connections: [connectionId] },
      onCompleted: ({ createProject }) => {
        if (!createProject.data) return failed();
        toast({ title: 'Project Created', description: `Project "${createProject.data.name}" has been created.` });
        close();
      },
      onError: failed,
    });
  }

  return (
    <Dialog open={open} onClose={close} title="Create Project" description="Invite your crew once it exists.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          label="Project Name"
          value={form.name}
          onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
        />
        <TextAreaField
          label="Description"
          value={form.description}
          onChange={(e) => setForm((f) => ({ ...f, description: e.target.value }))}
        />
        <SelectField
          label="Project Type"
          value={form.type}
          onChange={(type) => setForm((f) => ({ ...f, type }))}
          options={PROJECT_TYPES}
        />
        <DialogActions>
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? 'Creating...' : 'Create Project'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
