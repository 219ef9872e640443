import { graphql, useFragment } from 'react-relay/hooks';
import { Link } from 'react-router-dom';
import { formatDate, formatTaskDue } from '../../lib/format.ts';
import { appPath } from '../../lib/globalId.ts';
import { ActionsMenu, ActionsMenuItem } from '../../ui/ActionsMenu.tsx';
import { Badge, type BadgeTone } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { CalendarIcon, CheckIcon, ClockIcon, GalleryIcon, UsersIcon } from '../../ui/icons.tsx';
import type { EditTaskDialog_task$key } from './__generated__/EditTaskDialog_task.graphql';
import type { TaskCard_task$key } from './__generated__/TaskCard_task.graphql';
import { useNow } from '../../lib/now.ts';

const PRIORITY_TONE: Record<string, BadgeTone> = { high: 'red', medium: 'amber', low: 'slate' };
const PRIORITY_LABEL: Record<string, string> = { high: 'High', medium: 'Medium', low: 'Low' };

export interface TaskCardActions {
  onComplete: (task: { id: string; isOverdue: boolean }) => void;
  onReopen: (task: { id: string }) => void;
  onEdit: (task: EditTaskDialog_task$key) => void;
  onDelete: (task: { id: string; title: string }) => void;
}

export function TaskCard({ task: taskKey, actions }: { task: TaskCard_task$key; actions: TaskCardActions }) {
  const now = useNow();
  const task = useFragment(
    graphql`
      fragment TaskCard_task on Task {
        id
        title
        description
        priority
        status
        dueDate
        completedAt
        isOverdue
        viewerCanEdit
        relatedGalleryId
        assignee {
          displayName
        }
        ...EditTaskDialog_task
      }
    `,
    taskKey,
  );
  const completed = task.status === 'completed';
  const overdue = !completed && task.isOverdue;
  return (
    <article
      aria-label={task.title}
      data-testid="task-card"
      className={`rounded-xl border p-4 shadow-sm ${
        overdue
          ? 'border-red-300 bg-red-50 dark:border-red-900 dark:bg-red-950/40'
          : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950'
      }`}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3
              className={`min-w-0 font-semibold [overflow-wrap:anywhere] ${completed ? 'text-slate-500 line-through dark:text-slate-500' : 'text-slate-900 dark:text-slate-100'}`}
            >
              {task.title}
            </h3>
            <Badge tone={PRIORITY_TONE[task.priority] ?? 'slate'}>
              {PRIORITY_LABEL[task.priority] ?? task.priority}
            </Badge>
          </div>
          {task.description && (
            <p className="mt-1 text-sm whitespace-pre-line text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
              {task.description}
            </p>
          )}
          <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
            <span className="inline-flex min-w-0 items-center gap-1 [overflow-wrap:anywhere]">
              <UsersIcon className="h-3.5 w-3.5 shrink-0" />
              {task.assignee ? `Assigned to ${task.assignee.displayName}` : 'Unassigned'}
            </span>
            {task.dueDate && !completed && (
              <span
                className={`inline-flex items-center gap-1 ${overdue ? 'font-medium text-red-700 dark:text-red-400' : ''}`}
              >
                <CalendarIcon className="h-3.5 w-3.5" />
                {formatTaskDue(task.dueDate, now)}
              </span>
            )}
            {completed && task.completedAt && (
              <span className="inline-flex items-center gap-1 text-green-700 dark:text-green-400">
                <CheckIcon className="h-3.5 w-3.5" />
                Completed {formatDate(task.completedAt)}
              </span>
            )}
            {task.relatedGalleryId && (
              <Link
                to={appPath.gallery(task.relatedGalleryId)}
                className="inline-flex items-center gap-1 text-indigo-600 hover:underline dark:text-indigo-400"
              >
                <GalleryIcon className="h-3.5 w-3.5" />
                Related to a gallery
              </Link>
            )}
          </div>
        </div>
        {/* At the start on phones: the assistant's round button floats over a card's right edge. */}
        <div className="flex items-center gap-1 self-start">
          {completed ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => actions.onReopen({ id: task.id })}
              aria-label={`Reopen: ${task.title}`}
            >
              <ClockIcon className="h-4 w-4" />
              Reopen
            </Button>
          ) : (
            <Button
              variant="outline"
              size="sm"
              onClick={() => actions.onComplete({ id: task.id, isOverdue: task.isOverdue })}
              aria-label={`Mark Complete: ${task.title}`}
            >
              <CheckIcon className="h-4 w-4" />
              Mark Complete
            </Button>
          )}
          {task.viewerCanEdit && (
            <ActionsMenu label={`Actions for ${task.title}`} marginClass="-mr-1">
              <ActionsMenuItem onClick={() => actions.onEdit(task)}>Edit</ActionsMenuItem>
              <ActionsMenuItem onClick={() => actions.onDelete({ id: task.id, title: task.title })} danger>
                Delete
              </ActionsMenuItem>
            </ActionsMenu>
          )}
        </div>
      </div>
    </article>
  );
}
