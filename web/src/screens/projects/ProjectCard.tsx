import { useState } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { ConfirmDialog } from '../../ui/dialogs.ts';
import { PlusIcon } from '../../ui/icons.tsx';
import { labelOf } from '../../lib/choices.ts';
import type { ProjectCard_project$key } from './__generated__/ProjectCard_project.graphql';
import type { ProjectCardLeaveMutation } from './__generated__/ProjectCardLeaveMutation.graphql';
import { InviteCrewDialog } from './dialogs.ts';
import { PROJECT_ROLES, PROJECT_TYPES } from './options.ts';
import { ProjectCrew } from './ProjectCrew.tsx';
import { ProjectGalleries } from './ProjectGalleries.tsx';
import { ProjectInvitations } from './ProjectInvitations.tsx';

/** One project: its type, your role, the crew, pending invitations (owner) and the shared galleries. */
export function ProjectCard({
  project: key,
  viewerId,
  connectionId,
}: {
  project: ProjectCard_project$key;
  viewerId: string;
  connectionId: string;
}) {
  const project = useFragment(
    graphql`
      fragment ProjectCard_project on Project {
        id
        name
        description
        type
        viewerRole
        viewerCanManageMembers
        owner {
          id
        }
        ...ProjectCrew_project
        ...ProjectInvitations_project
        ...ProjectGalleries_project
      }
    `,
    key,
  );
  const [inviting, setInviting] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [commitLeave, leavePending] = useMutationWithToasts<ProjectCardLeaveMutation>(
    graphql`
      mutation ProjectCardLeaveMutation($projectId: ID!, $connections: [ID!]!) {
        leaveProject(projectId: $projectId) {
          __typename
          ... on MutationLeaveProjectSuccess {
            data @deleteEdge(connections: $connections)
          }
          ... on Error {
            message
          }
        }
      }
    `,
    { outcome: (r) => r.leaveProject, failure: 'Failed to leave the project. Please try again.' },
  );

  function leave() {
    commitLeave({
      variables: { projectId: project.id, connections: [connectionId] },
      success: { title: 'Left Project', description: `You are no longer in ${project.name}.` },
    });
  }

  const isOwner = project.viewerRole === 'owner';
  const isCreator = project.owner.id === viewerId;
  return (
    <Card className="flex flex-col gap-5 p-5">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <h2 className="truncate text-lg font-semibold text-slate-900 dark:text-slate-100">{project.name}</h2>
          <div className="mt-1 flex flex-wrap gap-2">
            <Badge>{labelOf(PROJECT_TYPES, project.type)}</Badge>
            <Badge tone={isOwner ? 'indigo' : 'green'}>
              Your role: {isCreator ? 'Creator' : labelOf(PROJECT_ROLES, project.viewerRole)}
            </Badge>
          </div>
          {project.description && (
            <p className="mt-2 text-sm text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
              {project.description}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {project.viewerCanManageMembers && (
            <Button size="sm" onClick={() => setInviting(true)}>
              <PlusIcon className="h-4 w-4" />
              Invite crew
            </Button>
          )}
          {/* The creator holds the project together: they cannot leave it. */}
          {!isCreator && (
            <Button size="sm" variant="outline" onClick={() => setLeaving(true)}>
              Leave project
            </Button>
          )}
        </div>
      </div>
      <ProjectCrew project={project} />
      {project.viewerCanManageMembers && <ProjectInvitations project={project} />}
      <ProjectGalleries project={project} />
      {project.viewerCanManageMembers && (
        <InviteCrewDialog
          open={inviting}
          onClose={() => setInviting(false)}
          projectId={project.id}
          projectName={project.name}
        />
      )}
      <ConfirmDialog
        open={leaving}
        onClose={() => setLeaving(false)}
        onConfirm={leave}
        title="Leave Project"
        message={`Leave ${project.name}? You lose access to the galleries shared with it until the owner invites you again.`}
        confirmLabel="Leave"
        pendingLabel="Leaving..."
        pending={leavePending}
      />
    </Card>
  );
}
