import { useEffect, useState } from 'react';
import { formatFileSize } from '../../lib/format.ts';
import { toastFailure } from '../../lib/http.ts';
import { useLoadFailure, whileCurrent } from './useLoadFailure.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { SkeletonStack } from '../../ui/Skeleton.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { toast } from '../../ui/toast.tsx';
import { fetchInstance, type InstanceReport, retryQueue, updateInstance } from './adminApi.ts';

const BACKENDS = { local: 'Data folder on this server', s3: 'S3-compatible bucket', uploadthing: 'UploadThing' };

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="py-2 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900 sm:col-span-2 sm:mt-0 dark:text-slate-100">
        {children}
      </dd>
    </div>
  );
}

/** What runs, on what, how full, the job queues, and the instance's switches. */
export function InstanceSection({ onNotAdmin }: { onNotAdmin: () => void }) {
  const [report, setReport] = useState<InstanceReport | null>(null);
  const [saving, setSaving] = useState<string | null>(null);

  const { failed, failedToLoad } = useLoadFailure(onNotAdmin, 'Could not load the instance.');

  useEffect(() => whileCurrent(fetchInstance(), setReport, failedToLoad), [failedToLoad]);

  async function change(key: 'allowSignup' | 'requireTwoFactor', value: boolean) {
    setSaving(key);
    try {
      setReport(await updateInstance({ [key]: value }));
      const what = key === 'allowSignup' ? 'Open sign-up' : 'Two-factor for everyone';
      toast({ title: `${what} turned ${value ? 'on' : 'off'}` });
    } catch (error) {
      toastFailure(error, 'Not saved');
    } finally {
      setSaving(null);
    }
  }

  async function retry(queue: string) {
    setSaving(`retry:${queue}`);
    try {
      const { retried } = await retryQueue(queue);
      toast({ title: retried === 1 ? '1 job runs again' : `${retried} jobs run again`, description: queue });
      setReport(await fetchInstance());
    } catch (error) {
      toastFailure(error, 'Not retried');
    } finally {
      setSaving(null);
    }
  }

  if (failed) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        {failed}
      </p>
    );
  }
  if (!report) {
    return <SkeletonStack rows={['h-40 w-full', 'h-32 w-full']} className="space-y-4" />;
  }
  return (
    <div className="space-y-6">
      <Card className="p-4 sm:p-6">
        <h2 className="mb-2 text-lg font-semibold text-slate-900 dark:text-slate-100">This instance</h2>
        <dl className="divide-y divide-slate-200 dark:divide-slate-800">
          <Fact label="Version">
            {report.version}
            {report.versionSource === 'git' && (
              <span className="text-slate-500 dark:text-slate-400"> (git describe of the checkout)</span>
            )}
          </Fact>
          <Fact label="Database">{report.database}</Fact>
          <Fact label="Storage">{BACKENDS[report.storage.backend]}</Fact>
          <Fact label="Stored">
            {formatFileSize(report.storage.usedBytes)} by {report.people === 1 ? '1 person' : `${report.people} people`}
          </Fact>
          <Fact label="Default quota">{formatFileSize(report.storage.defaultQuotaBytes)} per person</Fact>
        </dl>
      </Card>

      <Card className="p-4 sm:p-6">
        <h2 className="mb-2 text-lg font-semibold text-slate-900 dark:text-slate-100">Sign-up and sign-in</h2>
        <div className="divide-y divide-slate-200 dark:divide-slate-800">
          <Switch
            label="Open sign-up"
            description={`Anyone can create an account. Off: only an administrator adds people (pnpm user:create). The server's setting says ${report.allowSignupDefault ? 'on' : 'off'}.`}
            checked={report.allowSignup}
            disabled={saving !== null}
            onChange={(value) => change('allowSignup', value)}
          />
          <Switch
            label="Require two-factor for everyone"
            description="Everyone who signs in with a password must set up an authenticator app."
            checked={report.requireTwoFactor}
            disabled={saving !== null}
            onChange={(value) => change('requireTwoFactor', value)}
          />
        </div>
      </Card>

      <Card className="p-4 sm:p-6">
        <h2 className="mb-3 text-lg font-semibold text-slate-900 dark:text-slate-100">Background jobs</h2>
        {report.jobs.queues.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No job queues yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {report.jobs.queues.map((queue) => (
              <li key={queue.name} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div className="min-w-0">
                  <p className="truncate font-mono text-sm text-slate-900 dark:text-slate-100">{queue.name}</p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {queue.queued} waiting · {queue.active} running
                    {queue.oldestQueuedSeconds !== null ? ` · oldest waits ${queue.oldestQueuedSeconds}s` : ''}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  {queue.failed > 0 ? <Badge tone="red">{queue.failed} failed</Badge> : <Badge>0 failed</Badge>}
                  {queue.failed > 0 && (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={saving !== null}
                      onClick={() => retry(queue.name)}
                      aria-label={`Retry failed jobs of ${queue.name}`}
                    >
                      {saving === `retry:${queue.name}` ? 'Retrying...' : 'Retry'}
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
        {report.jobs.failures.length > 0 && (
          <details className="mt-4 text-sm">
            <summary className="cursor-pointer text-slate-700 dark:text-slate-300">Latest failures</summary>
            <ul className="mt-2 space-y-2">
              {report.jobs.failures.map((failure) => (
                <li key={failure.id} className="break-words text-xs text-slate-600 dark:text-slate-400">
                  <span className="font-mono">{failure.name}</span> after {failure.attempts} attempt(s):{' '}
                  {failure.error ?? 'no error recorded'}
                </li>
              ))}
            </ul>
          </details>
        )}
      </Card>
    </div>
  );
}
