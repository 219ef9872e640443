import type { ComponentProps } from 'react';
import { lazyDialog } from '../../ui/lazyDialog.tsx';
import type { CreateTaskDialog as Create } from './CreateTaskDialog.tsx';

// The tasks screen's dialogs, each loaded when it first opens (ui/lazyDialog.tsx).

export const CreateTaskDialog = lazyDialog(
  () => import('./CreateTaskDialog.tsx').then((m) => m.CreateTaskDialog),
  (props: ComponentProps<typeof Create>) => props.open,
);

/** Shown only while a task is being edited: open whenever it is rendered. */
export const EditTaskDialog = lazyDialog(
  () => import('./EditTaskDialog.tsx').then((m) => m.EditTaskDialog),
  () => true,
);
