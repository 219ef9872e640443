import {
  Field,
  Input,
  Label,
  Listbox,
  ListboxButton,
  ListboxOption,
  ListboxOptions,
  Textarea,
} from '@headlessui/react';
import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';

// Small form controls shared by the galleries dialogs: a labelled input, textarea and a Headless UI
// listbox (keyboard: arrows, type-ahead, Enter, Escape).

export const inputClass =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100';

export function TextField({ label, ...props }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field className="space-y-1">
      <Label className="block text-sm font-medium text-slate-700 dark:text-slate-300">{label}</Label>
      <Input className={inputClass} {...props} />
    </Field>
  );
}

export function TextAreaField({ label, ...props }: { label: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field className="space-y-1">
      <Label className="block text-sm font-medium text-slate-700 dark:text-slate-300">{label}</Label>
      <Textarea className={inputClass} rows={3} {...props} />
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  label,
  value,
  onChange,
  options,
  placeholder = 'Select…',
  hideLabel = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly Option[];
  placeholder?: string;
  hideLabel?: boolean;
}) {
  const selected = options.find((option) => option.value === value);
  return (
    <Field className="space-y-1">
      <Label className={hideLabel ? 'sr-only' : 'block text-sm font-medium text-slate-700 dark:text-slate-300'}>
        {label}
      </Label>
      <Listbox value={value} onChange={onChange}>
        <ListboxButton className={`${inputClass} flex items-center justify-between text-left`}>
          <span className={selected ? '' : 'text-slate-500 dark:text-slate-400'}>{selected?.label ?? placeholder}</span>
          <svg viewBox="0 0 20 20" className="h-4 w-4 text-slate-400" fill="currentColor" aria-hidden="true">
            <path d="M5.5 8l4.5 4.5L14.5 8z" />
          </svg>
        </ListboxButton>
        <ListboxOptions
          anchor="bottom start"
          className="z-[60] max-h-60 w-(--button-width) overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900"
        >
          {options.map((option) => (
            <ListboxOption
              key={option.value}
              value={option.value}
              className="cursor-pointer px-3 py-2 text-slate-700 data-focus:bg-indigo-50 data-selected:font-semibold dark:text-slate-200 dark:data-focus:bg-slate-800"
            >
              {option.label}
            </ListboxOption>
          ))}
        </ListboxOptions>
      </Listbox>
    </Field>
  );
}
