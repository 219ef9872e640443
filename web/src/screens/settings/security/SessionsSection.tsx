import { useState } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { formatAge, formatDateTime } from '../../../lib/format.ts';
import { dataRequest, failureMessage } from '../../../lib/http.ts';
import { isUnauthorizedError } from '../../../lib/unauthorized.ts';
import { deviceName, describeUserAgent } from '../../../lib/userAgent.ts';
import { Badge } from '../../../ui/Badge.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Card } from '../../../ui/Card.tsx';
import { ConfirmDialog } from '../../../ui/dialogs.ts';
import { toast } from '../../../ui/toast.tsx';
import type { SessionsSection_viewer$key } from './__generated__/SessionsSection_viewer.graphql';
import { useNow } from '../../../lib/now.ts';

/** What a failed sign-out says when the server sent no message of its own. */
const SIGN_OUT_FAILED = 'Could not sign that device out. Please try again.';

/**
 * Where this account is signed in, with a way to sign any other device out (its live connections
 * close at once). The list comes with the Security screen's query; after a change it is read again.
 */
export function SessionsSection({
  viewer,
  onChanged,
}: {
  viewer: SessionsSection_viewer$key;
  /** Reads the screen's query again. */
  onChanged: () => void;
}) {
  const now = useNow();
  const { sessions } = useFragment(
    graphql`
      fragment SessionsSection_viewer on User {
        sessions {
          id
          current
          userAgent
          ip
          createdAt
          lastSeenAt
        }
      }
    `,
    viewer,
  );
  // Rows signed out here: hidden at once, before the list is read again.
  const [ended, setEnded] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState<string | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const shown = (sessions ?? []).filter((s) => !ended.has(s.id));
  const others = shown.filter((s) => !s.current);

  async function end(url: string, key: string, ids: string[], done: string) {
    setPending(key);
    try {
      await dataRequest('DELETE', url);
      setEnded((current) => new Set([...current, ...ids]));
      toast({ title: done });
      onChanged();
    } catch (error) {
      if (isUnauthorizedError(error)) return;
      // Already gone (ended from another device meanwhile): the list is simply out of date.
      if (error instanceof Error && error.message.startsWith('404:')) {
        setEnded((current) => new Set([...current, ...ids]));
        onChanged();
        return;
      }
      toast({ title: 'Sign-out failed', description: failureMessage(error, SIGN_OUT_FAILED), variant: 'destructive' });
    } finally {
      setPending(null);
      setConfirmAll(false);
    }
  }

  return (
    <Card className="p-6">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 className="text-lg font-semibold text-slate-900 dark:text-slate-100">Where you're signed in</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Sign out of any device you don't recognise or no longer use.
          </p>
        </div>
        {others.length > 0 && (
          <Button variant="outline" size="sm" disabled={pending !== null} onClick={() => setConfirmAll(true)}>
            Sign out of all other devices
          </Button>
        )}
      </div>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Signed-in devices">
        {shown.map((session) => {
          const name = deviceName(session.userAgent);
          return (
            <li
              key={session.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
              data-testid="session-row"
            >
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900 dark:text-slate-100">
                  <span>{name}</span>
                  {describeUserAgent(session.userAgent).mobile && <Badge>Mobile</Badge>}
                  {session.current && <Badge tone="green">This device</Badge>}
                </p>
                <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">
                  {session.ip ?? 'Unknown address'} · Signed in {formatDateTime(session.createdAt)} · Last active{' '}
                  {formatAge(session.lastSeenAt, now).toLowerCase()}
                </p>
              </div>
              {!session.current && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="self-start sm:self-center"
                  disabled={pending !== null}
                  aria-label={`Sign out ${name}`}
                  onClick={() =>
                    void end(
                      `/api/auth/sessions/${encodeURIComponent(session.id)}`,
                      session.id,
                      [session.id],
                      'Signed out',
                    )
                  }
                >
                  {pending === session.id ? 'Signing out...' : 'Sign out'}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {others.length === 0 && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">You're not signed in anywhere else.</p>
      )}
      <ConfirmDialog
        open={confirmAll}
        onClose={() => setConfirmAll(false)}
        onConfirm={() =>
          void end(
            '/api/auth/sessions',
            'all',
            others.map((s) => s.id),
            'Signed out of all other devices',
          )
        }
        title="Sign out of all other devices?"
        message={`${others.length === 1 ? 'One other device' : `${others.length} other devices`} will be signed out at once. This device stays signed in.`}
        confirmLabel="Sign out"
        pendingLabel="Signing out..."
        pending={pending === 'all'}
      />
    </Card>
  );
}
