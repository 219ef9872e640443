import { type FormEvent, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { DescribedField, Input } from '../../ui/Field.tsx';
import { GalleryIcon, ShieldIcon } from '../../ui/icons.tsx';
import { unlockReview } from './reviewApi.ts';

/** The password a locked review link asks for before its gallery. */
export function PasswordForm({
  token,
  message,
  onUnlocked,
}: {
  token: string;
  message: string;
  onUnlocked: () => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError('Please enter the password.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await unlockReview(token, password);
      onUnlocked();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Something went wrong. Please try again.');
      setPending(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mx-auto mt-8 max-w-sm space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center gap-2">
        <ShieldIcon className="h-5 w-5 text-indigo-600 dark:text-indigo-400" />
        <h1 className="text-lg font-semibold">Password required</h1>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">{message}</p>
      <DescribedField label="Password" error={error}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoFocus
          />
        )}
      </DescribedField>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Opening...' : 'Open gallery'}
      </Button>
    </form>
  );
}

/** A review link expired, turned off or revoked while open. */
export function Gone() {
  return (
    <div className="mx-auto mt-8 flex max-w-md flex-col items-center rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
      <GalleryIcon className="mb-3 h-10 w-10 text-slate-400 dark:text-slate-500" />
      <h1 className="text-lg font-semibold">This review link is no longer available</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        It may have expired or been turned off. Ask the person who sent it for a new link.
      </p>
    </div>
  );
}
