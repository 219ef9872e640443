// pnpm jobs                      queues with queued / active / failed counts, and the failed jobs
// pnpm jobs retry <queue|job id> runs failed jobs again (all of a queue's, or one)
// With the embedded database and a server running on the same DATA_DIR, the server answers (over
// its admin socket): only the process holding the database may open it. With PostgreSQL the tool
// connects itself.
import { readConfig } from '../src/config.ts';
import { callAdmin, NoServerError } from '../src/infra/admin-socket.ts';
import { DataDirInUseError } from '../src/infra/db/data-dir-lock.ts';
import { openDatabase } from '../src/infra/db/database.ts';
import { formatJobsReport, type JobsReport, jobsReport } from '../src/infra/jobs/admin.ts';
import { createJobQueue, type JobQueue } from '../src/infra/jobs/queue.ts';
import { exitOnKnownError } from './cli.ts';

const [command, target] = process.argv.slice(2);
if (!(command === undefined || command === 'list' || (command === 'retry' && target))) {
  console.error('usage: pnpm jobs [list] | pnpm jobs retry <queue|job id>');
  process.exit(2);
}

try {
  const config = readConfig(process.env);
  const withQueue = async <T>(run: (jobs: JobQueue) => Promise<T>) => {
    const database = await openDatabase(config.database, {
      migrate: config.migrateOnStart || config.database.kind === 'embedded',
    });
    // No workers: this tool only reads and re-queues; the server runs the jobs.
    const jobs = await createJobQueue(database, { workers: false });
    try {
      return await run(jobs);
    } finally {
      await jobs.close();
      await database.close();
    }
  };
  const ask = <T>(name: string, args: Record<string, unknown>, here: () => Promise<T>) =>
    config.database.kind === 'embedded' ? viaServerOrHere<T>(config.dataDir, name, args, here) : here();

  if (command === 'retry' && target) {
    const { retried } = await ask<{ retried: number }>('jobs:retry', { target }, () =>
      withQueue(async (jobs) => ({ retried: await jobs.retry(target) })),
    );
    if (retried === 0) {
      console.error(`No failed jobs for "${target}" (a queue name or a job id from \`pnpm jobs\`).`);
      process.exit(1);
    }
    console.log(`Queued ${retried} failed job(s) again.`);
  } else {
    const report = await ask<JobsReport>('jobs:report', {}, () => withQueue((jobs) => jobsReport(jobs)));
    // Dates come through the admin socket as JSON strings.
    for (const failure of report.failures) failure.failedAt = failure.failedAt ? new Date(failure.failedAt) : null;
    console.log(formatJobsReport(report));
  }
} catch (error) {
  exitOnKnownError(error);
}

/**
 * Asks the server holding the embedded database; opens the folder itself only when none runs. A
 * server starting up holds the folder before its socket listens: asked again shortly.
 */
async function viaServerOrHere<T>(
  dataDir: string,
  name: string,
  args: Record<string, unknown>,
  here: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return (await callAdmin(dataDir, name, args)) as T;
    } catch (error) {
      if (!(error instanceof NoServerError)) throw error;
    }
    try {
      return await here();
    } catch (error) {
      if (!(error instanceof DataDirInUseError) || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
