import { choices } from '../../lib/choices.ts';
import type { Dispatch, SetStateAction } from 'react';
import { dateInputBounds, dateInputProblem } from '../../../../api/src/shared/dates.ts';
import { errorProps, Field, Input, Textarea } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { toast } from '../../ui/toast.tsx';

export type TaskPriority = 'low' | 'medium' | 'high';

export const PRIORITY_OPTIONS = choices({
  low: 'Low',
  medium: 'Medium',
  high: 'High',
} satisfies Record<TaskPriority, string>);

export interface TaskFormValues {
  title: string;
  description: string;
  priority: TaskPriority;
  /** The datetime-local input's value (local time, no zone), '' when none. */
  dueDate: string;
}

export const EMPTY_TASK_FORM: TaskFormValues = { title: '', description: '', priority: 'medium', dueDate: '' };

/** An ISO time as a datetime-local value in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** What the form sends: a trimmed title, null for an empty description or due date. */
export function taskFormVariables(form: TaskFormValues) {
  return {
    title: form.title.trim(),
    description: form.description.trim() || null,
    priority: form.priority,
    dueDate: form.dueDate ? new Date(form.dueDate).toISOString() : null,
  };
}

/** What is wrong with the due date typed (the API's rule: 1900 to 2100), or null. */
export const dueDateProblem = (form: TaskFormValues) => dateInputProblem(form.dueDate, 'Due date');

/**
 * What the form sends, or null once the spec's toast has said the title is missing, or while the
 * due date field shows why it cannot be sent.
 */
export function submittableTask(form: TaskFormValues) {
  if (dueDateProblem(form)) return null;
  const variables = taskFormVariables(form);
  if (variables.title) return variables;
  toast({ title: 'Error', description: 'Task title is required.', variant: 'destructive' });
  return null;
}

/** The fields of Create New Task, shared by the edit dialog; ids carry a prefix so both may exist. */
export function TaskFields<T extends TaskFormValues>({
  form,
  setForm,
  idPrefix,
}: {
  form: T;
  setForm: Dispatch<SetStateAction<T>>;
  idPrefix: string;
}) {
  const dueError = dueDateProblem(form);
  return (
    <>
      <Field label="Task Title" htmlFor={`${idPrefix}-title`}>
        <Input
          id={`${idPrefix}-title`}
          value={form.title}
          onChange={(e) => setForm({ ...form, title: e.target.value })}
          placeholder="Enter task title"
          autoFocus
        />
      </Field>
      <Field label="Description (Optional)" htmlFor={`${idPrefix}-description`}>
        <Textarea
          id={`${idPrefix}-description`}
          rows={3}
          value={form.description}
          onChange={(e) => setForm({ ...form, description: e.target.value })}
          placeholder="Add more details"
        />
      </Field>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Priority" htmlFor={`${idPrefix}-priority`}>
          <Select
            id={`${idPrefix}-priority`}
            value={form.priority}
            onChange={(priority) => setForm({ ...form, priority })}
            options={PRIORITY_OPTIONS}
          />
        </Field>
        <Field label="Due Date (Optional)" htmlFor={`${idPrefix}-due`} error={dueError}>
          <Input
            id={`${idPrefix}-due`}
            type="datetime-local"
            {...dateInputBounds('datetime-local')}
            {...errorProps(`${idPrefix}-due`, dueError)}
            value={form.dueDate}
            onChange={(e) => setForm({ ...form, dueDate: e.target.value })}
          />
        </Field>
      </div>
    </>
  );
}
