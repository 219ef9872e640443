import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { SelectField } from '../../ui/Select.tsx';
import { PROJECT_TYPES } from './options.ts';

export interface ProjectForm {
  name: string;
  description: string;
  type: string;
}

export const NEW_PROJECT: ProjectForm = { name: '', description: '', type: 'campaign' };

/** A new project's name, description and type: the Projects screen's form and the share dialog's tab. */
export function ProjectFields({
  form,
  onChange,
}: {
  form: ProjectForm;
  onChange: (change: (form: ProjectForm) => ProjectForm) => void;
}) {
  return (
    <>
      <TextField
        label="Project Name"
        value={form.name}
        onChange={(e) => onChange((f) => ({ ...f, name: e.target.value }))}
      />
      <TextAreaField
        label="Description"
        value={form.description}
        onChange={(e) => onChange((f) => ({ ...f, description: e.target.value }))}
      />
      <SelectField
        label="Project Type"
        value={form.type}
        onChange={(type) => onChange((f) => ({ ...f, type }))}
        options={PROJECT_TYPES}
      />
    </>
  );
}
