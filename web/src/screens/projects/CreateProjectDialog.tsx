import { useState } from 'react';
import { graphql, useMutation } from 'react-relay/hooks';
import { FormDialog } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast.tsx';
import { type ProjectType, projectInput, showError } from './options.ts';
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
  const [create, pending] = useCreateProject();

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
    create(result.input, [connectionId]).then(
      (project) => {
        toast({ title: 'Project Created', description: `Project "${project.name}" has been created.` });
        close();
      },
      () => showError('Failed to create project. Please try again.'),
    );
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

/**
 * Creates a project and puts it first in the given project lists (the Projects screen's, the share
 * dialog's). Resolves to the new project; rejects with the server's refusal or a failed request.
 */
export function useCreateProject() {
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
            type
            viewerRole
            ...ProjectCard_project
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const create = (input: { name: string; description: string | null; type: string }, connections: string[]) =>
    new Promise<{ id: string; name: string; type: string }>((resolve, reject) => {
      commit({
        variables: { ...input, type: input.type as ProjectType, connections },
        onCompleted: ({ createProject }) => {
          if (createProject.data) resolve(createProject.data);
          else reject(new Error(createProject.message ?? 'Failed'));
        },
        onError: reject,
      });
    });
  return [create, pending] as const;
}
