import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The job queue's own polling and upkeep (pg-boss, in its `pgboss` schema) runs on a timer in the
 * same process: it is not the work being counted, and counting it made the figure depend on when
 * its poll fell.
 */
function isJobQueueStatement(query: unknown) {
  const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' && text.includes('pgboss.');
}

/** Counts the SQL statements the app sends while `run` runs (PGlite or PostgreSQL, whichever this run uses). */
export async function countStatements(run: () => Promise<unknown>) {
  let count = 0;
  // Every PGlite statement, in or out of a transaction, passes through _runExclusiveQuery; every
  // PostgreSQL one through Client#query.
  const targets = [
    [PGlite.prototype, '_runExclusiveQuery'],
    [pg.Client.prototype, 'query'],
  ] as unknown as [Record<string, (...a: unknown[]) => unknown>, string][];
  const originals = targets.map(([proto, name]) => proto[name] as (...a: unknown[]) => unknown);
  targets.forEach(([proto, name], i) => {
    const original = originals[i] as (...a: unknown[]) => unknown;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      if (!isJobQueueStatement(args[0])) count += 1;
      return original.apply(this, args);
    };
  });
  try {
    await run();
  } finally {
    targets.forEach(([proto, name], i) => {
      proto[name] = originals[i] as (...a: unknown[]) => unknown;
    });
  }
  return count;
}
