import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

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
      count += 1;
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
