import { choices } from '../../lib/choices.ts';
import type { TaskSort } from './__generated__/TasksScreenQuery.graphql';

export const TASK_SORTS = choices({
  DUE_DATE: 'Due date',
  NEWEST: 'Newest first',
} satisfies Partial<Record<TaskSort, string>>);

/** The tasks' order in the address: `?sort=newest`, or by due date. */
export function taskSortFrom(value: string | null): TaskSort {
  return value === 'newest' ? 'NEWEST' : 'DUE_DATE';
}
