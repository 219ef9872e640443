import { Field, Label, Switch } from '@headlessui/react';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
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
  // The form follows the gallery being edited, and starts empty for each new gallery.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the dialog opens
  useEffect(() => {
    if (open) setForm({ ...EMPTY_GALLERY_FORM, ...initial });
  }, [open]);

  const set = <K extends keyof GalleryForm>(key: K, value: GalleryForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function submit() {
    const result = galleryInput(form);
    if ('error' in result) {
      toast({ title: 'Error', description: result.error, variant: 'destructive' });
      return;
    }
    setPending(true);
    try {
      await onSubmit(result.input);
      onClose();
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
      <TextField
        label="Gallery Name"
        value={form.name}
        onChange={(e) => set('name', e.target.value)}
        placeholder="e.g. Downtown loft"
        autoFocus
      />
      <TextAreaField
        label="Description"
        value={form.description}
        onChange={(e) => set('description', e.target.value)}
        placeholder="What is this collection for?"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Project Name" value={form.projectName} onChange={(e) => set('projectName', e.target.value)} />
        <TextField
          label="Movie/TV Show"
          value={form.movieTvShow}
          onChange={(e) => set('movieTvShow', e.target.value)}
        />
        <TextField label="Location" value={form.location} onChange={(e) => set('location', e.target.value)} />
        <TextField
          label="Tags"
          value={form.tags}
          onChange={(e) => set('tags', e.target.value)}
          placeholder="Comma-separated, e.g. loft, brick"
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
