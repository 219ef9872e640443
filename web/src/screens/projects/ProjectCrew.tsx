import { useState } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { Avatar } from '../../shell/Avatar.tsx';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { RowList } from '../../ui/RowList.tsx';
import { ConfirmDialog } from '../../ui/dialogs.ts';
import type { ProjectCrew_project$key } from './__generated__/ProjectCrew_project.graphql';
import type { ProjectCrewRemoveMutation } from './__generated__/ProjectCrewRemoveMutation.graphql';
import { labelOf } from '../../lib/choices.ts';
import { PROJECT_ROLES } from './options.ts';

/** Everyone in the project with their role; the owner may remove members (after confirming). */
export function ProjectCrew({ project: key }: { project: ProjectCrew_project$key }) {
  const project = useFragment(
    graphql`
      fragment ProjectCrew_project on Project {
        id
        name
        memberCount
        # Armor's cost limit multiplies page sizes: a card shows the first 12 and counts the rest.
        members(first: 12) {
          edges {
            node {
              id
              role
              name
              email
              isCreator
              viewerCanRemove
              user {
                id
                profileImageUrl
              }
            }
          }
        }
      }
    `,
    key,
  );
  const [removing, setRemoving] = useState<{ userId: string; name: string } | null>(null);
  const [commitRemove, pending] = useMutationWithToasts<ProjectCrewRemoveMutation>(
    graphql`
    mutation ProjectCrewRemoveMutation($projectId: ID!, $userId: ID!) {
      removeProjectMember(projectId: $projectId, userId: $userId) {
        __typename
        ... on MutationRemoveProjectMemberSuccess {
          data {
            id
            ...ProjectCrew_project
          }
        }
        ... on Error {
          message
        }
      }
    }
  `,
    { outcome: (r) => r.removeProjectMember, failure: 'Failed to remove member. Please try again.' },
  );

  function remove() {
    if (!removing) return;
    commitRemove({
      variables: { projectId: project.id, userId: removing.userId },
      success: { title: 'Member Removed', description: `${removing.name} is no longer in ${project.name}.` },
      onSuccess: () => setRemoving(null),
    });
  }

  const members = project.members.edges.map((edge) => edge.node);
  return (
    <section aria-label={`Crew of ${project.name}`}>
      <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Crew ({project.memberCount})</h3>
      <RowList items={members} rowClassName="flex items-center gap-3 py-2" testId="member-row">
        {(member) => (
          <>
            <Avatar user={{ displayName: member.name, profileImageUrl: member.user.profileImageUrl }} />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">{member.name}</p>
              {member.name !== member.email && (
                <p className="truncate text-xs text-slate-600 dark:text-slate-400">{member.email}</p>
              )}
            </div>
            <Badge tone={member.role === 'owner' ? 'indigo' : 'slate'}>
              {member.isCreator ? 'Creator' : labelOf(PROJECT_ROLES, member.role)}
            </Badge>
            {member.viewerCanRemove && (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setRemoving({ userId: member.user.id, name: member.name })}
                aria-label={`Remove ${member.name} from ${project.name}`}
              >
                Remove
              </Button>
            )}
          </>
        )}
      </RowList>
      {project.memberCount > members.length && (
        <p className="text-xs text-slate-600 dark:text-slate-400">and {project.memberCount - members.length} more</p>
      )}
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        onConfirm={remove}
        title="Remove Member"
        message={`Remove ${removing?.name ?? ''} from ${project.name}? They lose access to the galleries shared with this project at once.`}
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={pending}
      />
    </section>
  );
}
