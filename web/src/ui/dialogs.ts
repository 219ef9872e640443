import type { ComponentProps } from 'react';
import type { ConfirmDialog as Confirm } from './Dialog.tsx';
import { lazyDialog } from './lazyDialog.tsx';

/** "Are you sure?", its code loaded when it first opens (lazyDialog.tsx). */
export const ConfirmDialog = lazyDialog(
  () => import('./Dialog.tsx').then((m) => m.ConfirmDialog),
  (props: ComponentProps<typeof Confirm>) => props.open,
);
