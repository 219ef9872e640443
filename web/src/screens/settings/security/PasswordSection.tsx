import { type FormEvent, useRef } from 'react';
import { changePassword } from '../../../auth/account.ts';
import { NewPasswordFields, newPasswordProblem } from '../../../auth/NewPasswordFields.tsx';
import { useSend } from '../../../lib/useSend.ts';
import { Button } from '../../../ui/Button.tsx';
import { Card } from '../../../ui/Card.tsx';
import { Field, Input } from '../../../ui/Field.tsx';
import { toast } from '../../../ui/toast.tsx';

// Settings › Security › Password (api/src/auth/recovery.ts, changePassword): the current password,
// the new one twice. The other devices are signed out; this one stays.

export default function PasswordSection() {
  const form = useRef<HTMLFormElement>(null);
  const { pending, error, setError, done, setDone, send } = useSend('Could not change the password. Please try again.');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const current = String(data.get('currentPassword') ?? '');
    const chosen = String(data.get('newPassword') ?? '');
    const again = String(data.get('again') ?? '');
    setDone(null);
    if (!current) return setError('Enter your current password.');
    const problem = newPasswordProblem(chosen, again);
    if (problem) return setError(problem);
    await send(async () => {
      const answer = await changePassword(current, chosen);
      form.current?.reset();
      toast({ title: 'Password changed', description: answer.message });
      return answer.message;
    });
  }

  return (
    <Card className="p-6">
      <h2 id="password-heading" className="text-lg font-semibold text-slate-900 dark:text-slate-100">
        Password
      </h2>
      <p className="mt-1 mb-4 text-sm text-slate-600 dark:text-slate-400">
        Changing it signs you out on your other devices. Forgot it? Sign out and use “Forgot password?” on the sign-in
        page.
      </p>
      <form ref={form} onSubmit={submit} aria-labelledby="password-heading" noValidate className="max-w-md space-y-4">
        <Field label="Current password" htmlFor="password-current">
          <Input
            id="password-current"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
          />
        </Field>
        <NewPasswordFields id="password-new" name="newPassword" />
        <p role="alert" className="min-h-5 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
        <p aria-live="polite" className="text-sm text-green-800 empty:hidden dark:text-green-300">
          {done}
        </p>
        <Button type="submit" disabled={pending}>
          {pending ? 'Changing...' : 'Change Password'}
        </Button>
      </form>
    </Card>
  );
}
