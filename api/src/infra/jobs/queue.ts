import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database, SqlExecutor } from '../db/database.ts';
import { isUuid } from '../../shared/ids.ts';

export interface SendOptions {
  /** At most one job with this key per queue while one waits (or, with singletonSeconds, per time slot). */
  singletonKey?: string;
  /** With singletonKey: one job per slot of this many seconds, across every instance. */
  singletonSeconds?: number;
  /** Retries after the first attempt (default 3). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Doubles the delay after each failed attempt (with jitter). */
  retryBackoff?: boolean;
  /** When to run it at the earliest: a time, or a delay in seconds. */
  startAfter?: Date | number;
  /** A running job taking longer than this is failed (and retried): its process is presumed dead. */
  timeoutSeconds?: number;
}

export interface QueueStats {
  name: string;
  queued: number;
  active: number;
  failed: number;
  /** How long the job waiting longest (due, not started) has waited; null when none waits. */
  oldestQueuedSeconds: number | null;
}

export interface FailedJob {
  id: string;
  name: string;
  error: string | null;
  attempts: number;
  failedAt: Date | null;
  data: unknown;
}

export interface JobQueue {
  /** Handlers must be idempotent: a job interrupted by a crash runs again after restart. */
  work<T extends object>(
    name: string,
    handler: (data: T) => Promise<void>,
    options?: { concurrency?: number },
  ): Promise<void>;
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  stats(): Promise<QueueStats[]>;
  /** Jobs that used up their retries, newest first. */
  failures(limit?: number): Promise<FailedJob[]>;
  /** Runs failed jobs again: every failed job of a queue, or one job by its id. Returns how many. */
  retry(queueOrId: string): Promise<number>;
  close(): Promise<void>;
}

export interface JobQueueOptions {
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** false: send, stats and retry only (the `pnpm jobs` tool): no workers, no maintenance. */
  workers?: boolean;
  /** How often idle workers look for new jobs (pg-boss polls; seconds, at least 0.5). */
  pollingIntervalSeconds?: number;
  /** How often expired jobs are failed and old ones archived, and dead instances' jobs released. */
  maintenanceIntervalSeconds?: number;
  /** How long close() lets running handlers finish before it releases their jobs. */
  closeTimeoutMs?: number;
}

const SCHEMA = 'pgboss';
const DEFAULT_RETRY_LIMIT = 3;
const DEFAULT_TIMEOUT_SECONDS = 5 * 60;
// Session advisory locks held by live instances (first key of the pair: this module's namespace).
const INSTANCE_LOCK_SPACE = "hashtext('scoutbase.jobs.instance')";

/**
 * The app's durable job queue: pg-boss, keeping its tables in the `pgboss` schema of the app's own
 * database (PostgreSQL or the embedded PGlite), which it creates and migrates itself at start
 * (Prisma's migrations and drift check cover `public` only).
 *
 * A job whose process died is run again: on the embedded database (one process at a time) at the
 * next start; on PostgreSQL as soon as any instance sees the session lock of the instance that
 * ran it released (each instance holds one for its life and writes its id on the jobs it starts),
 * and by pg-boss's timeout otherwise.
 */
export async function createJobQueue(database: Database, options: JobQueueOptions = {}): Promise<JobQueue> {
  const logger = options.logger;
  const workers = options.workers ?? true;
  const maintenanceIntervalSeconds = options.maintenanceIntervalSeconds ?? 10;
  const execute: SqlExecutor = database.execute;
  let closed = false;
  let handedBack = false;
  // After close the jobs are handed back, and pg-boss still records late outcomes without waiting
  // for them (even after stop), on a database its owner may have closed by then. Such a write is no
  // longer this process's to make: when it fails, like a handler that outlives close, it never
  // settles, and pg-boss, which does not wait for it, is none the wiser. Statements still run: a
  // message queued while the app closes must be queued (the mailer waits for it before the
  // database closes). Waiting for pg-boss's statements in close() instead hung on PostgreSQL.
  // The same holds when the database itself was closed for good under a queue not yet closed (an
  // app sharing another's database, closed in the wrong order); an outage, which ends, still throws.
  const bossSql = (text: string, values: unknown[]) =>
    execute(text, values).catch((err: unknown) => {
      if (handedBack || closedForGood(err)) return new Promise<never>(() => {});
      throw err;
    });
  const boss = new PgBoss({
    db: { executeSql: bossSql },
    schema: SCHEMA,
    migrate: true,
    supervise: workers,
    schedule: false,
    maintenanceIntervalSeconds,
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
    // Failed jobs stay listed (`pnpm jobs`) for a month; done ones for a day.
    archiveCompletedAfterSeconds: 24 * 60 * 60,
    archiveFailedAfterSeconds: 30 * 24 * 60 * 60,
  } as PgBoss.ConstructorOptions);
  boss.on('error', (err) => logger?.error({ err }, 'job queue error'));
  await boss.start();

  const instanceId = randomUUID();
  let instanceLock: Awaited<ReturnType<NonNullable<Database['connect']>>> | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
  let sweeping: Promise<void> | null = null;

  if (workers) {
    if (database.kind === 'pglite') {
      // One process opens the embedded database at a time: whatever is still active was left by a
      // process that is gone.
      await releaseActive(`state = 'active'`, [], 'the server stopped while this job ran');
    } else if (database.connect) {
      instanceLock = await database.connect();
      // A dropped lock connection (database restart) is logged; the instance's jobs then fall back
      // to the timeout. Without a listener the error would end the process.
      instanceLock.on('error', (err) => logger?.warn({ err }, 'job queue instance lock lost'));
      await instanceLock.query(`SELECT pg_advisory_lock(${INSTANCE_LOCK_SPACE}, hashtext($1))`, [instanceId]);
      await releaseDeadInstances();
      sweepTimer = setInterval(() => {
        if (sweeping) return;
        sweeping = releaseDeadInstances()
          .catch((err) => logger?.warn({ err }, 'job queue sweep failed'))
          .finally(() => {
            sweeping = null;
          });
      }, maintenanceIntervalSeconds * 1000);
      sweepTimer.unref();
    }
  }

  /** Fails (so retries, while retries remain) the active jobs a condition names. */
  async function releaseActive(where: string, values: unknown[], message: string) {
    const { rows } = await execute(`SELECT name, id FROM ${SCHEMA}.job WHERE ${where}`, values);
    for (const [name, ids] of groupByQueue(rows as { name: string; id: string }[])) {
      // pg-boss keeps this object as the job's output (its type says connection options).
      await boss.fail(name, ids, { message } as PgBoss.ConnectionOptions);
      // Interrupted, not failed: it runs again now rather than after its retry delay.
      await execute(
        `UPDATE ${SCHEMA}.job SET start_after = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'retry'`,
        [name, ids],
      );
      logger?.warn({ queue: name, jobs: ids.length }, 'released jobs left running by a stopped process');
    }
  }

  async function releaseDeadInstances() {
    if (!instanceLock) return;
    const { rows } = await execute(
      `SELECT DISTINCT output->>'instance' AS instance FROM ${SCHEMA}.job
        WHERE state = 'active' AND output ? 'instance' AND output->>'instance' <> $1`,
      [instanceId],
    );
    for (const { instance } of rows as { instance: string }[]) {
      // Granted only when no live session holds it: that instance is gone.
      const probe = await instanceLock.query<{ free: boolean }>(
        `SELECT pg_try_advisory_lock(${INSTANCE_LOCK_SPACE}, hashtext($1)) AS free`,
        [instance],
      );
      if (!probe.rows[0]?.free) continue;
      await instanceLock.query(`SELECT pg_advisory_unlock(${INSTANCE_LOCK_SPACE}, hashtext($1))`, [instance]);
      await releaseActive(
        `state = 'active' AND output->>'instance' = $1`,
        [instance],
        'the server running this job stopped',
      );
    }
  }

  const localWorkers = new Map<string, string[]>();
  // Jobs this process is running, by id: what close() hands back.
  const inFlight = new Map<string, { name: string; id: string }>();
  const known = new Map<string, Promise<void>>();
  function ensureQueue(name: string): Promise<void> {
    let ready = known.get(name);
    if (!ready) {
      ready = createQueue(name);
      known.set(name, ready);
      ready.catch(() => known.delete(name));
    }
    return ready;
  }

  async function createQueue(name: string) {
    if (!database.connect) {
      await boss.createQueue(name, { name, policy: 'standard' } as PgBoss.Queue);
      return;
    }
    // pg-boss's create_queue makes a partition per queue: two instances creating one queue at
    // once deadlock on PostgreSQL, so they take turns.
    const client = await database.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock(hashtext('scoutbase.jobs.create-queue'))");
      await client.query(`SELECT ${SCHEMA}.create_queue($1, $2::json)`, [name, JSON.stringify({ policy: 'standard' })]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  return {
    async work<T extends object>(
      name: string,
      handler: (data: T) => Promise<void>,
      workOptions: { concurrency?: number } = {},
    ) {
      await ensureQueue(name);
      const concurrency = Math.max(1, workOptions.concurrency ?? 1);
      // pg-boss runs one batch per worker at a time: N workers of one job each run N jobs at once.
      for (let i = 0; i < concurrency; i++) {
        let self = '';
        const id = await boss.work<T>(name, { batchSize: 1 }, async ([job]) => {
          if (!job) return;
          inFlight.set(job.id, { name, id: job.id });
          let failure: { err: unknown } | undefined;
          try {
            if (instanceLock) {
              await execute(
                `UPDATE ${SCHEMA}.job SET output = jsonb_build_object('instance', $3::text)
                  WHERE name = $1 AND id = $2 AND state = 'active'`,
                [name, job.id, instanceId],
              );
            }
            await handler(job.data);
          } catch (err) {
            failure = { err };
          } finally {
            inFlight.delete(job.id);
            // A worker that just finished looks for the next job at once: pg-boss would otherwise
            // wait out the rest of its polling interval after every job shorter than it, which
            // held a backlog of thumbnails to about one photo per second per worker.
            boss.notifyWorker(self);
          }
          // Outlived close: the job was handed back, and its outcome is no longer this process's to
          // record. Settling would have pg-boss mark it done or failed on a database that is closed
          // by now (it does not wait for that write), so this never settles.
          if (handedBack) return new Promise<never>(() => {});
          if (failure) {
            logger?.warn({ err: failure.err, queue: name, job: job.id }, 'job failed');
            throw failure.err;
          }
        });
        self = id;
        localWorkers.set(name, [...(localWorkers.get(name) ?? []), id]);
      }
    },

    async send<T extends object>(name: string, data: T, sendOptions: SendOptions = {}) {
      await ensureQueue(name);
      const startAfter = sendOptions.startAfter;
      const id = await boss.send(name, data, {
        retryLimit: sendOptions.retryLimit ?? DEFAULT_RETRY_LIMIT,
        retryDelay: sendOptions.retryDelaySeconds ?? 5,
        retryBackoff: sendOptions.retryBackoff ?? false,
        expireInSeconds: sendOptions.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
        ...(sendOptions.singletonKey !== undefined && { singletonKey: sendOptions.singletonKey }),
        ...(sendOptions.singletonSeconds !== undefined && { singletonSeconds: sendOptions.singletonSeconds }),
        ...(startAfter !== undefined && { startAfter }),
      });
      // This instance's idle workers of the queue look now rather than at their next poll.
      if (id && startAfter === undefined) for (const worker of localWorkers.get(name) ?? []) boss.notifyWorker(worker);
      return id;
    },

    async stats() {
      const { rows } = await execute(
        `SELECT q.name,
                count(j.id) FILTER (WHERE j.state IN ('created', 'retry'))::int AS queued,
                count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
                count(j.id) FILTER (WHERE j.state = 'failed')::int AS failed,
                extract(epoch FROM now() - min(j.start_after) FILTER (
                  WHERE j.state IN ('created', 'retry') AND j.start_after <= now()))::float8 AS oldest
           FROM ${SCHEMA}.queue q LEFT JOIN ${SCHEMA}.job j ON j.name = q.name
          GROUP BY q.name ORDER BY q.name`,
        [],
      );
      return (rows as { name: string; queued: number; active: number; failed: number; oldest: number | null }[]).map(
        (r) => ({
          name: r.name,
          queued: Number(r.queued),
          active: Number(r.active),
          failed: Number(r.failed),
          oldestQueuedSeconds: r.oldest === null ? null : Math.max(0, Math.round(Number(r.oldest))),
        }),
      );
    },

    async failures(limit = 50) {
      const { rows } = await execute(
        `SELECT id, name, output, retry_count, completed_on, data FROM ${SCHEMA}.job
          WHERE state = 'failed' ORDER BY completed_on DESC NULLS LAST LIMIT $1`,
        [limit],
      );
      return (
        rows as {
          id: string;
          name: string;
          output: { message?: string; value?: { message?: string } } | null;
          retry_count: number;
          completed_on: Date | null;
          data: unknown;
        }[]
      ).map((r) => ({
        id: r.id,
        name: r.name,
        error: r.output?.message ?? r.output?.value?.message ?? (r.output ? JSON.stringify(r.output) : null),
        attempts: Number(r.retry_count) + 1,
        failedAt: r.completed_on ? new Date(r.completed_on) : null,
        data: r.data,
      }));
    },

    async retry(queueOrId) {
      const { rows } = await execute(
        isUuid(queueOrId)
          ? `SELECT name, id FROM ${SCHEMA}.job WHERE state = 'failed' AND id = $1::uuid`
          : `SELECT name, id FROM ${SCHEMA}.job WHERE state = 'failed' AND name = $1`,
        [queueOrId],
      );
      const ids = (rows as { name: string; id: string }[]).map((r) => r.id);
      const name = (rows[0] as { name?: string } | undefined)?.name;
      if (!name || ids.length === 0) return 0;
      await boss.retry(name, ids);
      return ids.length;
    },

    async close() {
      if (closed) return;
      closed = true;
      if (sweepTimer) clearInterval(sweepTimer);
      await sweeping;
      // Stops fetching, waits for running handlers up to the timeout, then fails (so retries) the
      // jobs still running, for another instance or the next start to pick up.
      await boss.stop({ graceful: true, wait: true, close: false, timeout: options.closeTimeoutMs ?? 3_000 });
      handedBack = true;
      // Handed back, not failed: the next instance runs them now, not after their retry delay.
      for (const [name, ids] of groupByQueue([...inFlight.values()])) {
        await execute(
          `UPDATE ${SCHEMA}.job SET start_after = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'retry'`,
          [name, ids],
        ).catch((err) => logger?.warn({ err }, 'could not hand running jobs back at once'));
      }
      if (instanceLock) {
        // Released only now: until the jobs are handed back, another instance must not take them.
        instanceLock.release(true);
        instanceLock = null;
      }
    },
  };
}

/** PGlite's and node-postgres's words for a database handle closed on purpose, which never reopens. */
function closedForGood(err: unknown) {
  const message = err instanceof Error ? err.message : '';
  return message === 'PGlite is closed' || message === 'Cannot use a pool after calling end on the pool';
}

function groupByQueue(jobs: { name: string; id: string }[]): Map<string, string[]> {
  const byQueue = new Map<string, string[]>();
  for (const job of jobs) byQueue.set(job.name, [...(byQueue.get(job.name) ?? []), job.id]);
  return byQueue;
}
