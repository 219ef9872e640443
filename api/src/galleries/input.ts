import { z } from 'zod';

// Form fields shared by galleries and projects.

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
