import { Field, Label, Switch } from '@headlessui/react';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../ui/Dialog.tsx';
import { GALLERY_LIMITS } from '../../../../api/src/galleries/limits.ts';
import { isUnauthorizedError } from '../../lib/unauthorized.ts';
import { lengthHint, TextAreaField, TextField } from '../../ui/Field.tsx';
import { SelectField } from '../../ui/Select.tsx';
import { EMPTY_GALLERY_FORM, type GalleryForm, galleryInput, PROPERTY_TYPES, STATUSES, STYLES } from './options.ts';

export type GalleryInput = Extract<ReturnType<typeof galleryInput>, { input: unknown }>['input'];

export interface GalleryFormDialogProps {
  open: boolean;
  onClose: () => void;
  initial?: Partial<GalleryForm>;
  mode: 'create' | 'edit';
  /** Resolves when saved; rejects with an Error whose message is shown. */
  onSubmit: (input: GalleryInput) => Promise<void>;
}

// The short free-text fields, in the order the form shows them.
const TEXTS = [
  { key: 'projectName', label: 'Project Name' },
  { key: 'movieTvShow', label: 'Movie/TV Show' },
  { key: 'location', label: 'Location' },
] as const;

// The fields chosen from a fixed list, in the order the form shows them.
const CHOICES = [
  { key: 'propertyType', label: 'Property Type', options: PROPERTY_TYPES, placeholder: 'Select property type' },
  { key: 'style', label: 'Style', options: STYLES, placeholder: 'Select style' },
  { key: 'status', label: 'Status', options: STATUSES, placeholder: undefined },
] as const;

/** The 'New Gallery' dialog, and the same form for Edit Gallery with the gallery's values. */
export function GalleryFormDialogView({ open, onClose, initial, mode, onSubmit }: GalleryFormDialogProps) {
  const [form, setForm] = useState<GalleryForm>({ ...EMPTY_GALLERY_FORM, ...initial });
  const [pending, setPending] = useState(false);
  // Why the form cannot be sent, by the field it is about (`form`: the server's other refusals).
  const [error, setError] = useState<{ field: keyof GalleryForm | 'form'; message: string } | null>(null);
  // The form follows the gallery being edited, and starts empty for each new gallery.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the dialog opens
  useEffect(() => {
    if (open) {
      setForm({ ...EMPTY_GALLERY_FORM, ...initial });
      setError(null);
    }
  }, [open]);

  const set = <K extends keyof GalleryForm>(key: K, value: GalleryForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setError((e) => (e?.field === key || e?.field === 'form' ? null : e));
  };
  const errorOf = (field: keyof GalleryForm) => (error?.field === field ? error.message : null);
  /** maxLength, the counter near the end and the error of a text field the API limits. */
  const limited = (field: keyof typeof GALLERY_LIMITS & keyof GalleryForm) => ({
    maxLength: GALLERY_LIMITS[field],
    hint: lengthHint(String(form[field]), GALLERY_LIMITS[field]),
    error: errorOf(field),
  });

  async function submit() {
    const result = galleryInput(form);
    if ('error' in result) {
      setError({ field: result.field, message: result.error });
      return;
    }
    setError(null);
    setPending(true);
    try {
      await onSubmit(result.input);
      onClose();
    } catch (failure) {
      if (isUnauthorizedError(failure)) return;
      const message = failure instanceof Error && failure.message ? failure.message : 'Please try again.';
      setError({ field: serverField(message), message });
    } finally {
      setPending(false);
    }
  }

  const creating = mode === 'create';
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={creating ? 'Create New Gallery' : 'Edit Gallery'}
      description={creating ? 'Add a new photo collection for your project.' : 'Change the details of this gallery.'}
      size="lg"
      onSubmit={submit}
      submitLabel={creating ? 'Create Gallery' : 'Save Changes'}
      pendingLabel={creating ? 'Creating...' : 'Saving...'}
      pending={pending}
    >
      {error?.field === 'form' && (
        <p role="alert" className="text-sm break-words text-red-700 dark:text-red-400">
          {error.message}
        </p>
      )}
      <TextField
        label="Gallery Name"
        value={form.name}
        onChange={(e) => set('name', e.target.value)}
        placeholder="e.g. Downtown loft"
        autoFocus
        aria-required
        {...limited('name')}
      />
      <TextAreaField
        label="Description"
        value={form.description}
        onChange={(e) => set('description', e.target.value)}
        placeholder="What is this collection for?"
        {...limited('description')}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {TEXTS.map(({ key, label }) => (
          <TextField
            key={key}
            label={label}
            value={form[key]}
            onChange={(e) => set(key, e.target.value)}
            {...limited(key)}
          />
        ))}
        <TextField
          label="Tags"
          value={form.tags}
          onChange={(e) => set('tags', e.target.value)}
          placeholder="Comma-separated, e.g. loft, brick"
          error={errorOf('tags')}
        />
        {CHOICES.map(({ key, label, options, placeholder }) => (
          <SelectField
            key={key}
            label={label}
            value={form[key]}
            onChange={(v) => set(key, v)}
            options={options}
            placeholder={placeholder}
          />
        ))}
        <Field className="flex items-center justify-between gap-3 self-end rounded-md border border-slate-200 px-3 py-2 dark:border-slate-700">
          <Label className="text-sm font-medium text-slate-700 dark:text-slate-300">Public gallery</Label>
          <Switch
            checked={form.isPublic}
            onChange={(v) => set('isPublic', v)}
            className="group relative inline-flex h-6 w-11 items-center rounded-full bg-slate-300 transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 data-checked:bg-indigo-600 dark:bg-slate-600"
          >
            <span className="inline-block h-4 w-4 translate-x-1 rounded-full bg-white transition-transform group-data-checked:translate-x-6" />
          </Switch>
        </Field>
      </div>
    </FormDialog>
  );
}

/** The field a server refusal is about, from the words the API uses (api/src/galleries/input.ts). */
function serverField(message: string): keyof GalleryForm | 'form' {
  const fields: [RegExp, keyof GalleryForm][] = [
    [/^Gallery name/, 'name'],
    [/^Description/, 'description'],
    [/^Project name/, 'projectName'],
    [/^Movie \/ TV show/, 'movieTvShow'],
    [/^Location/, 'location'],
    [/tag/i, 'tags'],
  ];
  return fields.find(([words]) => words.test(message))?.[1] ?? 'form';
}
