import { Suspense, useState } from 'react';
import { graphql, usePaginationFragment } from 'react-relay/hooks';
import { useRouteQuery } from '../../routing/useRouteQuery.ts';
import { Button } from '../../ui/Button.tsx';
import { PageHeader } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { PlusIcon, UsersIcon } from '../../ui/icons.tsx';
import { SkeletonStack } from '../../ui/Skeleton.tsx';
import { LoadMore } from '../../ui/LoadMore.tsx';
import type { ProjectsScreen_query$key } from './__generated__/ProjectsScreen_query.graphql';
import type { ProjectsScreenPaginationQuery } from './__generated__/ProjectsScreenPaginationQuery.graphql';
import type { ProjectsScreenQuery } from './__generated__/ProjectsScreenQuery.graphql';
import { CreateProjectDialog } from './dialogs.ts';
import { InvitationsForYou } from './InvitationsForYou.tsx';
import { ProjectCard } from './ProjectCard.tsx';

function ProjectsSkeleton() {
  return <SkeletonStack rows={Array(2).fill('h-64 w-full')} className="grid grid-cols-1 gap-4 lg:grid-cols-2" />;
}

function ProjectsContent({ creating, setCreating }: { creating: boolean; setCreating: (open: boolean) => void }) {
  // Invitations, memberships and shares change in other people's browsers: each change re-reads the screen.
  const { data } = useRouteQuery<ProjectsScreenQuery>(
    graphql`
      query ProjectsScreenQuery @preloadable {
        viewer {
          id
        }
        ...InvitationsForYou_query
        ...ProjectsScreen_query
      }
    `,
    { refreshOn: () => true },
  );
  // A few cards a page: each card carries its crew, invitations and galleries.
  const { data: list, ...page } = usePaginationFragment<ProjectsScreenPaginationQuery, ProjectsScreen_query$key>(
    graphql`
      fragment ProjectsScreen_query on Query
      @refetchable(queryName: "ProjectsScreenPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 3 }, cursor: { type: "String" }) {
        projects(first: $count, after: $cursor) @connection(key: "ProjectsScreen_projects") {
          __id
          edges {
            node {
              id
              ...ProjectCard_project
            }
          }
        }
      }
    `,
    data,
  );
  const connectionId = list.projects.__id;
  const projects = list.projects.edges.map((edge) => edge.node);
  return (
    <>
      <InvitationsForYou query={data} projectsConnectionId={connectionId} />
      {projects.length === 0 ? (
        <EmptyState
          icon={<UsersIcon className="h-10 w-10" />}
          title="No projects yet"
          text="Create a project, invite your crew and share galleries with everyone in it at once."
          action={<Button onClick={() => setCreating(true)}>Create Project</Button>}
        />
      ) : (
        <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-2" data-testid="project-list">
          {projects.map((project) => (
            <ProjectCard key={project.id} project={project} viewerId={data.viewer.id} connectionId={connectionId} />
          ))}
        </div>
      )}
      <LoadMore list={page} count={3} label="Load more projects" />
      <CreateProjectDialog open={creating} onClose={() => setCreating(false)} connectionId={connectionId} />
    </>
  );
}

export default function ProjectsScreen() {
  const [creating, setCreating] = useState(false);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Projects"
        subtitle="Your productions, their crew and the galleries shared with them"
        actions={
          <Button onClick={() => setCreating(true)}>
            <PlusIcon className="h-4 w-4" />
            New Project
          </Button>
        }
      />
      <Suspense fallback={<ProjectsSkeleton />}>
        <ProjectsContent creating={creating} setCreating={setCreating} />
      </Suspense>
    </div>
  );
}
