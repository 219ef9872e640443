import { Dialog as HeadlessDialog, DialogPanel, DialogTitle, Description } from '@headlessui/react';
import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button.tsx';

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
  description?: ReactNode;
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
            className={`w-full min-w-0 ${width} rounded-t-xl [overflow-wrap:anywhere] bg-white p-6 shadow-xl sm:rounded-xl dark:bg-slate-900 dark:text-slate-100`}
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

/**
 * Cancel (or `cancelLabel`), then the dialog's one action: the submit button of the dialog's form
 * unless `onAction` is given. While `pending` the action reads `pendingLabel` and can't be pressed
 * again; nor can Cancel, unless `cancelDisabled` says otherwise.
 */
export function DialogButtons({
  onCancel,
  cancelLabel = 'Cancel',
  label,
  pendingLabel,
  pending = false,
  onAction,
  disabled = false,
  variant = 'primary',
  cancelDisabled = pending,
}: {
  onCancel: () => void;
  cancelLabel?: string;
  label: string;
  pendingLabel: string;
  pending?: boolean;
  onAction?: () => void;
  /** The action can't be taken yet (nothing chosen, already there). */
  disabled?: boolean;
  variant?: ButtonVariant;
  cancelDisabled?: boolean;
}) {
  return (
    <DialogActions>
      <Button variant="outline" onClick={onCancel} disabled={cancelDisabled}>
        {cancelLabel}
      </Button>
      <Button type={onAction ? 'button' : 'submit'} variant={variant} onClick={onAction} disabled={pending || disabled}>
        {pending ? pendingLabel : label}
      </Button>
    </DialogActions>
  );
}

/**
 * A dialog around one form: its fields, then Cancel and the submit button. While `pending` it stays
 * open (neither Escape nor Cancel closes it) unless `closeWhilePending`.
 */
export function FormDialog({
  open,
  onClose,
  title,
  description,
  size,
  onSubmit,
  submitLabel,
  pendingLabel,
  pending = false,
  closeWhilePending = false,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  onSubmit: () => void;
  submitLabel: string;
  pendingLabel: string;
  pending?: boolean;
  closeWhilePending?: boolean;
  children: ReactNode;
}) {
  const locked = pending && !closeWhilePending;
  return (
    <Dialog open={open} onClose={() => !locked && onClose()} title={title} description={description} size={size}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
        noValidate
        className="space-y-4"
      >
        {children}
        <DialogButtons
          onCancel={onClose}
          label={submitLabel}
          pendingLabel={pendingLabel}
          pending={pending}
          cancelDisabled={locked}
        />
      </form>
    </Dialog>
  );
}

/** "Are you sure…?" with a destructive confirm button; it stays open while `pending`. */
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
  /** What is about to happen, naming what it happens to (ui/Named.tsx). */
  message: ReactNode;
  confirmLabel?: string;
  pendingLabel?: string;
  pending?: boolean;
}) {
  return (
    <Dialog open={open} onClose={() => !pending && onClose()} title={title} description={message} size="sm">
      <DialogButtons
        onCancel={onClose}
        onAction={onConfirm}
        variant="destructive"
        label={confirmLabel}
        pendingLabel={pendingLabel}
        pending={pending}
      />
    </Dialog>
  );
}
