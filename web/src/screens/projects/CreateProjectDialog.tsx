import { useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import { FormDialog } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast.tsx';
import { type ProjectType, projectInput } from '../galleries/options.ts';
import { showError } from './options.ts';
import { NEW_PROJECT, ProjectFields } from './ProjectFields.tsx';
import type { CreateProjectDialogMutation } from './__generated__/CreateProjectDialogMutation.graphql';

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
  const [form, setForm] = useState(NEW_PROJECT);
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
    setForm(NEW_PROJECT);
    onClose();
  }

  function submit() {
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
    <FormDialog
      open={open}
      onClose={close}
      title="Create Project"
      description="Invite your crew once it exists."
      onSubmit={submit}
      submitLabel="Create Project"
      pendingLabel="Creating..."
      pending={pending}
      closeWhilePending
    >
      <ProjectFields form={form} onChange={setForm} />
    </FormDialog>
  );
}
