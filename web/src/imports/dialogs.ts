import { lazyDialog } from '../ui/lazyDialog.tsx';
import type { ImportDialogProps } from './ImportDialog.tsx';

/** The import dialog, its code loaded when it first opens (ui/lazyDialog.tsx). */
export const ImportDialog = lazyDialog(
  () => import('./ImportDialog.tsx').then((m) => m.ImportDialog),
  (props: ImportDialogProps) => props.open,
);
