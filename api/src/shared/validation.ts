import { z } from 'zod';
import { ValidationError } from './errors.ts';

/** Parses input with a schema; the first problem becomes a ValidationError with its message. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join('.') || undefined;
    // zod's own wording for wrong types is terse; name the field so the caller can fix it.
    const message =
      issue?.code === 'invalid_type' || issue?.code === 'unrecognized_keys'
        ? `${field ? `${field}: ` : ''}${issue.message}`
        : (issue?.message ?? 'Invalid input.');
    throw new ValidationError(message, field);
  }
  return result.data;
}

/** A list's ?limit=: a whole number from 1 to max, or undefined (the list's default) when absent. */
export function limitParam(raw: string | undefined, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new ValidationError(`limit must be a whole number from 1 to ${max}.`, 'limit');
  }
  return limit;
}

// Text fields of the forms (galleries, projects).

/** A text the form must fill in: missing, null and blank all get the one message the spec gives. */
export const requiredText = (message: string, max: number, tooLong: string) =>
  z.preprocess((v) => (v == null ? '' : v), z.string({ error: message }).trim().min(1, message).max(max, tooLong));

/** A text the form may leave empty: blank becomes null. */
export const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, `${label} is too long (at most ${max} characters).`)
    .transform((v) => (v === '' ? null : v))
    .nullish();
