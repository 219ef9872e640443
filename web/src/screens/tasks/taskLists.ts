import { ConnectionHandler, type RecordProxy, type RecordSourceSelectorProxy } from 'relay-runtime';
import type { TaskSort } from './__generated__/TasksScreenQuery.graphql';

/** Connection record ids of the lists a new task may join, and the order they are shown in. */
export interface TaskConnections {
  pending?: string;
  overdue?: string;
  sort: TaskSort;
}

const dueTime = (task: RecordProxy | null | undefined) => {
  const due = task?.getValue('dueDate');
  return typeof due === 'string' ? new Date(due).getTime() : null;
};

/**
 * Where a task just created (so the newest) goes in a list in `sort` order, as the server orders it
 * (api/src/tasks/rules.ts, taskOrder): newest first at the top; by due date before the first task
 * due later or at the same time, undated tasks last. -1: after the loaded page, where the next page
 * will bring it.
 */
function newTaskIndex(edges: readonly (RecordProxy | null)[], task: RecordProxy, sort: TaskSort, more: boolean) {
  if (sort === 'NEWEST') return 0;
  const due = dueTime(task);
  const index = edges.findIndex((edge) => {
    const other = dueTime(edge?.getLinkedRecord('node'));
    return due === null ? other === null : other === null || other >= due;
  });
  if (index >= 0) return index;
  return more ? -1 : edges.length;
}

export function insertTaskIntoConnection(
  store: RecordSourceSelectorProxy,
  connectionId: string | undefined,
  taskId: string,
  sort: TaskSort = 'NEWEST',
) {
  if (!connectionId) return;
  const connection = store.get(connectionId);
  const task = store.get(taskId);
  if (!connection || !task) return;
  connection.setValue(((connection.getValue('totalCount') as number | undefined) ?? 0) + 1, 'totalCount');
  const edges = connection.getLinkedRecords('edges') ?? [];
  const more = connection.getLinkedRecord('pageInfo')?.getValue('hasNextPage') === true;
  const index = newTaskIndex(edges, task, sort, more);
  if (index < 0) return;
  const edge = ConnectionHandler.createEdge(store, connection, task, 'QueryTasksConnectionEdge');
  // By position, not by cursor: edges added here before have none.
  connection.setLinkedRecords([...edges.slice(0, index), edge, ...edges.slice(index)], 'edges');
}
