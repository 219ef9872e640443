import { Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { CheckIcon, ChevronDownIcon } from './icons.tsx';

export interface SelectOption<T extends string> {
  value: T;
  label: string;
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
        <ListboxButton
          id={id}
          aria-label={label}
          className="flex h-10 w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 text-left text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        >
          <span className="truncate">{selected?.label ?? ''}</span>
          <ChevronDownIcon className="h-4 w-4 text-slate-500" />
        </ListboxButton>
        <ListboxOptions
          anchor="bottom start"
          className="z-[60] mt-1 w-[var(--button-width)] rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-800"
        >
          {options.map((option) => (
            <ListboxOption
              key={option.value}
              value={option.value}
              className="group flex cursor-pointer items-center justify-between px-3 py-2 text-slate-900 data-[focus]:bg-indigo-50 dark:text-slate-100 dark:data-[focus]:bg-slate-700"
            >
              {option.label}
              <CheckIcon className="invisible h-4 w-4 text-indigo-600 group-data-[selected]:visible" />
            </ListboxOption>
          ))}
        </ListboxOptions>
      </div>
    </Listbox>
  );
}
