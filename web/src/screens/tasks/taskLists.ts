import { ConnectionHandler, type RecordSourceSelectorProxy } from 'relay-runtime';

/** Connection record ids of the lists a new task may join. */
export interface TaskConnections {
  pending?: string;
  overdue?: string;
}

export function insertTaskIntoConnection(
  store: RecordSourceSelectorProxy,
  connectionId: string | undefined,
  taskId: string,
) {
  if (!connectionId) return;
  const connection = store.get(connectionId);
  const task = store.get(taskId);
  if (!connection || !task) return;
  const edge = ConnectionHandler.createEdge(store, connection, task, 'QueryTasksConnectionEdge');
  ConnectionHandler.insertEdgeBefore(connection, edge);
  connection.setValue(((connection.getValue('totalCount') as number | undefined) ?? 0) + 1, 'totalCount');
}
