import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  asksForCode,
  safeCallbackUrl,
  chosenProvider,
  type IdentityProvider,
  isProviderError,
  signInErrorMessage,
  signInWithCredentials,
  signInWithProvider,
  signUp,
} from '../../auth/signIn.ts';
import { NewPasswordFields } from '../../auth/NewPasswordFields.tsx';
import { useIdentityProviders } from '../../auth/useIdentityProviders.ts';
import { Button } from '../../ui/Button.tsx';
import { appCodeProps, Field, Input, recoveryCodeProps } from '../../ui/Field.tsx';
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

/** One button per configured identity provider (Google, the company's OpenID Connect one), or nothing. */
function ProviderSignIn({ providers, callbackUrl }: { providers: IdentityProvider[] | null; callbackUrl: string }) {
  const [pending, setPending] = useState<string | null>(null);
  if (!providers?.length) return null;
  return (
    <>
      <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        or
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      </div>
      <div className="space-y-2">
        {providers.map((provider) => (
          <Button
            key={provider.id}
            variant="outline"
            className="w-full"
            disabled={pending !== null}
            onClick={() => {
              setPending(provider.id);
              void signInWithProvider(provider, callbackUrl).catch(() => setPending(null));
            }}
          >
            {pending === provider.id ? 'Signing in...' : `Sign in with ${provider.name}`}
          </Button>
        ))}
      </div>
    </>
  );
}

/** The second step of a sign-in with two-factor on: a code from the authenticator app, or a recovery code. */
function CodeField({ recovery, onSwitch }: { recovery: boolean; onSwitch: () => void }) {
  return (
    <div className="space-y-2">
      <p id="signin-code-hint" className="text-sm text-slate-700 dark:text-slate-300">
        {recovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      <Field label={recovery ? 'Recovery code' : 'Authentication code'} htmlFor="signin-code">
        {recovery ? (
          <Input
            key="recovery"
            id="signin-code"
            {...recoveryCodeProps}
            autoComplete="off"
            placeholder="xxxxx-xxxxx"
            aria-describedby="signin-code-hint"
            required
            autoFocus
          />
        ) : (
          <Input key="totp" id="signin-code" {...appCodeProps} aria-describedby="signin-code-hint" required autoFocus />
        )}
      </Field>
      <button type="button" onClick={onSwitch} className={`text-sm ${linkClass}`}>
        {recovery ? 'Use a code from your authenticator app instead' : 'Use a recovery code instead'}
      </button>
    </div>
  );
}

function SignInForm({
  callbackUrl,
  initialError,
  initialAskCode,
}: {
  callbackUrl: string;
  initialError: string | null;
  /** Auth.js sent the browser back here asking for the second step (the page was posted without script). */
  initialAskCode: boolean;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState(initialError);
  // After a right password with two-factor on: what was typed, sent again with the code.
  const [typed, setTyped] = useState<{ email: string; password: string } | null>(null);
  const [askCode, setAskCode] = useState(initialAskCode);
  const [recovery, setRecovery] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const credentials = typed ?? { email: String(data.get('email')), password: String(data.get('password')) };
    const code = askCode ? String(data.get('code') ?? '').trim() : undefined;
    if (askCode && !code) {
      setError(recovery ? 'Enter a recovery code.' : 'Enter the 6-digit code from your authenticator app.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      const failure = await signInWithCredentials({ ...credentials, code }, callbackUrl);
      if (failure === null) return; // on the way to callbackUrl
      if (failure.needsCode) {
        setTyped(credentials);
        // The first time the step appears its own words say what to do; a wrong code gets the error.
        setError(askCode ? failure.message : null);
        setAskCode(true);
      } else {
        setError(failure.message);
      }
    } catch {
      setError('Sign-in failed. Check your connection and try again.');
    }
    setPending(false);
  }

  function startOver() {
    setTyped(null);
    setAskCode(false);
    setRecovery(false);
    setError(null);
  }

  return (
    <AuthForm
      onSubmit={submit}
      error={error}
      pending={pending}
      submitLabel={askCode ? 'Verify' : 'Sign In'}
      pendingLabel={askCode ? 'Verifying...' : 'Signing in...'}
    >
      {typed ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Signing in as <span className="font-medium text-slate-900 dark:text-slate-100">{typed.email}</span>.{' '}
          <button type="button" onClick={startOver} className={linkClass}>
            Not you?
          </button>
        </p>
      ) : (
        <>
          <Field label="Email" htmlFor="signin-email">
            <Input id="signin-email" name="email" type="email" autoComplete="email" required />
          </Field>
          <Field label="Password" htmlFor="signin-password">
            <Input id="signin-password" name="password" type="password" autoComplete="current-password" required />
          </Field>
          <p className="-mt-2 text-right text-sm">
            <Link to="/reset-password" className={linkClass}>
              Forgot password?
            </Link>
          </p>
        </>
      )}
      {askCode && (
        <CodeField
          recovery={recovery}
          onSwitch={() => {
            setRecovery(!recovery);
            setError(null);
          }}
        />
      )}
    </AuthForm>
  );
}

function SignUpForm({ callbackUrl }: { callbackUrl: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The server's answer, the same whether or not the address already had an account.
  const [sent, setSent] = useState<{ message: string; email: string } | null>(null);

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
      // The server's rules and words (password length, sign-up turned off). No sign-in here: it
      // would tell whether the address already had an account, which the answer does not.
      const answer = await signUp(input);
      setSent({ message: answer.message, email: answer.email || input.email });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Sign-up failed');
    }
    setPending(false);
  }

  if (sent) {
    const back = callbackUrl === '/' ? '' : `?callbackUrl=${encodeURIComponent(callbackUrl)}`;
    return (
      <div className="space-y-4" aria-live="polite">
        <h2 className="text-lg font-semibold">Check your e-mail</h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {sent.message} We sent a link to{' '}
          <span className="font-medium text-slate-900 dark:text-slate-100">{sent.email}</span>. Open it to confirm the
          address is yours, then sign in. Until then you can sign in, but not join projects you are invited to.
        </p>
        <Link to={`/signin${back}`} className={`block text-sm ${linkClass}`}>
          Continue to sign in
        </Link>
      </div>
    );
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
      <NewPasswordFields id="signup-password" name="password" label="Password" again={false} />
    </AuthForm>
  );
}

/** The signed-out pages' frame: the brand, a title, a card and a line below it (also the recovery pages). */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
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

export const linkClass = 'font-medium text-indigo-700 hover:underline dark:text-indigo-400';

/** The app's own sign-in (/signin) and sign-up (/signup) pages, in front of Auth.js. */
export default function SignInPage({ mode }: { mode: 'signin' | 'signup' }) {
  const [params] = useSearchParams();
  const callbackUrl = safeCallbackUrl(params.get('callbackUrl'));
  const back = callbackUrl === '/' ? '' : `?callbackUrl=${encodeURIComponent(callbackUrl)}`;
  const providers = useIdentityProviders();
  const error = params.get('error');
  const code = params.get('code');
  // A failure from an identity provider names the one the person went to (or the only one there is).
  const providerError = isProviderError(error, code);
  const provider = chosenProvider() ?? (providers?.length === 1 ? providers[0]?.name : null);

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
        <ProviderSignIn providers={providers} callbackUrl={callbackUrl} />
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
        // A new error from Auth.js (a redirect back here) starts the form afresh; so does the list
        // of providers arriving when the error needs a provider's name.
        key={`${params.toString()}${providerError && providers ? ':providers' : ''}`}
        callbackUrl={callbackUrl}
        initialError={signInErrorMessage(error, code, provider)}
        initialAskCode={asksForCode(params.get('code'))}
      />
      <ProviderSignIn providers={providers} callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
