import { useState } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { FormDialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { AssigneeField } from './AssigneeField.tsx';
import type { EditTaskDialog_choices$key } from './__generated__/EditTaskDialog_choices.graphql';
import type { EditTaskDialog_task$key } from './__generated__/EditTaskDialog_task.graphql';
import type { EditTaskDialogMutation } from './__generated__/EditTaskDialogMutation.graphql';
import { submittableTask, TaskFields, type TaskFormValues, toLocalInput } from './TaskForm.tsx';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';

const FAILED = 'Failed to update task. Please try again.';

/** Edit Task: the Create New Task form plus who does it and which gallery it is about. */
export function EditTaskDialog({
  task: taskKey,
  choices: choicesKey,
  onClose,
  onSaved,
}: {
  task: EditTaskDialog_task$key;
  choices: EditTaskDialog_choices$key;
  onClose: () => void;
  onSaved: () => void;
}) {
  const task = useFragment(
    graphql`
      fragment EditTaskDialog_task on Task {
        id
        title
        description
        priority
        dueDate
        assignee {
          id
          displayName
        }
        relatedGallery {
          id
          name
        }
      }
    `,
    taskKey,
  );
  const choices = useFragment(
    graphql`
      fragment EditTaskDialog_choices on Query {
        ...AssigneeField_choices
        galleries(first: 100, sort: name) {
          edges {
            node {
              id
              name
            }
          }
        }
      }
    `,
    choicesKey,
  );
  const [form, setForm] = useState<TaskFormValues & { assigneeId: string; galleryId: string }>({
    title: task.title,
    description: task.description ?? '',
    priority: task.priority === 'low' || task.priority === 'high' ? task.priority : 'medium',
    dueDate: toLocalInput(task.dueDate as string | null),
    assigneeId: task.assignee?.id ?? '',
    galleryId: task.relatedGallery?.id ?? '',
  });

  const galleries = choices.galleries.edges.map((e) => e.node);
  if (task.relatedGallery && !galleries.some((g) => g.id === task.relatedGallery?.id))
    galleries.push(task.relatedGallery);
  const galleryOptions = [{ value: '', label: 'None' }, ...galleries.map((g) => ({ value: g.id, label: g.name }))];

  const [commit, pending] = useMutationWithToasts<EditTaskDialogMutation>(
    graphql`
      mutation EditTaskDialogMutation(
        $id: ID!
        $title: String!
        $description: String
        $priority: TaskPriority
        $dueDate: DateTime
        $assigneeId: ID
        $galleryId: ID
      ) {
        updateTask(
          id: $id
          title: $title
          description: $description
          priority: $priority
          dueDate: $dueDate
          assigneeId: $assigneeId
          galleryId: $galleryId
        ) {
          __typename
          ... on MutationUpdateTaskSuccess {
            data {
              id
              ...TaskCard_task
              ...EditTaskDialog_task
            }
          }
          ... on Error {
            message
          }
        }
      }
    `,
    {
      outcome: (r) => r.updateTask,
      success: { title: 'Task Updated', description: 'Task updated successfully!' },
      failure: FAILED,
      serverMessage: true,
    },
  );

  function submit() {
    const fields = submittableTask(form);
    if (!fields) return;
    commit({
      variables: { id: task.id, ...fields, assigneeId: form.assigneeId || null, galleryId: form.galleryId || null },
      onSuccess: onSaved,
    });
  }

  return (
    <FormDialog
      open
      onClose={onClose}
      title="Edit Task"
      onSubmit={submit}
      submitLabel="Save Changes"
      pendingLabel="Saving..."
      pending={pending}
    >
      <TaskFields form={form} setForm={setForm} idPrefix="edit-task" />
      {/* Who does it and which gallery it is about: what Edit adds to the Create New Task fields. */}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <AssigneeField
          choices={choices}
          id="edit-task-assignee"
          value={form.assigneeId}
          onChange={(assigneeId) => setForm({ ...form, assigneeId })}
          current={task.assignee}
        />
        <Field label="Related Gallery (Optional)" htmlFor="edit-task-gallery">
          <Select
            id="edit-task-gallery"
            value={form.galleryId}
            onChange={(galleryId) => setForm({ ...form, galleryId })}
            options={galleryOptions}
          />
        </Field>
      </div>
    </FormDialog>
  );
}
