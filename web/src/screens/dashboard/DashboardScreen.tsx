import { type ReactNode, Suspense } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { useRouteQuery } from '../../routing/useRouteQuery.ts';
import { useTasksChanged } from '../../live/useLiveRefresh.ts';
import { Link } from 'react-router-dom';
import { countOf, formatActivityTime, formatFileSize, formatMegabytes, formatTaskDue } from '../../lib/format.ts';
import { useNow } from '../../lib/now.ts';
import { ImportMenu } from '../../imports/ImportMenu.tsx';
import { appPath } from '../../lib/globalId.ts';
import { UploadZone } from '../../uploads/UploadZone.tsx';
import { Badge } from '../../ui/Badge.tsx';
import { ButtonLink } from '../../ui/ButtonLink.tsx';
import { Card, PageHeader, StatCard } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import {
  ActivityIcon,
  FolderIcon,
  GalleryIcon,
  HardDriveIcon,
  ImageIcon,
  TasksIcon,
  UploadIcon,
} from '../../ui/icons.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { GalleryCardView } from '../galleries/GalleryCardView.tsx';
import { FIRST_ROW } from '../galleries/photos.ts';
import type { DashboardScreen_activity$key } from './__generated__/DashboardScreen_activity.graphql';
import type { DashboardScreen_gallery$key } from './__generated__/DashboardScreen_gallery.graphql';
import type { DashboardScreen_task$key } from './__generated__/DashboardScreen_task.graphql';
import type { DashboardScreenQuery } from './__generated__/DashboardScreenQuery.graphql';

const ACTION_TEXT: Record<string, string> = {
  file_uploaded: 'uploaded',
  file_deleted: 'deleted',
  gallery_created: 'created the gallery',
  gallery_shared: 'shared the gallery',
  task_created: 'created the task',
  task_completed: 'completed the task',
  folder_created: 'created the folder',
  file_added_to_gallery: 'added to a gallery',
  photo_commented: 'commented on a photo in',
};

function GalleryCard({ gallery: key, first }: { gallery: DashboardScreen_gallery$key; first: boolean }) {
  const gallery = useFragment(
    graphql`
      fragment DashboardScreen_gallery on Gallery {
        id
        name
        coverImageUrl
        coverImage2xUrl
        photoCount
        isPublic
        createdAt
        location
      }
    `,
    key,
  );
  return <GalleryCardView gallery={gallery} first={first} />;
}

function ActivityItem({ activity: key }: { activity: DashboardScreen_activity$key }) {
  const now = useNow();
  const activity = useFragment(
    graphql`
      fragment DashboardScreen_activity on Activity {
        action
        resourceName
        resourceType
        metadata
        createdAt
        actor {
          displayName
        }
      }
    `,
    key,
  );
  const metadata = (activity.metadata ?? {}) as { size?: number; sharedWith?: number };
  const extra =
    typeof metadata.size === 'number'
      ? ` (${formatFileSize(metadata.size)})`
      : typeof metadata.sharedWith === 'number'
        ? ` with ${countOf(metadata.sharedWith, 'project')}`
        : '';
  return (
    <li className="flex items-start gap-3 py-3">
      <span className="mt-0.5 rounded-full bg-indigo-50 p-1.5 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
        <ActivityIcon className="h-4 w-4" />
      </span>
      <div className="min-w-0 flex-1 text-sm">
        <p className="line-clamp-3 text-slate-800 [overflow-wrap:anywhere] dark:text-slate-200">
          <span className="font-medium">{activity.actor.displayName}</span>{' '}
          {ACTION_TEXT[activity.action] ?? activity.action} <span className="font-medium">{activity.resourceName}</span>
          {extra}
        </p>
        <p className="text-xs text-slate-500 dark:text-slate-400">{formatActivityTime(activity.createdAt, now)}</p>
      </div>
    </li>
  );
}

function TaskItem({ task: key }: { task: DashboardScreen_task$key }) {
  const now = useNow();
  const task = useFragment(
    graphql`
      fragment DashboardScreen_task on Task {
        title
        priority
        dueDate
        isOverdue
      }
    `,
    key,
  );
  return (
    <li className="flex items-center justify-between gap-3 py-2.5 text-sm">
      <span className="min-w-0 truncate text-slate-800 dark:text-slate-200">{task.title}</span>
      {task.dueDate && (
        <span
          className={`shrink-0 text-xs ${task.isOverdue ? 'font-medium text-red-600 dark:text-red-400' : 'text-slate-500 dark:text-slate-400'}`}
        >
          {formatTaskDue(task.dueDate, now)}
        </span>
      )}
    </li>
  );
}

function CardHeader({ title, to, icon }: { title: string; to?: string; icon: ReactNode }) {
  return (
    <div className="mb-2 flex items-center justify-between">
      <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900 dark:text-slate-100">
        {icon}
        {title}
      </h2>
      {to && (
        <Link to={to} className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
          View All
        </Link>
      )}
    </div>
  );
}

/** A card's short list, or the line saying there is nothing in it yet. */
function CardList<T>({
  items,
  empty,
  children,
}: {
  items: readonly T[];
  empty: string;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) {
    return <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{empty}</p>;
  }
  return <ul className="divide-y divide-slate-100 dark:divide-slate-800">{items.map(children)}</ul>;
}

function DashboardContent() {
  const { data, refresh } = useRouteQuery<DashboardScreenQuery>(
    graphql`
      query DashboardScreenQuery @preloadable {
        viewer {
          id
          dashboardStats {
            totalPhotos
            activeGalleries
            pendingTasks
            overdueTasks
          }
          storage {
            usedBytes
          }
        }
        galleries(first: 6, sort: recent) {
          edges {
            node {
              id
              ...DashboardScreen_gallery
            }
          }
        }
        folders(first: 5) {
          edges {
            node {
              id
              name
              fileCount
            }
          }
        }
        projects(first: 5) {
          edges {
            node {
              id
              name
              type
            }
          }
        }
        activity(first: 8) {
          edges {
            node {
              id
              ...DashboardScreen_activity
            }
          }
        }
        tasks(status: pending, first: 5) {
          edges {
            node {
              id
              ...DashboardScreen_task
            }
          }
        }
      }
    `,
  );
  // A task given to the viewer (or changed by someone else) joins the widget without a reload.
  useTasksChanged(refresh);
  const stats = data.viewer.dashboardStats;
  const galleries = data.galleries.edges;
  const folders = data.folders.edges;
  const projects = data.projects.edges;
  const activity = data.activity.edges;
  const tasks = data.tasks.edges;

  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <StatCard label="Total Photos" value={stats?.totalPhotos ?? 0} icon={<ImageIcon className="h-8 w-8" />} />
        <StatCard
          label="Active Galleries"
          value={stats?.activeGalleries ?? 0}
          icon={<GalleryIcon className="h-8 w-8" />}
        />
        <StatCard
          label="Storage Used"
          value={`${formatMegabytes(data.viewer.storage?.usedBytes ?? 0)} MB`}
          icon={<HardDriveIcon className="h-8 w-8" />}
        />
      </div>

      <UploadZone onBatchDone={refresh} />

      <section aria-labelledby="recent-galleries">
        <div className="mb-3 flex items-center justify-between">
          <h2 id="recent-galleries" className="text-lg font-semibold text-slate-900 dark:text-slate-100">
            Most Recent Galleries
          </h2>
          {galleries.length > 0 && (
            <Link to="/galleries" className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
              View All
            </Link>
          )}
        </div>
        {galleries.length === 0 ? (
          <EmptyState
            icon={<GalleryIcon className="h-10 w-10" />}
            title="No galleries yet"
            action={<ButtonLink to="/galleries">Create Gallery</ButtonLink>}
          />
        ) : (
          <div className="grid grid-cols-2 gap-4 lg:grid-cols-3">
            {galleries.map((edge, i) => (
              <GalleryCard key={edge.node.id} gallery={edge.node} first={i < FIRST_ROW} />
            ))}
          </div>
        )}
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card className="p-5">
          <CardHeader title="Scouting Folders" to="/files" icon={<FolderIcon className="h-5 w-5" />} />
          <CardList items={folders} empty="No folders yet">
            {({ node }) => (
              <li key={node.id}>
                <Link
                  to={appPath.folder(node.id)}
                  className="flex items-center justify-between gap-3 py-2.5 text-sm text-slate-800 hover:text-indigo-600 dark:text-slate-200"
                >
                  <span className="flex min-w-0 items-center gap-2">
                    <FolderIcon className="h-4 w-4 shrink-0 text-amber-500" />{' '}
                    <span className="truncate">{node.name}</span>
                  </span>
                  <span className="shrink-0 text-xs text-slate-500 dark:text-slate-400">
                    {countOf(node.fileCount, 'file')}
                  </span>
                </Link>
              </li>
            )}
          </CardList>
        </Card>
        <Card className="p-5">
          <CardHeader title="Project Folders" to="/files" icon={<FolderIcon className="h-5 w-5" />} />
          <CardList items={projects} empty="No projects yet">
            {({ node }) => (
              <li key={node.id} className="flex items-center justify-between gap-3 py-2.5 text-sm">
                <span className="min-w-0 truncate text-slate-800 dark:text-slate-200">{node.name}</span>
                <span className="shrink-0">
                  <Badge tone="indigo">{node.type.replace('_', ' ')}</Badge>
                </span>
              </li>
            )}
          </CardList>
        </Card>
        <Card className="p-5">
          <CardHeader title="Recent Activity" icon={<ActivityIcon className="h-5 w-5" />} />
          <CardList items={activity} empty="No recent activity">
            {(edge) => <ActivityItem key={edge.node.id} activity={edge.node} />}
          </CardList>
        </Card>
        <Card className="p-5">
          <CardHeader title="Tasks" to="/tasks" icon={<TasksIcon className="h-5 w-5" />} />
          {stats && (
            <p className="mb-1 text-xs text-slate-500 dark:text-slate-400">
              {stats.pendingTasks} pending{stats.overdueTasks > 0 ? ` · ${stats.overdueTasks} overdue` : ''}
            </p>
          )}
          <CardList items={tasks} empty="No pending tasks">
            {(edge) => <TaskItem key={edge.node.id} task={edge.node} />}
          </CardList>
        </Card>
      </div>
    </div>
  );
}

function DashboardLoading() {
  return (
    <div className="space-y-6" aria-busy="true">
      <div className="grid gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <Skeleton className="h-40" />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-3">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <Skeleton key={i} className="aspect-[4/3]" />
        ))}
      </div>
    </div>
  );
}

export default function DashboardScreen() {
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Dashboard"
        subtitle="Your locations, files and tasks at a glance"
        actions={
          <>
            <ImportMenu kind="media" />
            <ButtonLink to="/files?upload=true" variant="outline">
              <UploadIcon className="h-4 w-4" /> Upload Files
            </ButtonLink>
          </>
        }
      />
      <Suspense fallback={<DashboardLoading />}>
        <DashboardContent />
      </Suspense>
    </div>
  );
}
