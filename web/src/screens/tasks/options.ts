import type { TaskSort } from './__generated__/TasksScreenQuery.graphql';

export const TASK_SORTS = [
  { value: 'DUE_DATE', label: 'Due date' },
  { value: 'NEWEST', label: 'Newest first' },
] as const satisfies readonly { value: TaskSort; label: string }[];

/** The tasks' order in the address: `?sort=newest`, or by due date. */
export function taskSortFrom(value: string | null): TaskSort {
  return value === 'newest' ? 'NEWEST' : 'DUE_DATE';
}
