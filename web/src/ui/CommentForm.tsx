import type { FormEvent, ReactNode } from 'react';
import { Button } from './Button.tsx';
import { DescribedField, Textarea } from './Field.tsx';

/**
 * The comment box of the dark photo viewers: a labelled textarea, an optional hint, the error and the
 * send button. The caller keeps the text and does the sending.
 */
export function CommentForm({
  label,
  rows,
  body,
  onBody,
  hint,
  error,
  pending,
  submitLabel,
  onSubmit,
}: {
  label: ReactNode;
  rows: number;
  body: string;
  onBody: (body: string) => void;
  hint?: ReactNode;
  error: string | null;
  pending: boolean;
  submitLabel: string;
  onSubmit: (event: FormEvent) => void;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <DescribedField label={label} hint={hint} error={error} dark className="space-y-2">
        {(control) => <Textarea {...control} rows={rows} value={body} onChange={(e) => onBody(e.target.value)} />}
      </DescribedField>
      <Button type="submit" size="sm" disabled={pending}>
        {pending ? 'Sending...' : submitLabel}
      </Button>
    </form>
  );
}
