import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { Suspense, useState } from 'react';
import { graphql, usePaginationFragment } from 'react-relay/hooks';
import { useNavigation, useSearchParams } from 'react-router-dom';
import { ConnectionHandler, type RecordSourceSelectorProxy } from 'relay-runtime';
import { useRouteQuery } from '../../routing/useRouteQuery.ts';
import { useTasksChanged } from '../../live/useLiveRefresh.ts';
import { Button } from '../../ui/Button.tsx';
import { PageHeader, StatCard } from '../../ui/Card.tsx';
import { ConfirmDialog } from '../../ui/dialogs.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { AlertIcon, CheckIcon, ClockIcon, PlusIcon, TasksIcon } from '../../ui/icons.tsx';
import { Select } from '../../ui/Select.tsx';
import { Skeleton, SkeletonStack } from '../../ui/Skeleton.tsx';
import { LoadMore } from '../../ui/LoadMore.tsx';
import { CreateTaskDialog, EditTaskDialog } from './dialogs.ts';
import { insertTaskIntoConnection } from './taskLists.ts';
import { TaskCard, type TaskCardActions } from './TaskCard.tsx';
import type { EditTaskDialog_task$key } from './__generated__/EditTaskDialog_task.graphql';
import type { TasksScreenCompleteMutation } from './__generated__/TasksScreenCompleteMutation.graphql';
import type { TasksScreenDeleteMutation } from './__generated__/TasksScreenDeleteMutation.graphql';
import type { TasksScreenReopenMutation } from './__generated__/TasksScreenReopenMutation.graphql';
import { TASK_SORTS, taskSortFrom } from './options.ts';
import type { TasksScreen_list$key } from './__generated__/TasksScreen_list.graphql';
import type { TasksScreenListPaginationQuery } from './__generated__/TasksScreenListPaginationQuery.graphql';
import type { TasksScreenQuery } from './__generated__/TasksScreenQuery.graphql';
import { toastsFor, useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';

const PAGE_SIZE = 20;

// Due date first by default: the list is a to-do list, and what is most overdue or due soonest is
// what to do next. Newest first finds what was just added.
const tabClass =
  'rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 data-[selected]:bg-white data-[selected]:text-slate-900 data-[selected]:shadow-sm dark:text-slate-400 dark:data-[selected]:bg-slate-800 dark:data-[selected]:text-slate-100';

function TaskSkeletons() {
  return <SkeletonStack rows={Array(3).fill('h-24 w-full')} className="space-y-3" />;
}

function removeTaskFromConnection(store: RecordSourceSelectorProxy, connectionId: string, taskId: string) {
  const connection = store.get(connectionId);
  // Only a list that holds the task counts one less.
  const held = connection
    ?.getLinkedRecords('edges')
    ?.some((edge) => edge?.getLinkedRecord('node')?.getDataID() === taskId);
  if (!connection || !held) return;
  ConnectionHandler.deleteNode(connection, taskId);
  connection.setValue(Math.max(0, ((connection.getValue('totalCount') as number | undefined) ?? 1) - 1), 'totalCount');
}

/** One of the lists (pending, completed, overdue), paged on its own. */
function useTaskList(key: TasksScreen_list$key) {
  return usePaginationFragment<TasksScreenListPaginationQuery, TasksScreen_list$key>(
    graphql`
      fragment TasksScreen_list on TaskList
      @refetchable(queryName: "TasksScreenListPaginationQuery")
      @argumentDefinitions(
        count: { type: "Int", defaultValue: 20 }
        cursor: { type: "String" }
        sort: { type: "TaskSort", defaultValue: DUE_DATE }
      ) {
        tasks(sort: $sort, first: $count, after: $cursor) @connection(key: "TasksScreen_tasks") {
          __id
          totalCount
          edges {
            node {
              id
              ...TaskCard_task
            }
          }
        }
      }
    `,
    key,
  );
}

function TasksContent({
  onCreate,
  dialogOpen,
  closeDialog,
}: {
  onCreate: () => void;
  dialogOpen: boolean;
  closeDialog: () => void;
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const sort = taskSortFrom(searchParams.get('sort'));
  // A new order is a navigation: the lists stay until the new one is ready.
  const sorting = useNavigation().state !== 'idle';
  // `refresh` reads the lists again after an edit or a reopen: a new due date moves a task.
  const { data, refresh } = useRouteQuery<TasksScreenQuery>(
    graphql`
      query TasksScreenQuery($sort: TaskSort!) @preloadable {
        pending: taskList(kind: pending) {
          ...TasksScreen_list @arguments(sort: $sort)
        }
        completed: taskList(kind: completed) {
          ...TasksScreen_list @arguments(sort: $sort)
        }
        overdue: taskList(kind: overdue) {
          ...TasksScreen_list @arguments(sort: $sort)
        }
        ...EditTaskDialog_choices
        ...AssigneeField_choices
      }
    `,
  );
  // Someone else assigned, changed or completed one of these tasks: read the lists again.
  useTasksChanged(refresh);
  const [editing, setEditing] = useState<EditTaskDialog_task$key | null>(null);
  const [deleting, setDeleting] = useState<{ id: string; title: string } | null>(null);

  const pending = useTaskList(data.pending);
  const completed = useTaskList(data.completed);
  const overdue = useTaskList(data.overdue);

  const pendingList = pending.data.tasks;
  const completedList = completed.data.tasks;
  const overdueList = overdue.data.tasks;

  const [commitComplete] = useMutationWithToasts<TasksScreenCompleteMutation>(
    graphql`
      mutation TasksScreenCompleteMutation($id: ID!) {
        completeTask(id: $id) {
          __typename
          ... on MutationCompleteTaskSuccess {
            data {
              id
              ...TaskCard_task
            }
          }
          ... on Error {
            message
          }
        }
      }
    `,
    {
      outcome: (r) => r.completeTask,
      success: { title: 'Success', description: 'Task completed!' },
      failure: 'Failed to complete task. Please try again.',
    },
  );

  function complete(task: { id: string; isOverdue: boolean }) {
    // The move from Pending to Completed is certain, so it shows at once and is undone on failure.
    const move = (store: RecordSourceSelectorProxy, optimistic: boolean) => {
      const record = store.get(task.id);
      if (!record) return;
      if (optimistic) {
        record.setValue('completed', 'status');
        record.setValue(new Date().toISOString(), 'completedAt');
        record.setValue(false, 'isOverdue');
      } else if (record.getValue('status') !== 'completed') {
        return;
      }
      removeTaskFromConnection(store, pendingList.__id, task.id);
      if (task.isOverdue) removeTaskFromConnection(store, overdueList.__id, task.id);
      insertTaskIntoConnection(store, completedList.__id, task.id);
    };
    commitComplete({
      variables: { id: task.id },
      optimisticUpdater: (store) => move(store, true),
      updater: (store) => move(store, false),
    });
  }

  const [commitReopen] = useMutationWithToasts<TasksScreenReopenMutation>(
    graphql`
      mutation TasksScreenReopenMutation($id: ID!) {
        reopenTask(id: $id) {
          __typename
          ... on MutationReopenTaskSuccess {
            data {
              id
              isOverdue
              ...TaskCard_task
            }
          }
          ... on Error {
            message
          }
        }
      }
    `,
    {
      outcome: (r) => r.reopenTask,
      success: { title: 'Success', description: 'Task reopened!' },
      failure: 'Failed to reopen task. Please try again.',
    },
  );

  function reopen(task: { id: string }) {
    commitReopen({
      variables: { id: task.id },
      updater(store) {
        const record = store.getRootField('reopenTask')?.getLinkedRecord('data');
        if (record?.getValue('status') !== 'pending') return;
        removeTaskFromConnection(store, completedList.__id, task.id);
        insertTaskIntoConnection(store, pendingList.__id, task.id);
        if (record.getValue('isOverdue') === true) insertTaskIntoConnection(store, overdueList.__id, task.id);
      },
      onSuccess: refresh,
    });
  }

  const [commitDelete, deletePending] = useMutationWithToasts<TasksScreenDeleteMutation>(
    graphql`
      mutation TasksScreenDeleteMutation($id: ID!) {
        deleteTask(id: $id) {
          __typename
          ... on MutationDeleteTaskSuccess {
            data
          }
          ... on Error {
            message
          }
        }
      }
    `,
    {
      outcome: (r) => r.deleteTask,
      ...toastsFor('delete', 'Task'),
    },
  );

  function confirmDelete() {
    if (!deleting) return;
    const { id } = deleting;
    commitDelete({
      variables: { id },
      updater(store, response) {
        if (response?.deleteTask.__typename !== 'MutationDeleteTaskSuccess') return;
        for (const list of [pendingList, completedList, overdueList]) removeTaskFromConnection(store, list.__id, id);
        store.delete(id);
      },
      onSuccess: () => setDeleting(null),
    });
  }

  const actions: TaskCardActions = {
    onComplete: complete,
    onReopen: reopen,
    onEdit: setEditing,
    onDelete: setDeleting,
  };
  const overdueCount = overdueList.totalCount;

  return (
    <>
      <div className="mb-6 grid grid-cols-1 gap-4 sm:grid-cols-3">
        <StatCard label="Pending Tasks" value={pendingList.totalCount} icon={<ClockIcon className="h-8 w-8" />} />
        <StatCard label="Completed Tasks" value={completedList.totalCount} icon={<CheckIcon className="h-8 w-8" />} />
        <StatCard label="Overdue Tasks" value={overdueCount} icon={<AlertIcon className="h-8 w-8" />} />
      </div>
      <TabGroup>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <TabList className="inline-flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-900">
            <Tab className={tabClass}>Pending ({pendingList.totalCount})</Tab>
            <Tab className={tabClass}>Completed ({completedList.totalCount})</Tab>
            {overdueCount > 0 && <Tab className={tabClass}>Overdue ({overdueCount})</Tab>}
          </TabList>
          <div className="flex items-center gap-2" aria-busy={sorting}>
            <label htmlFor="task-sort" className="text-sm text-slate-600 dark:text-slate-400">
              Sort by
            </label>
            <Select
              id="task-sort"
              className="w-40"
              value={sort}
              options={TASK_SORTS}
              onChange={(value) =>
                setSearchParams(
                  (params) => {
                    const next = new URLSearchParams(params);
                    if (value === 'NEWEST') next.set('sort', 'newest');
                    else next.delete('sort');
                    return next;
                  },
                  { replace: true },
                )
              }
            />
          </div>
        </div>
        <TabPanels>
          <TabPanel className="space-y-3 focus:outline-none">
            {pendingList.edges.length === 0 ? (
              <EmptyState
                icon={<TasksIcon className="h-10 w-10" />}
                title="No pending tasks"
                text={
                  completedList.totalCount > 0
                    ? 'All tasks are completed! Create a new task to get started.'
                    : 'There are no tasks yet. Create one to get started.'
                }
                action={
                  <Button onClick={onCreate}>
                    <PlusIcon className="h-4 w-4" /> Create Your First Task
                  </Button>
                }
              />
            ) : (
              pendingList.edges.map((edge) => <TaskCard key={edge.node.id} task={edge.node} actions={actions} />)
            )}
            <LoadMore list={pending} count={PAGE_SIZE} className="pt-2" />
          </TabPanel>
          <TabPanel className="space-y-3 focus:outline-none">
            {completedList.edges.length === 0 ? (
              <EmptyState
                icon={<CheckIcon className="h-10 w-10" />}
                title="No completed tasks"
                text="Completed tasks will appear here"
              />
            ) : (
              completedList.edges.map((edge) => <TaskCard key={edge.node.id} task={edge.node} actions={actions} />)
            )}
            <LoadMore list={completed} count={PAGE_SIZE} className="pt-2" />
          </TabPanel>
          {overdueCount > 0 && (
            <TabPanel className="space-y-3 focus:outline-none">
              {overdueList.edges.map((edge) => (
                <TaskCard key={edge.node.id} task={edge.node} actions={actions} />
              ))}
              <LoadMore list={overdue} count={PAGE_SIZE} className="pt-2" />
            </TabPanel>
          )}
        </TabPanels>
      </TabGroup>
      <CreateTaskDialog
        open={dialogOpen}
        onClose={closeDialog}
        connections={{ pending: pendingList.__id, overdue: overdueList.__id, sort }}
        choices={data}
      />
      {editing && (
        <EditTaskDialog
          task={editing}
          choices={data}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
        pending={deletePending}
        title="Delete Task"
        message={deleting ? `Delete "${deleting.title}"? This cannot be undone.` : ''}
      />
    </>
  );
}

function TasksLoading() {
  return (
    <>
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <div className="mb-4 inline-flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-900">
        <span className="px-3 py-1.5 text-sm font-medium text-slate-600 dark:text-slate-400">Pending</span>
        <span className="px-3 py-1.5 text-sm font-medium text-slate-600 dark:text-slate-400">Completed</span>
      </div>
      <TaskSkeletons />
    </>
  );
}

export default function TasksScreen() {
  const [dialogOpen, setDialogOpen] = useState(false);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Task Management"
        subtitle="Assign, track, and complete project tasks"
        actions={
          <Button onClick={() => setDialogOpen(true)}>
            <PlusIcon className="h-4 w-4" /> New Task
          </Button>
        }
      />
      <Suspense fallback={<TasksLoading />}>
        <TasksContent
          onCreate={() => setDialogOpen(true)}
          dialogOpen={dialogOpen}
          closeDialog={() => setDialogOpen(false)}
        />
      </Suspense>
    </div>
  );
}
