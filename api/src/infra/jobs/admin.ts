import type { AdminCommand } from '../admin-socket.ts';
import type { FailedJob, JobQueue, QueueStats } from './queue.ts';

export interface JobsReport {
  queues: QueueStats[];
  failures: FailedJob[];
}

/** What `pnpm jobs` shows: every queue's counts, and the jobs that used up their retries. */
export async function jobsReport(jobs: JobQueue, limit = 50): Promise<JobsReport> {
  return { queues: await jobs.stats(), failures: await jobs.failures(limit) };
}

/** The admin-socket commands of `pnpm jobs`, answered by the running server (embedded database). */
export function jobsAdminCommands(jobs: JobQueue): Record<string, AdminCommand> {
  return {
    'jobs:report': async (args) => jobsReport(jobs, Number(args.limit) || 50),
    'jobs:retry': async (args) => ({ retried: await jobs.retry(String(args.target ?? '')) }),
  };
}

/** The report as the terminal shows it. */
export function formatJobsReport({ queues, failures }: JobsReport): string {
  const lines: string[] = [];
  if (queues.length === 0) lines.push('No job queues yet (the server creates them as it starts).');
  else {
    const rows = [
      ['QUEUE', 'QUEUED', 'ACTIVE', 'FAILED', 'OLDEST WAITING'],
      ...queues.map((q) => [
        q.name,
        String(q.queued),
        String(q.active),
        String(q.failed),
        q.oldestQueuedSeconds === null ? '-' : `${q.oldestQueuedSeconds}s`,
      ]),
    ];
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
    for (const row of rows)
      lines.push(
        row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      );
  }
  if (failures.length) {
    lines.push('', `Failed jobs (${failures.length}, newest first; \`pnpm jobs retry <queue|id>\` runs them again):`);
    for (const f of failures) {
      const when = f.failedAt ? f.failedAt.toISOString() : 'unknown time';
      lines.push(`  ${f.id}  ${f.name}  ${when}  after ${f.attempts} attempt(s): ${f.error ?? 'no error recorded'}`);
    }
  } else lines.push('', 'No failed jobs.');
  return lines.join('\n');
}
