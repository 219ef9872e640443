import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { confirmPasswordReset, requestPasswordReset } from '../../auth/account.ts';
import { NewPasswordFields, newPasswordProblem } from '../../auth/NewPasswordFields.tsx';
import { useSend } from '../../lib/useSend.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Field, Input } from '../../ui/Field.tsx';
import { AuthCard, linkClass } from '../signin/SignInPage.tsx';

function FormError({ message }: { message: string | null }) {
  // Always in the page, so screen readers announce a message when it appears.
  return (
    <p role="alert" className="min-h-5 text-sm text-red-700 dark:text-red-400">
      {message}
    </p>
  );
}

const FAILED = 'Something went wrong. Please try again.';

/** "Forgot password?": asks for the address; the answer is the same whether it has an account or not. */
function RequestForm() {
  const { pending, error, setError, done: sent, setDone: setSent, send } = useSend(FAILED);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    if (!email) {
      setError('Enter your e-mail address.');
      return;
    }
    await send(async () => (await requestPasswordReset(email)).message);
  }

  if (sent) {
    return (
      <div className="space-y-3" aria-live="polite">
        <p className="text-sm text-slate-700 dark:text-slate-300">{sent}</p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The link works once, for 30 minutes. Nothing arrived? Check your spam folder, or{' '}
          <button type="button" className={linkClass} onClick={() => setSent(null)}>
            try another address
          </button>
          .
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={submit} aria-labelledby="signin-heading" noValidate className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Enter the address you sign in with. We will e-mail you a link to choose a new password.
      </p>
      <Field label="Email" htmlFor="reset-email">
        <Input id="reset-email" name="email" type="email" autoComplete="email" required />
      </Field>
      <FormError message={error} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? 'Sending...' : 'Send Reset Link'}
      </Button>
    </form>
  );
}

/** The e-mailed link's form: the new password twice. */
function NewPasswordForm({ token }: { token: string }) {
  const { pending, error, setError, done, send } = useSend(FAILED);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password') ?? '');
    const again = String(data.get('again') ?? '');
    const problem = newPasswordProblem(password, again);
    if (problem) return setError(problem);
    await send(async () => (await confirmPasswordReset(token, password)).message);
  }

  if (done) {
    return (
      <div className="space-y-4" aria-live="polite">
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {done} You were signed out everywhere, this browser too.
        </p>
        {/* A full page load: a session this browser had has ended. */}
        <a href="/signin" className={buttonClass('primary', 'md', 'w-full')}>
          Sign In
        </a>
      </div>
    );
  }
  return (
    <form onSubmit={submit} aria-labelledby="signin-heading" noValidate className="space-y-4">
      <NewPasswordFields id="reset-password" name="password" />
      <FormError message={error} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? 'Saving...' : 'Set New Password'}
      </Button>
    </form>
  );
}

/**
 * /reset-password: without a token, "Forgot password?" (asks for the address); with the token of
 * the e-mailed link, the new password. Reached signed out and signed in alike.
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <AuthCard
      title={token ? 'Choose a new password' : 'Forgot your password?'}
      footer={
        <Link to="/signin" reloadDocument className={linkClass}>
          Back to sign in
        </Link>
      }
    >
      {token ? <NewPasswordForm token={token} /> : <RequestForm />}
    </AuthCard>
  );
}
