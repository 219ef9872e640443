import { Dialog as HeadlessDialog, DialogPanel, DialogTitle, Description } from '@headlessui/react';
import type { ReactNode } from 'react';
import { Button } from './Button.tsx';

// Headless UI gives focus trapping, Escape to close and aria wiring; these add our look.

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  size = 'md',
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
}) {
  const width = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-4xl' }[size];
  return (
    <HeadlessDialog open={open} onClose={onClose} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-end justify-center p-0 sm:items-center sm:p-4">
          <DialogPanel
            className={`w-full ${width} rounded-t-xl bg-white p-6 shadow-xl sm:rounded-xl dark:bg-slate-900 dark:text-slate-100`}
          >
            <DialogTitle className="text-lg font-semibold text-slate-900 dark:text-slate-100">{title}</DialogTitle>
            {description && (
              <Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</Description>
            )}
            <div className="mt-4">{children}</div>
          </DialogPanel>
        </div>
      </div>
    </HeadlessDialog>
  );
}

/** Buttons row at the bottom of a dialog. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</div>;
}

/** "Are you sure…?" with a destructive confirm button. */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  message,
  confirmLabel = 'Delete',
  pendingLabel = 'Deleting...',
  pending = false,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  message: string;
  confirmLabel?: string;
  pendingLabel?: string;
  pending?: boolean;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} description={message} size="sm">
      <DialogActions>
        <Button variant="outline" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={onConfirm} disabled={pending}>
          {pending ? pendingLabel : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
