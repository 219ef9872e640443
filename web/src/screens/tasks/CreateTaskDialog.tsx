import { type FormEvent, useState } from 'react';
import { graphql } from 'react-relay';
import { ConnectionHandler, type RecordSourceSelectorProxy } from 'relay-runtime';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogActions } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast.tsx';
import type { CreateTaskDialogMutation } from './__generated__/CreateTaskDialogMutation.graphql';
import { EMPTY_TASK_FORM, TaskFields, taskFormVariables } from './TaskForm.tsx';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';

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

export function CreateTaskDialog({
  open,
  onClose,
  connections,
}: {
  open: boolean;
  onClose: () => void;
  connections: TaskConnections;
}) {
  const [form, setForm] = useState(EMPTY_TASK_FORM);
  const [commit, pending] = useMutationWithToasts<CreateTaskDialogMutation>(
    graphql`
      mutation CreateTaskDialogMutation(
        $title: String!
        $description: String
        $priority: TaskPriority
        $dueDate: DateTime
      ) {
        createTask(title: $title, description: $description, priority: $priority, dueDate: $dueDate) {
          __typename
          ... on MutationCreateTaskSuccess {
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
      outcome: (r) => r.createTask,
      success: { title: 'Task Created', description: 'Task created successfully!' },
      failure: 'Failed to create task. Please try again.',
      serverMessage: true,
    },
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const variables = taskFormVariables(form);
    if (!variables.title) {
      toast({ title: 'Error', description: 'Task title is required.', variant: 'destructive' });
      return;
    }
    commit({
      variables,
      updater(store) {
        const task = store.getRootField('createTask')?.getLinkedRecord('data');
        if (!task) return;
        const id = task.getDataID();
        insertTaskIntoConnection(store, connections.pending, id);
        if (task.getValue('isOverdue') === true) insertTaskIntoConnection(store, connections.overdue, id);
      },
      onSuccess: () => {
        setForm(EMPTY_TASK_FORM);
        onClose();
      },
    });
  }

  return (
    <Dialog open={open} onClose={() => !pending && onClose()} title="Create New Task">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TaskFields form={form} setForm={setForm} idPrefix="task" />
        <DialogActions>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? 'Creating...' : 'Create Task'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
