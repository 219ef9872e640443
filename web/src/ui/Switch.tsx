import { Field, Label, Description, Switch as HeadlessSwitch } from '@headlessui/react';

/** A labelled on/off switch (Space toggles it; the label is its accessible name). */
export function Switch({
  checked,
  onChange,
  label,
  description,
  disabled,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  description?: string;
  disabled?: boolean;
}) {
  return (
    <Field className="flex items-center justify-between gap-4 py-3" disabled={disabled}>
      <span className="flex flex-col">
        <Label className="text-sm font-medium text-slate-900 dark:text-slate-100">{label}</Label>
        {description && <Description className="text-sm text-slate-600 dark:text-slate-400">{description}</Description>}
      </span>
      <HeadlessSwitch
        checked={checked}
        onChange={onChange}
        className="group relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full bg-slate-300 transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 data-[checked]:bg-indigo-600 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 dark:bg-slate-700 dark:focus-visible:ring-offset-slate-900"
      >
        <span className="pointer-events-none inline-block h-5 w-5 translate-x-0.5 translate-y-0.5 rounded-full bg-white shadow transition-transform group-data-[checked]:translate-x-5.5" />
      </HeadlessSwitch>
    </Field>
  );
}
