import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  safeCallbackUrl,
  signInErrorMessage,
  signInProviders,
  signInWithGoogle,
  signInWithPassword,
  signUp,
} from '../../auth/signIn.ts';
import { Button } from '../../ui/Button.tsx';
import { Field, Input } from '../../ui/Field.tsx';
import { ShieldIcon } from '../../ui/icons.tsx';
import { Brand, LegalLinks } from '../landing/LandingPage.tsx';

function FormError({ message }: { message: string | null }) {
  // Always in the page, so screen readers announce a message when it appears.
  return (
    <p role="alert" className="min-h-5 text-sm text-red-700 dark:text-red-400">
      {message}
    </p>
  );
}

/** A sign-in or sign-up form: its fields, the error line, then the full-width submit button. */
function AuthForm({
  onSubmit,
  error,
  pending,
  submitLabel,
  pendingLabel,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  error: string | null;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} aria-labelledby="signin-heading" noValidate className="space-y-4">
      {children}
      <FormError message={error} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? pendingLabel : submitLabel}
      </Button>
    </form>
  );
}

/** Google only when the server has it configured (Auth.js lists its providers). */
function GoogleSignIn({ callbackUrl }: { callbackUrl: string }) {
  const [offered, setOffered] = useState(false);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    let active = true;
    signInProviders()
      .then((ids) => active && setOffered(ids.includes('google')))
      .catch(() => {});
    return () => {
      active = false;
    };
  }, []);
  if (!offered) return null;
  return (
    <>
      <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        or
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      </div>
      <Button
        variant="outline"
        className="w-full"
        disabled={pending}
        onClick={() => {
          setPending(true);
          void signInWithGoogle(callbackUrl).catch(() => setPending(false));
        }}
      >
        {pending ? 'Signing in...' : 'Sign in with Google'}
      </Button>
    </>
  );
}

function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState(initialError);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const failure = await signInWithPassword(String(data.get('email')), String(data.get('password')), callbackUrl);
      if (failure === null) return; // on the way to callbackUrl
      setError(failure);
    } catch {
      setError('Sign-in failed. Check your connection and try again.');
    }
    setPending(false);
  }

  return (
    <AuthForm onSubmit={submit} error={error} pending={pending} submitLabel="Sign In" pendingLabel="Signing in...">
      <Field label="Email" htmlFor="signin-email">
        <Input id="signin-email" name="email" type="email" autoComplete="email" required />
      </Field>
      <Field label="Password" htmlFor="signin-password">
        <Input id="signin-password" name="password" type="password" autoComplete="current-password" required />
      </Field>
    </AuthForm>
  );
}

function SignUpForm({ callbackUrl }: { callbackUrl: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = {
      name: String(data.get('name')),
      email: String(data.get('email')),
      password: String(data.get('password')),
    };
    setPending(true);
    setError(null);
    try {
      // The server's rules and words (password length, a taken address, sign-up turned off).
      await signUp(input);
      const failure = await signInWithPassword(input.email, input.password, callbackUrl);
      if (failure === null) return;
      setError(failure);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Sign-up failed');
    }
    setPending(false);
  }

  return (
    <AuthForm
      onSubmit={submit}
      error={error}
      pending={pending}
      submitLabel="Create Account"
      pendingLabel="Getting Started..."
    >
      <Field label="Full name" htmlFor="signup-name">
        <Input id="signup-name" name="name" autoComplete="name" required />
      </Field>
      <Field label="Email" htmlFor="signup-email">
        <Input id="signup-email" name="email" type="email" autoComplete="email" required />
      </Field>
      <Field label="Password" htmlFor="signup-password">
        <Input
          id="signup-password"
          name="password"
          type="password"
          autoComplete="new-password"
          aria-describedby="signup-password-hint"
          required
        />
        <p id="signup-password-hint" className="text-xs text-slate-600 dark:text-slate-400">
          At least 8 characters.
        </p>
      </Field>
    </AuthForm>
  );
}

function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-slate-50 to-white text-slate-900 dark:from-slate-950 dark:to-slate-900 dark:text-slate-100">
      <header className="border-b border-slate-200 bg-white/80 backdrop-blur dark:border-slate-800 dark:bg-slate-950/80">
        <div className="mx-auto flex max-w-6xl items-center px-4 py-4">
          <Brand />
        </div>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 py-12 sm:py-20">
        <div className="w-full max-w-md space-y-6">
          <div className="text-center">
            <p className="inline-flex items-center gap-2 rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">
              <ShieldIcon className="h-4 w-4" /> Authorized Access Only
            </p>
            <h1 id="signin-heading" className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">
              {title}
            </h1>
          </div>
          <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
            {children}
          </div>
          <p className="text-center text-sm text-slate-600 dark:text-slate-400">{footer}</p>
        </div>
      </main>
      <footer className="border-t border-slate-200 py-6 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-end gap-4 px-4">
          <LegalLinks />
        </div>
      </footer>
    </div>
  );
}

const linkClass = 'font-medium text-indigo-700 hover:underline dark:text-indigo-400';

/** The app's own sign-in (/signin) and sign-up (/signup) pages, in front of Auth.js. */
export default function SignInPage({ mode }: { mode: 'signin' | 'signup' }) {
  const [params] = useSearchParams();
  const callbackUrl = safeCallbackUrl(params.get('callbackUrl'));
  const back = callbackUrl === '/' ? '' : `?callbackUrl=${encodeURIComponent(callbackUrl)}`;

  if (mode === 'signup') {
    return (
      <AuthCard
        title="Create your account"
        footer={
          <>
            Already have an account?{' '}
            <Link to={`/signin${back}`} className={linkClass}>
              Sign in
            </Link>
          </>
        }
      >
        <SignUpForm callbackUrl={callbackUrl} />
        <GoogleSignIn callbackUrl={callbackUrl} />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Sign in to Scoutbase"
      footer={
        <>
          New to Scoutbase?{' '}
          <Link to={`/signup${back}`} className={linkClass}>
            Create an account
          </Link>
        </>
      }
    >
      <SignInForm
        // A new error from Auth.js (a redirect back here) starts the form afresh.
        key={params.toString()}
        callbackUrl={callbackUrl}
        initialError={signInErrorMessage(params.get('error'), params.get('code'))}
      />
      <GoogleSignIn callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
