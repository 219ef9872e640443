import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchPostgresDatabase } from '../../../test/harness.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { createJobQueue, type JobQueue } from './queue.ts';

// The run's kind of database: PGlite, or PostgreSQL when TEST_DATABASE_URL is set.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function freshDatabase(): Promise<{ open(): Promise<Database>; killSessions(): Promise<void> }> {
  if (onPostgres) {
    const scratch = await scratchPostgresDatabase('scoutbase_jobs');
    cleanups.push(() => scratch.drop());
    return {
      open: () => openDatabase({ kind: 'postgres', url: scratch.url }, { migrate: false }),
      // What PostgreSQL sees when a process is SIGKILLed: its connections drop.
      async killSessions() {
        const admin = new pg.Client({ connectionString: scratch.url });
        await admin.connect();
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        await admin.end();
      },
    };
  }
  const client = await PGlite.create();
  cleanups.push(() => client.close());
  // Several "processes" take turns on one embedded database, as restarts do.
  return {
    async open() {
      const db = await openDatabase({ kind: 'pglite', client }, { migrate: false });
      return { ...db, close: async () => {} };
    },
    // The next process opening the embedded database is proof enough that the last one is gone.
    killSessions: async () => {},
  };
}

async function queueOn(database: Database, closeTimeoutMs = 1_000): Promise<JobQueue> {
  const jobs = await createJobQueue(database, {
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
    closeTimeoutMs,
  });
  cleanups.push(async () => {
    await jobs.close();
    await database.close();
  });
  return jobs;
}

async function until<T>(probe: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe(`job queue on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('runs a job sent to a queue with its data, and counts it', async () => {
    const db = await freshDatabase();
    const jobs = await queueOn(await db.open());
    const seen: { n: number }[] = [];
    await jobs.work<{ n: number }>('test.echo', async (data) => {
      seen.push(data);
    });
    expect(await jobs.send('test.echo', { n: 1 })).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => seen.length === 1);
    expect(seen).toEqual([{ n: 1 }]);
    await until(async () => (await jobs.stats()).find((q) => q.name === 'test.echo')?.active === 0);
    expect((await jobs.stats()).find((q) => q.name === 'test.echo')).toMatchObject({
      queued: 0,
      failed: 0,
      oldestQueuedSeconds: null,
    });
  });

  it('retries a failing job, then lists it as failed, and runs it again on retry', async () => {
    const db = await freshDatabase();
    const jobs = await queueOn(await db.open());
    let attempts = 0;
    let healthy = false;
    await jobs.work('test.flaky', async () => {
      attempts++;
      if (!healthy) throw new Error('mail server said no');
    });
    const id = await jobs.send('test.flaky', {}, { retryLimit: 2, retryDelaySeconds: 0 });
    await until(async () => (await jobs.stats()).find((q) => q.name === 'test.flaky')?.failed === 1);
    expect(attempts).toBe(3);
    const [failure] = await jobs.failures();
    expect(failure).toMatchObject({ id, name: 'test.flaky', error: 'mail server said no', attempts: 3 });

    healthy = true;
    expect(await jobs.retry('test.flaky')).toBe(1);
    await until(() => attempts === 4);
    await until(async () => (await jobs.failures()).length === 0);
    expect(await jobs.retry(id as string)).toBe(0);
  });

  it('keeps one job per singleton slot however many senders', async () => {
    const db = await freshDatabase();
    const jobs = await queueOn(await db.open());
    const ids = await Promise.all(
      [1, 2, 3].map(() => jobs.send('test.pass', {}, { singletonKey: 'pass', singletonSeconds: 600 })),
    );
    expect(ids.filter(Boolean)).toHaveLength(1);
  });

  it('waits for a queued job by its age in stats', async () => {
    const db = await freshDatabase();
    const jobs = await queueOn(await db.open());
    await jobs.send('test.idle', {});
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const idle = (await jobs.stats()).find((q) => q.name === 'test.idle');
    expect(idle?.queued).toBe(1);
    expect(idle?.oldestQueuedSeconds).toBeGreaterThanOrEqual(1);
  });

  it('hands a job still running at close back, and the next process runs it again', async () => {
    const db = await freshDatabase();
    const first = await queueOn(await db.open(), 500);
    let started = 0;
    await first.work('test.slow', async () => {
      started++;
      await new Promise((resolve) => setTimeout(resolve, 60_000));
    });
    // Handed back, not failed: it runs again at once, not after its retry delay.
    await first.send('test.slow', { file: 'a.jpg' }, { retryDelaySeconds: 600 });
    await until(() => started === 1);
    const closing = Date.now();
    await first.close();
    expect(Date.now() - closing).toBeLessThan(5_000);

    const second = await queueOn(await db.open());
    const seen: unknown[] = [];
    await second.work('test.slow', async (data) => {
      seen.push(data);
    });
    await until(() => seen.length === 1, 10_000);
    expect(seen).toEqual([{ file: 'a.jpg' }]);
  });

  /** The database as the queue sees it, slowing pg-boss's "done" and noting what is asked after close. */
  function watched(database: Database) {
    const seen = { closed: false, late: [] as string[] };
    const db: Database = {
      ...database,
      async execute(text, values) {
        if (seen.closed) seen.late.push(text.trim().slice(0, 60));
        // pg-boss marks a finished job done without waiting for it; a slow database shows the gap.
        if (text.includes("state = 'completed'")) await new Promise((resolve) => setTimeout(resolve, 1_500));
        return database.execute(text, values);
      },
    };
    return { db, seen };
  }

  async function finishingJob(jobs: JobQueue) {
    let finish = () => {};
    let started = false;
    await jobs.work('test.finishing', async () => {
      started = true;
      await new Promise<void>((resolve) => (finish = resolve));
    });
    const id = await jobs.send('test.finishing', {});
    await until(() => started);
    return { id, finish: () => finish() };
  }

  it('records a job that finished as close began as done before close returns', async () => {
    const database = await (await freshDatabase()).open();
    const { db, seen } = watched(database);
    const jobs = await queueOn(db, 5_000);
    const job = await finishingJob(jobs);
    const closing = jobs.close();
    job.finish();
    await closing;
    seen.closed = true;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(seen.late).toEqual([]);
    const { rows } = await database.execute('SELECT state FROM pgboss.job WHERE id = $1', [job.id]);
    expect(rows).toEqual([{ state: 'completed' }]);
  });

  it('asks nothing of the database for a job that outlives close: it was handed back', async () => {
    const database = await (await freshDatabase()).open();
    const { db, seen } = watched(database);
    const jobs = await queueOn(db, 500);
    const job = await finishingJob(jobs);
    await jobs.close();
    seen.closed = true;
    job.finish();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(seen.late).toEqual([]);
    const { rows } = await database.execute('SELECT state FROM pgboss.job WHERE id = $1', [job.id]);
    expect(rows).toEqual([{ state: 'retry' }]);
  });

  it('runs a job again whose process died while it ran', async () => {
    const db = await freshDatabase();
    // A process that died: its queue never closes, its job stays active.
    const deadDb = await db.open();
    const dead = await createJobQueue(deadDb, { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
    let started = 0;
    await dead.work('test.crash', async () => {
      started++;
      await new Promise(() => {});
    });
    await dead.send('test.crash', { photo: 1 }, { retryDelaySeconds: 0 });
    cleanups.push(() => dead.close());
    await until(() => started === 1);
    await db.killSessions();

    const next = await queueOn(await db.open());
    const seen: unknown[] = [];
    await next.work('test.crash', async (data) => {
      seen.push(data);
    });
    await until(() => seen.length === 1, 20_000);
    expect(seen).toEqual([{ photo: 1 }]);
  });
});
