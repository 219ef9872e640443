import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The job queue's own polling and upkeep (pg-boss, in its `pgboss` schema) runs on a timer in the
 * same process: it is not the work being counted, and counting it made the figure depend on when
 * its poll fell.
 */
function isJobQueueStatement(text: string) {
  return text.includes('pgboss.');
}

/** The text of a statement as PostgreSQL's wire protocol sends it: a Parse ('P') or a simple Query ('Q'). */
function statementIn(message: unknown): string | null {
  if (!(message instanceof Uint8Array) || message.length < 5) return null;
  const kind = String.fromCharCode(message[0] as number);
  if (kind !== 'P' && kind !== 'Q') return null;
  return Buffer.from(message.buffer, message.byteOffset + 5, message.byteLength - 5).toString('latin1');
}

/** Counts the SQL statements the app sends while `run` runs (PGlite or PostgreSQL, whichever this run uses). */
export async function countStatements(run: () => Promise<unknown>) {
  return (await statementsOf(run)).length;
}

/** The texts of the SQL statements the app sends while `run` runs, in order. */
export async function statementsOf(run: () => Promise<unknown>) {
  const texts: string[] = [];
  // Every PGlite statement, in or out of a transaction, reaches the engine as protocol messages
  // through execProtocolRaw (a statement opens with a Parse or a Query); every PostgreSQL one
  // passes through Client#query.
  const pglite = PGlite.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const client = pg.Client.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const originals = { raw: pglite.execProtocolRaw, query: client.query } as Record<
    string,
    (...a: unknown[]) => unknown
  >;
  pglite.execProtocolRaw = function (this: unknown, ...args: unknown[]) {
    const text = statementIn(args[0]);
    if (text !== null && !isJobQueueStatement(text)) texts.push(text);
    return originals.raw?.apply(this, args);
  };
  client.query = function (this: unknown, ...args: unknown[]) {
    const query = args[0];
    const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
    if (!(typeof text === 'string' && isJobQueueStatement(text))) texts.push(typeof text === 'string' ? text : '');
    return originals.query?.apply(this, args);
  };
  try {
    await run();
  } finally {
    pglite.execProtocolRaw = originals.raw as (...a: unknown[]) => unknown;
    client.query = originals.query as (...a: unknown[]) => unknown;
  }
  return texts;
}
