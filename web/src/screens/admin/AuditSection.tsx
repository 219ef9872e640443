import { useEffect, useState } from 'react';
import { AUDIT_ACTIONS } from '../../../../api/src/auth/audit.ts';
import { formatDateTime } from '../../lib/format.ts';
import { SectionBody } from './SectionBody.tsx';
import { useLoadFailure, whileCurrent } from './useLoadFailure.ts';
import { LoadMore } from '../../ui/LoadMore.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { DownloadIcon, ShieldIcon } from '../../ui/icons.tsx';
import { type AuditEvent, auditPath, fetchAudit } from './adminApi.ts';

/** "admin_user_disabled" → "Admin user disabled". */
function actionLabel(action: string) {
  const words = action.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What the event's metadata adds, in a line. */
function details(event: AuditEvent) {
  const entries = Object.entries(event.metadata ?? {});
  if (entries.length === 0) return null;
  return entries
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** The audit log, newest first, by kind, with its exports. */
export function AuditSection({ onNotAdmin }: { onNotAdmin: () => void }) {
  const [action, setAction] = useState('');
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [more, setMore] = useState(false);

  const { failed, setFailed, failedToLoad, loadingMore, readMore } = useLoadFailure(
    onNotAdmin,
    'Could not load the audit log.',
  );

  useEffect(() => {
    setEvents(null);
    setFailed(null);
    return whileCurrent(
      fetchAudit(action),
      (page) => {
        setEvents(page);
        setMore(page.length === 50);
      },
      failedToLoad,
    );
  }, [action, failedToLoad, setFailed]);

  const loadMore = () =>
    readMore(async () => {
      const page = await fetchAudit(action, events?.at(-1)?.id);
      setEvents((shown) => [...(shown ?? []), ...page]);
      setMore(page.length === 50);
    });

  return (
    <section aria-labelledby="audit-heading">
      <div className="mb-4 flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <h2 id="audit-heading" className="text-lg font-semibold text-slate-900 dark:text-slate-100">
          Audit log
        </h2>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div>
            <label htmlFor="audit-action" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
              Event
            </label>
            <select
              id="audit-action"
              value={action}
              onChange={(e) => setAction(e.target.value)}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 sm:w-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            >
              <option value="">All events</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {actionLabel(a)}
                </option>
              ))}
            </select>
          </div>
          <div className="flex gap-2">
            <a
              href={auditPath({ action, format: 'csv' })}
              download
              className={buttonClass('outline', 'md', 'flex-1 sm:flex-none')}
            >
              <DownloadIcon className="h-4 w-4" /> Export CSV
            </a>
            <a
              href={auditPath({ action, format: 'json' })}
              download
              className={buttonClass('outline', 'md', 'flex-1 sm:flex-none')}
            >
              <DownloadIcon className="h-4 w-4" /> Export JSON
            </a>
          </div>
        </div>
      </div>
      <SectionBody
        failed={failed}
        items={events}
        placeholder={{ rows: Array(4).fill('h-14 w-full'), className: 'space-y-2' }}
        empty={
          <EmptyState
            icon={<ShieldIcon className="h-10 w-10" />}
            title="Nothing recorded"
            text={
              action
                ? 'No event of this kind yet.'
                : 'Sign-ins, security changes and administrators’ actions appear here.'
            }
          />
        }
      >
        {(events) => (
          <Card>
            <ol className="divide-y divide-slate-200 dark:divide-slate-800">
              {events.map((event) => {
                const extra = details(event);
                return (
                  <li key={event.id} className="px-4 py-3 text-sm">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                      <span className="font-medium text-slate-900 dark:text-slate-100">
                        {actionLabel(event.action)}
                      </span>
                      <time dateTime={event.createdAt} className="text-xs text-slate-500 dark:text-slate-400">
                        {formatDateTime(event.createdAt)}
                      </time>
                    </div>
                    <p className="mt-0.5 break-words text-slate-600 dark:text-slate-400">
                      {event.actorEmail && event.subjectEmail && event.actorEmail !== event.subjectEmail
                        ? `${event.actorEmail} → ${event.subjectEmail}`
                        : (event.subjectEmail ?? event.actorEmail ?? 'No account')}
                      {event.ipAddress ? ` · ${event.ipAddress}` : ''}
                    </p>
                    {extra && <p className="mt-0.5 break-words text-xs text-slate-500 dark:text-slate-400">{extra}</p>}
                  </li>
                );
              })}
            </ol>
          </Card>
        )}
      </SectionBody>
      <LoadMore
        list={{ hasNext: Boolean(events && more), isLoadingNext: loadingMore, loadNext: loadMore }}
        count={50}
        label="Show older events"
        className="pt-4"
      />
    </section>
  );
}
