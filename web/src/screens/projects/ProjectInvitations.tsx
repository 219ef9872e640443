import { graphql, useFragment } from 'react-relay/hooks';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { formatNotificationTime } from '../../lib/format.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { RowList } from '../../ui/RowList.tsx';
import { labelOf } from '../../lib/choices.ts';
import type { ProjectInvitations_project$key } from './__generated__/ProjectInvitations_project.graphql';
import type { ProjectInvitationsCancelMutation } from './__generated__/ProjectInvitationsCancelMutation.graphql';
import { PROJECT_ROLES } from './options.ts';
import { useNow } from '../../lib/now.ts';

/** Invitations nobody has answered yet (owners only), each of which the owner may cancel. */
export function ProjectInvitations({ project: key }: { project: ProjectInvitations_project$key }) {
  const now = useNow();
  const project = useFragment(
    graphql`
      fragment ProjectInvitations_project on Project {
        name
        pendingInvitations(first: 6) {
          totalCount
          edges {
            node {
              id
              email
              role
              createdAt
            }
          }
        }
      }
    `,
    key,
  );
  const [commitCancel, pending] = useMutationWithToasts<ProjectInvitationsCancelMutation>(
    graphql`
    mutation ProjectInvitationsCancelMutation($id: ID!) {
      cancelInvitation(id: $id) {
        __typename
        ... on MutationCancelInvitationSuccess {
          data {
            id
            status
            # The project's list as the server has it now.
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
  `,
    { outcome: (r) => r.cancelInvitation, failure: 'Failed to cancel the invitation. Please try again.' },
  );

  function cancel(invitation: { id: string; email: string }) {
    commitCancel({
      variables: { id: invitation.id },
      success: {
        title: 'Invitation Cancelled',
        description: `${invitation.email} can no longer join ${project.name}.`,
      },
    });
  }

  const invitations = project.pendingInvitations.edges.map((edge) => edge.node);
  if (invitations.length === 0) return null;
  return (
    <section aria-label={`Pending invitations to ${project.name}`}>
      <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">
        Pending invitations ({project.pendingInvitations.totalCount})
      </h3>
      <RowList
        items={invitations}
        rowClassName="flex flex-wrap items-center gap-x-3 gap-y-1 py-2"
        testId="pending-invitation"
      >
        {(invitation) => (
          <>
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">{invitation.email}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                Invited {formatNotificationTime(String(invitation.createdAt), now).toLowerCase()}
              </p>
            </div>
            <Badge tone="amber">{labelOf(PROJECT_ROLES, invitation.role)}</Badge>
            <Button
              variant="ghost"
              size="sm"
              disabled={pending}
              onClick={() => cancel(invitation)}
              aria-label={`Cancel invitation for ${invitation.email}`}
            >
              Cancel
            </Button>
          </>
        )}
      </RowList>
      {project.pendingInvitations.totalCount > invitations.length && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          and {project.pendingInvitations.totalCount - invitations.length} more
        </p>
      )}
    </section>
  );
}
