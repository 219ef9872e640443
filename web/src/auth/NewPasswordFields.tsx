import { Field, Input } from '../ui/Field.tsx';

/** The server's rule for a new password (sign-up, reset and change answer 400 below it). */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * A new password's field with its rule beside it and, where a typo would lock the person out
 * (a reset, a change), a second field to type it again. Read from the form by `name` and `again`.
 */
export function NewPasswordFields({
  id,
  name,
  label = 'New password',
  again = true,
}: {
  id: string;
  name: string;
  label?: string;
  again?: boolean;
}) {
  return (
    <>
      <Field label={label} htmlFor={id}>
        <Input
          id={id}
          name={name}
          type="password"
          autoComplete="new-password"
          aria-describedby={`${id}-hint`}
          required
        />
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          At least {PASSWORD_MIN_LENGTH} characters.
        </p>
      </Field>
      {again && (
        <Field label={`${label} again`} htmlFor={`${id}-again`}>
          <Input id={`${id}-again`} name="again" type="password" autoComplete="new-password" required />
        </Field>
      )}
    </>
  );
}

/** Why the two typed passwords cannot be used (in the server's words), or null. */
export function newPasswordProblem(password: string, again: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password !== again) return 'The two passwords are not the same.';
  return null;
}
