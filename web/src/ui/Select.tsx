import { Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { CheckIcon, ChevronDownIcon } from './icons.tsx';

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

const buttonClass =
  'flex h-10 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 text-left text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

function Options<T extends string>({ options }: { options: readonly SelectOption<T>[] }) {
  return (
    <ListboxOptions
      anchor="bottom start"
      className="z-[60] mt-1 max-h-60 w-[var(--button-width)] overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-800"
    >
      {options.map((option) => (
        <ListboxOption
          key={option.value}
          value={option.value}
          className="group flex cursor-pointer items-center justify-between gap-2 px-3 py-2 text-slate-900 [overflow-wrap:anywhere] data-[focus]:bg-indigo-50 dark:text-slate-100 dark:data-[focus]:bg-slate-700"
        >
          {option.label}
          <CheckIcon className="invisible h-4 w-4 shrink-0 text-indigo-600 group-data-[selected]:visible" />
        </ListboxOption>
      ))}
    </ListboxOptions>
  );
}

/** A Headless UI listbox (arrow keys, type-ahead, Escape) styled like our inputs. */
export function Select<T extends string>({
  value,
  onChange,
  options,
  id,
  label,
  className = '',
}: {
  value: T;
  onChange: (value: T) => void;
  options: readonly SelectOption<T>[];
  id?: string;
  /** Accessible name when there is no visible label pointing at `id`. */
  label?: string;
  className?: string;
}) {
  const selected = options.find((o) => o.value === value);
  return (
    <Listbox value={value} onChange={onChange}>
      <div className={`relative ${className}`}>
        <ListboxButton id={id} aria-label={label} className={buttonClass}>
          <span className="truncate">{selected?.label ?? ''}</span>
          <ChevronDownIcon className="h-4 w-4 shrink-0 text-slate-500" />
        </ListboxButton>
        <Options options={options} />
      </div>
    </Listbox>
  );
}

/** A Select with its label above it (or for screen readers only), and a placeholder until one is chosen. */
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
  options: readonly SelectOption<string>[];
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
        <ListboxButton className={buttonClass}>
          <span className={selected ? 'truncate' : 'truncate text-slate-500 dark:text-slate-400'}>
            {selected?.label ?? placeholder}
          </span>
          <ChevronDownIcon className="h-4 w-4 shrink-0 text-slate-500" />
        </ListboxButton>
        <Options options={options} />
      </Listbox>
    </Field>
  );
}
