import { type FormEvent, type ReactNode, useState } from 'react';
import { useAuth } from '../../../auth/auth.tsx';
import { dataRequest, failureMessage, toastFailure } from '../../../lib/http.ts';
import { isUnauthorizedError } from '../../../lib/unauthorized.ts';
import { Badge } from '../../../ui/Badge.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Card } from '../../../ui/Card.tsx';
import { appCodeProps, Field, Input, recoveryCodeProps } from '../../../ui/Field.tsx';
import { AlertIcon, DownloadIcon } from '../../../ui/icons.tsx';
import { toast } from '../../../ui/toast.tsx';

// Two-factor sign-in (api/src/auth/two-factor.ts): turned on with a code from an authenticator
// app, which the QR code or the secret sets up; off with the password and a code. Whether it is on
// comes with the signed-in person's profile (GET /api/auth/user), which this updates in place.

interface Setup {
  otpauthUrl: string;
  /** An SVG data URL of otpauthUrl. */
  qrCode: string;
  /** Base32, for typing into an app by hand. */
  secret: string;
}

type Step =
  | { name: 'status' }
  | { name: 'setup'; setup: Setup }
  | { name: 'codes'; recoveryCodes: string[] }
  | { name: 'disable' };

function FormError({ id, message }: { id: string; message: string | null }) {
  // Always in the page, so screen readers announce a message when it appears.
  return (
    <p id={id} role="alert" className="min-h-5 text-sm text-red-700 dark:text-red-400">
      {message}
    </p>
  );
}

/** The end of a step's form: its error, the button that sends it (`children` its words) and Cancel. */
function FormEnd({
  errorId,
  error,
  pending,
  onCancel,
  destructive = false,
  children,
}: {
  errorId: string;
  error: string | null;
  pending: boolean;
  onCancel: () => void;
  destructive?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <FormError id={errorId} message={error} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant={destructive ? 'destructive' : undefined} disabled={pending}>
          {children}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </div>
    </>
  );
}

/** The secret in groups of four, as authenticator apps show what they ask to be typed. */
function grouped(secret: string) {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: `${what} copied` });
  } catch {
    toast({ title: 'Could not copy', description: 'Select the text and copy it instead.', variant: 'destructive' });
  }
}

function download(codes: string[], email: string) {
  const text = [
    `Scoutbase recovery codes for ${email}`,
    'Each code signs you in once when you cannot use your authenticator app. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'scoutbase-recovery-codes.txt';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function SetupStep({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: Setup;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) {
      setError('Enter the 6-digit code your app shows.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      const { recoveryCodes } = await dataRequest<{ recoveryCodes: string[] }>('POST', '/api/auth/two-factor/enable', {
        code,
      });
      onEnabled(recoveryCodes);
    } catch (e) {
      if (isUnauthorizedError(e)) return;
      setError(failureMessage(e, 'Could not turn two-factor sign-in on. Please try again.'));
      setPending(false);
    }
  }

  return (
    <div className="space-y-5">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300">
        <li>Open an authenticator app on your phone (1Password, Google Authenticator, Microsoft Authenticator…).</li>
        <li>Scan this QR code, or type the key below into the app.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {/* White behind the code in dark mode too: phone cameras read dark-on-light. */}
        <img
          src={setup.qrCode}
          alt="QR code to scan with your authenticator app"
          width={176}
          height={176}
          className="h-44 w-44 shrink-0 rounded-md border border-slate-200 bg-white p-2 dark:border-slate-700"
        />
        <div className="w-full min-w-0 space-y-2">
          <p className="text-sm font-medium text-slate-700 dark:text-slate-300">Or type this key</p>
          <p className="rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900 select-all dark:bg-slate-800 dark:text-slate-100">
            {grouped(setup.secret)}
          </p>
          <Button variant="outline" size="sm" onClick={() => void copy(setup.secret, 'Key')}>
            Copy key
          </Button>
        </div>
      </div>
      <form onSubmit={submit} noValidate className="space-y-3" aria-label="Confirm two-factor sign-in">
        <Field label="Code from your app" htmlFor="two-factor-enable-code">
          <Input
            id="two-factor-enable-code"
            {...appCodeProps}
            aria-describedby="two-factor-enable-error"
            className="sm:max-w-48"
            required
          />
        </Field>
        <FormEnd errorId="two-factor-enable-error" error={error} pending={pending} onCancel={onCancel}>
          {pending ? 'Turning on...' : 'Turn on'}
        </FormEnd>
      </form>
    </div>
  );
}

function RecoveryCodesStep({ codes, email, onDone }: { codes: string[]; email: string; onDone: () => void }) {
  return (
    <div className="space-y-4">
      <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200">
        <p className="font-semibold">Save your recovery codes now</p>
        <p className="mt-1">
          Each code signs you in once if you lose your phone. They are shown only this once: copy them or download them,
          and keep them somewhere safe.
        </p>
      </div>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-2 rounded-md bg-slate-100 p-3 font-mono text-sm text-slate-900 min-[360px]:grid-cols-2 dark:bg-slate-800 dark:text-slate-100"
      >
        {codes.map((code) => (
          <li key={code} className="select-all">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void copy(codes.join('\n'), 'Recovery codes')}>
          Copy codes
        </Button>
        <Button variant="outline" size="sm" onClick={() => download(codes, email)}>
          <DownloadIcon className="h-4 w-4" /> Download .txt
        </Button>
      </div>
      <Button onClick={onDone}>I have saved my codes</Button>
    </div>
  );
}

function DisableStep({ onDisabled, onCancel }: { onDisabled: () => void; onCancel: () => void }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password') ?? '');
    const code = String(data.get('code') ?? '').trim();
    if (!password) return setError('Enter your password.');
    if (!code) return setError('Enter a code from your app or a recovery code.');
    setPending(true);
    setError(null);
    try {
      await dataRequest('POST', '/api/auth/two-factor/disable', { password, code });
      onDisabled();
    } catch (e) {
      if (isUnauthorizedError(e)) return;
      setError(failureMessage(e, 'Could not turn two-factor sign-in off. Please try again.'));
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Turn off two-factor sign-in">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        To turn two-factor sign-in off, enter your password and a code from your app (or a recovery code).
      </p>
      <Field label="Password" htmlFor="two-factor-disable-password">
        <Input
          id="two-factor-disable-password"
          name="password"
          type="password"
          autoComplete="current-password"
          aria-describedby="two-factor-disable-error"
          required
        />
      </Field>
      <Field label="Code from your app or a recovery code" htmlFor="two-factor-disable-code">
        <Input
          id="two-factor-disable-code"
          {...recoveryCodeProps}
          autoComplete="one-time-code"
          aria-describedby="two-factor-disable-error"
          className="sm:max-w-64"
          required
        />
      </Field>
      <FormEnd errorId="two-factor-disable-error" error={error} pending={pending} onCancel={onCancel} destructive>
        {pending ? 'Turning off...' : 'Turn off'}
      </FormEnd>
    </form>
  );
}

/** Settings › Security: two-factor sign-in with an authenticator app, and its recovery codes. */
export default function TwoFactorSection() {
  const { state, setUser } = useAuth();
  const user = state.status === 'signedIn' ? state.user : null;
  const enabled = user?.twoFactorEnabled === true;
  const [step, setStep] = useState<Step>({ name: 'status' });
  const [starting, setStarting] = useState(false);

  async function start() {
    setStarting(true);
    try {
      setStep({ name: 'setup', setup: await dataRequest<Setup>('POST', '/api/auth/two-factor/setup') });
    } catch (e) {
      toastFailure(e, 'Could not start');
    } finally {
      setStarting(false);
    }
  }

  function changed(on: boolean) {
    if (user) setUser({ ...user, twoFactorEnabled: on, twoFactorRequired: on ? false : user.twoFactorRequired });
  }

  return (
    <Card className="p-6">
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold text-slate-900 dark:text-slate-100">
            Two-factor sign-in
            {step.name !== 'codes' && (enabled ? <Badge tone="green">On</Badge> : <Badge>Off</Badge>)}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {enabled
              ? 'Signing in with your password also asks for a code from your authenticator app.'
              : 'Ask for a code from an authenticator app on your phone as well as your password when you sign in.'}
          </p>
        </div>
        {step.name === 'status' &&
          (enabled ? (
            <Button variant="outline" size="sm" onClick={() => setStep({ name: 'disable' })}>
              Turn off
            </Button>
          ) : (
            <Button size="sm" disabled={starting} onClick={() => void start()}>
              {starting ? 'Starting...' : 'Turn on'}
            </Button>
          ))}
      </div>
      {user?.twoFactorRequired && !enabled && (
        <p
          role="status"
          className="mb-4 flex gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200"
        >
          <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
          Your administrator requires two-factor sign-in. Turn it on to go on using Scoutbase.
        </p>
      )}
      {step.name === 'setup' && (
        <SetupStep
          setup={step.setup}
          onCancel={() => setStep({ name: 'status' })}
          onEnabled={(recoveryCodes) => {
            changed(true);
            setStep({ name: 'codes', recoveryCodes });
            toast({ title: 'Two-factor sign-in is on' });
          }}
        />
      )}
      {step.name === 'codes' && (
        <RecoveryCodesStep
          codes={step.recoveryCodes}
          email={user?.email ?? ''}
          onDone={() => setStep({ name: 'status' })}
        />
      )}
      {step.name === 'disable' && (
        <DisableStep
          onCancel={() => setStep({ name: 'status' })}
          onDisabled={() => {
            changed(false);
            setStep({ name: 'status' });
            toast({ title: 'Two-factor sign-in is off' });
          }}
        />
      )}
    </Card>
  );
}
