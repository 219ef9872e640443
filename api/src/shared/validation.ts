import type { z } from 'zod';
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
