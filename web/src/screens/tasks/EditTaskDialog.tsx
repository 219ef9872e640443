import { useState } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { FormDialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
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
        viewer {
          id
        }
        assignableUsers(first: 100) {
          edges {
            node {
              id
              displayName
            }
          }
        }
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

  // The people one may assign to: yourself and your projects' members. Someone who has since left
  // stays listed while they are the assignee, so the form shows who it is.
  const people = choices.assignableUsers.edges.map((e) => e.node);
  if (task.assignee && !people.some((p) => p.id === task.assignee?.id)) people.push(task.assignee);
  const assigneeOptions = [
    { value: '', label: 'Unassigned' },
    ...people
      .map((p) => ({ value: p.id, label: p.id === choices.viewer.id ? `${p.displayName} (you)` : p.displayName }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ];
  const galleries = choices.galleries.edges.map((e) => e.node);
  if (task.relatedGallery && !galleries.some((g) => g.id === task.relatedGallery?.id))
    galleries.push(task.relatedGallery);
  const galleryOptions = [{ value: '', label: 'None' }, ...galleries.map((g) => ({ value: g.id, label: g.name }))];

  // Who does it and which gallery it is about: what the edit dialog adds to the Create New Task fields.
  const assignment = [
    { key: 'assigneeId', label: 'Assigned To', id: 'edit-task-assignee', options: assigneeOptions },
    { key: 'galleryId', label: 'Related Gallery (Optional)', id: 'edit-task-gallery', options: galleryOptions },
  ] as const;

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
      <div className="grid gap-4 sm:grid-cols-2">
        {assignment.map(({ key, label, id, options }) => (
          <Field key={key} label={label} htmlFor={id}>
            <Select
              id={id}
              value={form[key]}
              onChange={(value) => setForm({ ...form, [key]: value })}
              options={options}
            />
          </Field>
        ))}
      </div>
    </FormDialog>
  );
}
