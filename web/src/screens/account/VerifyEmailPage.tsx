import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { verifyEmail } from '../../auth/account.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { AuthCard, linkClass } from '../signin/SignInPage.tsx';

type State = { name: 'working' } | { name: 'done'; email: string } | { name: 'failed'; message: string };

// Verifications by token, started once per token: React's development double effect, or a
// remount, must not spend the single-use link twice (the second would say it is invalid).
const started = new Map<string, ReturnType<typeof verifyEmail>>();

/**
 * /verify-email?token=…: the link e-mailed at sign-up. Opening it verifies the address, signed in
 * or not; the page then leads on to sign in, or back into the app.
 */
export default function VerifyEmailPage({ signedIn = false }: { signedIn?: boolean }) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>({ name: 'working' });

  useEffect(() => {
    if (!token) {
      setState({ name: 'failed', message: 'This link is invalid or has expired.' });
      return;
    }
    let active = true;
    let verifying = started.get(token);
    if (!verifying) {
      verifying = verifyEmail(token);
      started.set(token, verifying);
    }
    verifying.then(
      (answer) => active && setState({ name: 'done', email: answer.email ?? '' }),
      (error: unknown) =>
        active && setState({ name: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      active = false;
    };
  }, [token]);

  // A full page load onward: the signed-in app reads the profile (now verified) afresh.
  const onward = signedIn ? { href: '/', label: 'Continue to Scoutbase' } : { href: '/signin', label: 'Sign in' };
  return (
    <AuthCard
      title="Verify your e-mail address"
      footer={
        <a href={onward.href} className={linkClass}>
          {signedIn ? 'Back to Scoutbase' : 'Back to sign in'}
        </a>
      }
    >
      <div aria-live="polite" className="space-y-4">
        {state.name === 'working' && (
          <p className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-300">
            <Spinner className="h-5 w-5" /> Verifying your address…
          </p>
        )}
        {state.name === 'done' && (
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Your e-mail address{' '}
              {state.email && <span className="font-medium text-slate-900 dark:text-slate-100">{state.email}</span>} is
              verified. You can now join the projects you are invited to.
            </p>
            <a href={onward.href} className={buttonClass('primary', 'md', 'w-full')}>
              {onward.label}
            </a>
          </>
        )}
        {state.name === 'failed' && (
          <>
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {state.message}
            </p>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {signedIn
                ? 'Ask for a new link with “Resend verification e-mail” in the app.'
                : 'Sign in and ask for a new link with “Resend verification e-mail”.'}
            </p>
          </>
        )}
      </div>
    </AuthCard>
  );
}
