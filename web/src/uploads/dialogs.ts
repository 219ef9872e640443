import type { ComponentProps } from 'react';
import { lazyDialog } from '../ui/lazyDialog.tsx';
import type { UploadConflictDialog as Loaded } from './ConflictDialog.tsx';

/** "File already exists", its code loaded when the first conflict asks (ui/lazyDialog.tsx). */
export const UploadConflictDialog = lazyDialog(
  () => import('./ConflictDialog.tsx').then((m) => m.UploadConflictDialog),
  (props: ComponentProps<typeof Loaded>) => props.prompt !== null,
);
