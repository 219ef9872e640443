import { useState } from 'react';
import { graphql, useMutation } from 'react-relay/hooks';
import { FormDialog } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast.tsx';
import { TextField } from '../../ui/Field.tsx';
import { SelectField } from '../../ui/Select.tsx';
import type { InviteCrewDialogMutation, ProjectRole } from './__generated__/InviteCrewDialogMutation.graphql';
import { inviteEmail, PROJECT_ROLES, showError } from './options.ts';

/** The owner invites someone by e-mail with a role; they join only when they accept. */
export function InviteCrewDialog({
  open,
  onClose,
  projectId,
  projectName,
}: {
  open: boolean;
  onClose: () => void;
  projectId: string;
  projectName: string;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<ProjectRole>('member');
  const [error, setError] = useState<string | null>(null);
  const [commit, pending] = useMutation<InviteCrewDialogMutation>(graphql`
    mutation InviteCrewDialogMutation($projectId: ID!, $email: String!, $role: ProjectRole) {
      inviteToProject(projectId: $projectId, email: $email, role: $role) {
        ... on MutationInviteToProjectSuccess {
          data {
            id
            email
            # The pending list as the server has it now (re-inviting answers the same invitation).
            project {
              id
              ...ProjectInvitations_project
            }
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);

  function close() {
    setEmail('');
    setRole('member');
    setError(null);
    onClose();
  }

  function fail(message: string) {
    setError(message);
    showError(message);
  }

  function submit() {
    const result = inviteEmail(email);
    if ('error' in result) return fail(result.error);
    setError(null);
    commit({
      variables: { projectId, email: result.email, role },
      onCompleted: ({ inviteToProject }) => {
        if (!inviteToProject.data) return fail(inviteToProject.message ?? 'Failed to send the invitation.');
        // The same words whether or not the address has an account: nobody learns who is signed up.
        toast({
          title: 'Invitation Sent',
          description: `${inviteToProject.data.email} joins ${projectName} once they accept.`,
        });
        close();
      },
      onError: () => fail('Failed to send the invitation. Please try again.'),
    });
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      title="Invite crew"
      description={`Invite someone to ${projectName} by e-mail. They see the invitation when they sign in with that address, and join once they accept.`}
      onSubmit={submit}
      submitLabel="Send Invitation"
      pendingLabel="Sending..."
      pending={pending}
      closeWhilePending
    >
      <TextField
        label="E-mail"
        type="email"
        autoComplete="off"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'invite-error' : undefined}
        placeholder="name@example.com"
      />
      {error && (
        <p id="invite-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <SelectField
        label="Role"
        value={role}
        onChange={(value) => setRole(value as ProjectRole)}
        options={PROJECT_ROLES}
      />
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Crew members see the project and the galleries shared with it. Owners also invite and remove people.
      </p>
    </FormDialog>
  );
}
