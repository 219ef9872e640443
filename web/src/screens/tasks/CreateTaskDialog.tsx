import { useState } from 'react';
import { graphql } from 'react-relay/hooks';
import { FormDialog } from '../../ui/Dialog.tsx';
import type { CreateTaskDialogMutation } from './__generated__/CreateTaskDialogMutation.graphql';
import { AssigneeField } from './AssigneeField.tsx';
import type { AssigneeField_choices$key } from './__generated__/AssigneeField_choices.graphql';
import { EMPTY_TASK_FORM, submittableTask, TaskFields } from './TaskForm.tsx';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { insertTaskIntoConnection, type TaskConnections } from './taskLists.ts';

export function CreateTaskDialog({
  open,
  onClose,
  connections,
  choices,
}: {
  open: boolean;
  onClose: () => void;
  connections: TaskConnections;
  /** Whom the task may be given to (the screen's query). */
  choices: AssigneeField_choices$key;
}) {
  const empty = { ...EMPTY_TASK_FORM, assigneeId: '' };
  const [form, setForm] = useState(empty);
  const [commit, pending] = useMutationWithToasts<CreateTaskDialogMutation>(
    graphql`
      mutation CreateTaskDialogMutation(
        $title: String!
        $description: String
        $priority: TaskPriority
        $dueDate: DateTime
        $assigneeId: ID
      ) {
        createTask(
          title: $title
          description: $description
          priority: $priority
          dueDate: $dueDate
          assigneeId: $assigneeId
        ) {
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
      variables: { ...variables, assigneeId: form.assigneeId || null },
      updater(store) {
        const task = store.getRootField('createTask')?.getLinkedRecord('data');
        if (!task) return;
        const id = task.getDataID();
        insertTaskIntoConnection(store, connections.pending, id, connections.sort);
        if (task.getValue('isOverdue') === true)
          insertTaskIntoConnection(store, connections.overdue, id, connections.sort);
      },
      onSuccess: () => {
        setForm(empty);
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
      <AssigneeField
        choices={choices}
        id="task-assignee"
        value={form.assigneeId}
        onChange={(assigneeId) => setForm({ ...form, assigneeId })}
      />
    </FormDialog>
  );
}
