import { type FormEvent, type InputHTMLAttributes, useEffect, useId, useState } from 'react';
import { graphql } from 'react-relay/hooks';
import { useAuth } from '../../../auth/auth.tsx';
import { formatFileSize } from '../../../lib/format.ts';
import { dataRequest, failureMessage } from '../../../lib/http.ts';
import { handledAsUnauthorized, isUnauthorizedError, signOutEnded, signOutStarted } from '../../../lib/unauthorized.ts';
import { useRouteQuery } from '../../../routing/useRouteQuery.ts';
import { Button, buttonClass } from '../../../ui/Button.tsx';
import { Card } from '../../../ui/Card.tsx';
import { Field, Input } from '../../../ui/Field.tsx';
import { Skeleton } from '../../../ui/Skeleton.tsx';
import { SubPage } from '../../../ui/SubPage.tsx';
import type { AccountScreenQuery } from './__generated__/AccountScreenQuery.graphql';

/** GET /api/account/deletion-preview (api/src/account/rules.ts DeletionPreview). */
interface DeletionPreview {
  email: string;
  hasPassword: boolean;
  twoFactor: boolean;
  files: number;
  bytes: number;
  folders: number;
  galleries: number;
  tasks: number;
  reviewLinks: number;
  comments: number;
  projectsDeleted: { id: string; name: string; members: number }[];
  projectsHandedOver: { id: string; name: string; newOwner: { id: string; name: string } }[];
  blocked: string | null;
}

/** The word typed to confirm, so a deletion never happens from one stray click. */
const CONFIRM_WORD = 'DELETE';

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby={id}>
        <h2 id={id} className="mb-3 text-lg font-semibold text-slate-900 dark:text-slate-100">
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}

function DownloadSection() {
  return (
    <Section title="Download your data" id="account-download">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        One ZIP file with everything that is yours: your files in their folders with every earlier version, and your
        records as JSON (profile and settings, galleries, tasks, comments and picks, projects, notifications, activity,
        assistant conversations, review links, signed-in devices and security events). Other people appear by name only.
        A large library takes a while to download.
      </p>
      <a href="/api/account/export" download className={buttonClass('outline', 'md', 'mt-4 w-full sm:w-auto')}>
        Download your data
      </a>
    </Section>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

function WhatGoes({ preview }: { preview: DeletionPreview }) {
  const goes = [
    `${plural(preview.files, 'file')} (${formatFileSize(preview.bytes)}) and ${plural(preview.folders, 'folder')}`,
    plural(preview.galleries, 'gallery', 'galleries'),
    plural(preview.tasks, 'task you created', 'tasks you created'),
    plural(preview.reviewLinks, 'review link'),
  ];
  return (
    <div className="space-y-3 text-sm text-slate-700 dark:text-slate-300">
      <div>
        <p className="font-medium text-slate-900 dark:text-slate-100">What will be deleted</p>
        <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="deletion-goes">
          {goes.map((line) => (
            <li key={line}>{line}</li>
          ))}
          {preview.projectsDeleted.map((p) => (
            <li key={p.id}>
              The project “{p.name}”: it has no other owner
              {p.members > 0 ? `; ${plural(p.members, 'other member')} will lose access to it` : ''}
            </li>
          ))}
        </ul>
      </div>
      {preview.projectsHandedOver.length > 0 && (
        <div>
          <p className="font-medium text-slate-900 dark:text-slate-100">What will be handed over</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="deletion-handed-over">
            {preview.projectsHandedOver.map((p) => (
              <li key={p.id}>
                The project “{p.name}” goes to {p.newOwner.name}
              </li>
            ))}
          </ul>
        </div>
      )}
      {preview.comments > 0 && (
        <p>
          {plural(preview.comments, 'comment')} you wrote on other people’s galleries will stay, signed “Deleted user”.
        </p>
      )}
    </div>
  );
}

function DeleteForm({ preview }: { preview: DeletionPreview }) {
  const id = useId();
  const { signOut } = useAuth();
  const [password, setPassword] = useState('');
  const [confirmEmail, setConfirmEmail] = useState('');
  const [code, setCode] = useState('');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [pending, setPending] = useState(false);
  const ready = typed.trim() === CONFIRM_WORD && !pending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (preview.hasPassword && !password) return setError({ message: 'Enter your password.', field: 'password' });
    if (!preview.hasPassword && !confirmEmail.trim()) {
      return setError({ message: 'Type your e-mail address to confirm.', field: 'confirm' });
    }
    if (preview.twoFactor && !code.trim()) {
      return setError({ message: 'Enter the code from your authenticator app.', field: 'code' });
    }
    if (typed.trim() !== CONFIRM_WORD) return setError({ message: `Type ${CONFIRM_WORD} to confirm.`, field: 'typed' });
    setError(null);
    setPending(true);
    // Deleting ends every session of the account: the live socket closing and the calls in flight
    // answering 401 are this deletion, not a session that expired.
    signOutStarted();
    try {
      await dataRequest('DELETE', '/api/account', {
        ...(preview.hasPassword ? { password } : { confirm: confirmEmail.trim() }),
        ...(preview.twoFactor ? { code: code.trim() } : {}),
      });
    } catch (failure) {
      signOutEnded();
      setPending(false);
      // The session had gone before the deletion: say so and go to sign-in.
      if (handledAsUnauthorized(failure)) return;
      const message = failureMessage(failure, 'Your account could not be deleted. Please try again.');
      const field = /password/i.test(message) ? 'password' : /code/i.test(message) ? 'code' : undefined;
      setError({ message, field });
      return;
    }
    // The account and its sessions are gone: to the landing page, saying so.
    const notice = { title: 'Account deleted', description: 'Your account and your data have been deleted.' };
    // Should the sign-out call fail, the session is gone anyway: the landing page, freshly loaded.
    if (!(await signOut(notice))) window.location.assign('/');
  }

  // One box of the confirmation; `field` names it in the form's error, which then describes it.
  const box = (
    field: string,
    label: string,
    value: string,
    onChange: (value: string) => void,
    props: InputHTMLAttributes<HTMLInputElement>,
  ) => (
    <Field label={label} htmlFor={`${id}-${field}`}>
      <Input
        id={`${id}-${field}`}
        {...props}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error?.field === field ? true : undefined}
        aria-describedby={error?.field === field ? `${id}-error` : undefined}
      />
    </Field>
  );
  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-4 border-t border-slate-200 pt-4 dark:border-slate-800">
      {preview.hasPassword
        ? box('password', 'Your password', password, setPassword, {
            type: 'password',
            autoComplete: 'current-password',
          })
        : box('confirm', `Your e-mail address (${preview.email})`, confirmEmail, setConfirmEmail, {
            type: 'email',
            autoComplete: 'off',
          })}
      {preview.twoFactor &&
        box('code', 'Two-factor code (or a recovery code)', code, setCode, {
          inputMode: 'text',
          autoComplete: 'one-time-code',
        })}
      {box('typed', `Type ${CONFIRM_WORD} to confirm`, typed, setTyped, {
        autoComplete: 'off',
        autoCapitalize: 'characters',
        spellCheck: false,
      })}
      {error && (
        <p
          id={`${id}-error`}
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {error.message}
        </p>
      )}
      <Button type="submit" variant="destructive" disabled={!ready} className="w-full sm:w-auto">
        {pending ? 'Deleting...' : 'Delete my account'}
      </Button>
    </form>
  );
}

type PreviewState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; preview: DeletionPreview };

function DeleteSection() {
  const [state, setState] = useState<PreviewState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is what asks again
  useEffect(() => {
    let active = true;
    setState({ status: 'loading' });
    dataRequest<DeletionPreview>('GET', '/api/account/deletion-preview').then(
      (preview) => active && setState({ status: 'ready', preview }),
      (error: unknown) =>
        active &&
        !isUnauthorizedError(error) &&
        setState({ status: 'failed', message: failureMessage(error, 'Could not list what would be deleted.') }),
    );
    return () => {
      active = false;
    };
  }, [attempt]);

  return (
    <Section title="Delete account" id="account-delete">
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        Deleting your account cannot be undone. Download your data first if you want to keep a copy.
      </p>
      {state.status === 'loading' && <Skeleton className="h-32" />}
      {state.status === 'failed' && (
        <div role="alert" className="space-y-2 text-sm text-red-800 dark:text-red-200">
          <p>{state.message}</p>
          <Button variant="outline" size="sm" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </div>
      )}
      {state.status === 'ready' && (
        <>
          <WhatGoes preview={state.preview} />
          {state.preview.blocked ? (
            <p
              role="status"
              className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
            >
              {state.preview.blocked}
            </p>
          ) : (
            <DeleteForm preview={state.preview} />
          )}
        </>
      )}
    </Section>
  );
}

function AccountSections() {
  // The screen's own query: whose account this is (the preview and the export come by REST).
  const { data } = useRouteQuery<AccountScreenQuery>(
    graphql`
      query AccountScreenQuery @preloadable {
        viewer {
          id
          email
        }
      }
    `,
  );
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Signed in as <span className="font-medium text-slate-900 dark:text-slate-100">{data.viewer.email}</span>
      </p>
      <DownloadSection />
      <DeleteSection />
    </div>
  );
}

/** Settings → Your data: download everything of yours, or delete the account. */
export default function AccountScreen() {
  return (
    <SubPage
      parent={{ to: '/settings', label: 'Settings' }}
      title="Your data"
      subtitle="Download a copy of your data, or delete your account"
      loading={['h-40', 'h-64']}
    >
      <AccountSections />
    </SubPage>
  );
}
