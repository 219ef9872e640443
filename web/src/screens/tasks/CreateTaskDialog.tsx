import { type FormEvent, useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import { ConnectionHandler, type RecordSourceSelectorProxy } from 'relay-runtime';
import { isUnauthorizedError } from '../../lib/http.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogActions } from '../../ui/Dialog.tsx';
import { Field, Input, Textarea } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { toast } from '../../ui/toast.tsx';
import type { CreateTaskDialogMutation, TaskPriority } from './__generated__/CreateTaskDialogMutation.graphql';

export const PRIORITY_OPTIONS = [
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High' },
] as const satisfies readonly { value: TaskPriority; label: string }[];

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

const EMPTY = { title: '', description: '', priority: 'medium' as TaskPriority, dueDate: '' };

export function CreateTaskDialog({
  open,
  onClose,
  connections,
}: {
  open: boolean;
  onClose: () => void;
  connections: TaskConnections;
}) {
  const [form, setForm] = useState(EMPTY);
  const [commit, pending] = useMutation<CreateTaskDialogMutation>(graphql`
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
  `);

  function submit(event: FormEvent) {
    event.preventDefault();
    const title = form.title.trim();
    if (!title) {
      toast({ title: 'Error', description: 'Task title is required.', variant: 'destructive' });
      return;
    }
    commit({
      variables: {
        title,
        description: form.description.trim() || null,
        priority: form.priority,
        // An empty due date is sent as null (SPEC.md section 5).
        dueDate: form.dueDate ? new Date(form.dueDate).toISOString() : null,
      },
      updater(store) {
        const task = store.getRootField('createTask')?.getLinkedRecord('data');
        if (!task) return;
        const id = task.getDataID();
        insertTaskIntoConnection(store, connections.pending, id);
        if (task.getValue('isOverdue') === true) insertTaskIntoConnection(store, connections.overdue, id);
      },
      onCompleted(response) {
        const result = response.createTask;
        if (result.__typename === 'MutationCreateTaskSuccess') {
          toast({ title: 'Task Created', description: 'Task created successfully!' });
          setForm(EMPTY);
          onClose();
        } else {
          toast({
            title: 'Error',
            description: ('message' in result && result.message) || 'Failed to create task. Please try again.',
            variant: 'destructive',
          });
        }
      },
      onError(error) {
        if (isUnauthorizedError(error)) return;
        toast({ title: 'Error', description: 'Failed to create task. Please try again.', variant: 'destructive' });
      },
    });
  }

  return (
    <Dialog open={open} onClose={() => !pending && onClose()} title="Create New Task">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Task Title" htmlFor="task-title">
          <Input
            id="task-title"
            value={form.title}
            onChange={(e) => setForm({ ...form, title: e.target.value })}
            placeholder="Enter task title"
            autoFocus
          />
        </Field>
        <Field label="Description (Optional)" htmlFor="task-description">
          <Textarea
            id="task-description"
            rows={3}
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
            placeholder="Add more details"
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Priority" htmlFor="task-priority">
            <Select
              id="task-priority"
              value={form.priority}
              onChange={(priority) => setForm({ ...form, priority })}
              options={PRIORITY_OPTIONS}
            />
          </Field>
          <Field label="Due Date (Optional)" htmlFor="task-due">
            <Input
              id="task-due"
              type="datetime-local"
              value={form.dueDate}
              onChange={(e) => setForm({ ...form, dueDate: e.target.value })}
            />
          </Field>
        </div>
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
