import { useState } from 'react';
import { graphql } from 'react-relay/hooks';
import { FormDialog } from '../../ui/Dialog.tsx';
import type { CreateTaskDialogMutation } from './__generated__/CreateTaskDialogMutation.graphql';
import { EMPTY_TASK_FORM, submittableTask, TaskFields } from './TaskForm.tsx';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { insertTaskIntoConnection, type TaskConnections } from './taskLists.ts';

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

  function submit() {
    const variables = submittableTask(form);
    if (!variables) return;
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
    <FormDialog
      open={open}
      onClose={onClose}
      title="Create New Task"
      onSubmit={submit}
      submitLabel="Create Task"
      pendingLabel="Creating..."
      pending={pending}
    >
      <TaskFields form={form} setForm={setForm} idPrefix="task" />
    </FormDialog>
  );
}
