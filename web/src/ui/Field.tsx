import {
  Description,
  Field as LabelledField,
  Input as HeadlessInput,
  Label,
  Textarea as HeadlessTextarea,
} from '@headlessui/react';
import { forwardRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import { SearchIcon } from './icons.tsx';

export const inputClass =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:disabled:bg-slate-800';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className = '', ...props },
  ref,
) {
  return <input ref={ref} className={`${inputClass} ${className}`} {...props} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className = '', ...props },
  ref,
) {
  return <textarea ref={ref} className={`${inputClass} ${className}`} {...props} />;
});

/**
 * A label above its control; pass the control's id as htmlFor. `error`, when given, shows under the
 * control with the id `fieldErrorId(htmlFor)`: give the control aria-describedby and aria-invalid.
 */
export function Field({
  label,
  htmlFor,
  children,
  error,
  hint,
}: {
  label: string;
  htmlFor: string;
  children: ReactNode;
  error?: string | null;
  /** A line under the control when there is no error, e.g. a character counter. */
  hint?: ReactNode;
}) {
  return (
    <div className="min-w-0 space-y-1.5">
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      {children}
      {error ? (
        <p id={fieldErrorId(htmlFor)} className="text-sm break-words text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : (
        hint && <p className="text-xs text-slate-600 dark:text-slate-400">{hint}</p>
      )}
    </div>
  );
}

/** The attributes of a box for the 6-digit code of an authenticator app. */
export const appCodeProps = {
  name: 'code',
  autoComplete: 'one-time-code',
  inputMode: 'numeric',
  pattern: '[0-9]*',
  maxLength: 6,
  placeholder: '123456',
} as const;

/** The attributes of a box that may take a recovery code, typed as written down: no capitals or spelling help. */
export const recoveryCodeProps = { name: 'code', autoCapitalize: 'none', spellCheck: false } as const;

export const fieldErrorId = (htmlFor: string) => `${htmlFor}-error`;

/** The attributes of a control whose Field may show `error`. */
export function errorProps(htmlFor: string, error: string | null | undefined) {
  return error ? { 'aria-invalid': true, 'aria-describedby': fieldErrorId(htmlFor) } : {};
}

/** A search box with its magnifier and a label only screen readers see; `className` sizes its wrapper. */
export function SearchField({
  id,
  label,
  value,
  onChange,
  placeholder,
  className,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  className?: string;
}) {
  return (
    <div className={className ? `relative ${className}` : 'relative'}>
      <SearchInput
        id={id}
        label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
      />
    </div>
  );
}

/**
 * The inside of a search box: its label only screen readers see, the magnifier and the input (the
 * caller's element around them is `relative`). `className` styles the input.
 */
export function SearchInput({
  id,
  label,
  className = `${inputClass} pl-9`,
  ...props
}: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" />
      <input id={id} type="search" className={className} {...props} />
    </>
  );
}

const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-300';

/**
 * An input with its label (Headless UI ties the two together, and the error or hint under it to
 * the input as its description).
 */
export function TextField({
  label,
  error,
  hint,
  ...props
}: { label: string; error?: string | null; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <LabelledField className="min-w-0 space-y-1">
      <Label className={labelClass}>{label}</Label>
      <HeadlessInput className={inputClass} invalid={Boolean(error)} {...props} />
      <FieldNote error={error} hint={hint} />
    </LabelledField>
  );
}

/** "95/100 characters" once a text nears its limit, for a field's hint; nothing before. */
export function lengthHint(value: string, max: number): string | null {
  return value.length >= Math.floor(max * 0.8) ? `${value.length}/${max} characters` : null;
}

/** A three-line textarea with its label, and an error or hint as TextField has. */
export function TextAreaField({
  label,
  error,
  hint,
  ...props
}: { label: string; error?: string | null; hint?: ReactNode } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <LabelledField className="min-w-0 space-y-1">
      <Label className={labelClass}>{label}</Label>
      <HeadlessTextarea className={inputClass} rows={3} invalid={Boolean(error)} {...props} />
      <FieldNote error={error} hint={hint} />
    </LabelledField>
  );
}

/** Under a Headless UI field's control: its error, else its hint (both describe the control). */
function FieldNote({ error, hint }: { error?: string | null; hint?: ReactNode }) {
  if (error) return <Description className="text-sm break-words text-red-700 dark:text-red-400">{error}</Description>;
  return hint ? <Description className="text-xs text-slate-600 dark:text-slate-400">{hint}</Description> : null;
}

const DESCRIBED_TONES = {
  light: {
    label: labelClass,
    hint: 'text-xs text-slate-500 dark:text-slate-400',
    error: 'text-sm text-red-600 dark:text-red-400',
  },
  dark: {
    label: 'block text-sm font-medium text-slate-200',
    hint: 'text-xs text-slate-400',
    error: 'text-sm text-red-300',
  },
};

export interface DescribedFieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** On a dark panel (a photo viewer's). */
  dark?: boolean;
  className?: string;
  /** The control, given the attributes that tie it to the label, the hint and the error. */
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode;
}

/** A label above its control, with a hint and an error under it that describe the control; the error is announced. */
export function DescribedField({
  label,
  hint,
  error,
  dark = false,
  className = 'space-y-1.5',
  children,
}: DescribedFieldProps) {
  const id = useId();
  const tone = DESCRIBED_TONES[dark ? 'dark' : 'light'];
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className={tone.label}>
        {label}
      </label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p id={`${id}-hint`} className={tone.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className={tone.error}>
          {error}
        </p>
      )}
    </div>
  );
}
