import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Logger } from 'pino';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../../generated/prisma/client.ts';
import type { DatabaseConfig } from '../../config.ts';
import { applyMigrations } from './migrations.ts';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * Hand-written SQL on the connections Prisma uses. Each Prisma call costs about 0.4 ms of CPU
 * before and after its SQL (bench/api.ts), more than the SQL of a session lookup; the few reads
 * on every request's path use this instead. Rows come back as the driver parses them: cast
 * counts to int, and read Prisma's UTC timestamps `AT TIME ZONE 'UTC'` so they parse as instants.
 */
export type Sql = <Row>(text: string, values: unknown[]) => Promise<Row[]>;

export type Db = PrismaClient & { $sql: Sql };

/**
 * Raw SQL for infrastructure that brings its own statements (the job queue): a script of several
 * statements when no values are given, the rows of its last statement.
 */
export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  prisma: Db;
  /** Which engine: the embedded one has a single connection (no second session, no session locks). */
  kind: 'postgres' | 'pglite';
  execute: SqlExecutor;
  /** PostgreSQL only: a connection of its own, outside the pool (a session lock held for the process). */
  connect?: () => Promise<pg.PoolClient>;
  /** The embedded database's own client (backups dump its data directory); absent on PostgreSQL. */
  pglite?: PGlite;
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** The PostgreSQL pool's figures (metrics); none for the embedded database. */
  poolStats(): { totalCount: number; idleCount: number; waitingCount: number } | undefined;
  close(): Promise<void>;
}

export type DatabaseSource = DatabaseConfig | { kind: 'pglite'; client: PGlite };

export async function openDatabase(
  source: DatabaseSource,
  options: { migrate: boolean; logger?: Pick<Logger, 'error'> },
): Promise<Database> {
  let adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  let closeDriver = async () => {};
  let poolStats: Database['poolStats'] = () => undefined;
  let sql: Sql;
  let execute: SqlExecutor;
  let connect: Database['connect'];
  let pglite: PGlite | undefined;
  if (source.kind === 'postgres') {
    // Our own pool, so close() really ends its connections (Prisma's disconnect leaves them idle).
    // JIT off: our statements are short, and PostgreSQL's cost guess for the file search on a large
    // library turned JIT on, which spent about half of a 500 ms search compiling (bench/search.ts).
    const pool = new pg.Pool({
      connectionString: source.url,
      max: 10,
      options: '-c jit=off',
      // While the database is away a request fails within seconds (503) instead of waiting for ever.
      connectionTimeoutMillis: 5_000,
      query_timeout: 60_000,
    });
    // An idle connection the server dropped (restart, failover) is reported here; without a
    // listener it would crash the process. The pool opens a new one for the next query.
    pool.on('error', (error) => options.logger?.error({ err: error }, 'a database connection was lost'));
    // The adapter hands the name to pg as is; undefined is pg's unnamed statement (its types say string).
    adapterFactory = new PrismaPg(pool, {
      statementNameGenerator: ((query: { sql: string }) => preparedStatementName(query)) as (query: {
        sql: string;
      }) => string,
    });
    closeDriver = () => pool.end();
    poolStats = () => ({ totalCount: pool.totalCount, idleCount: pool.idleCount, waitingCount: pool.waitingCount });
    execute = async (text, values) => {
      const result = (await pool.query(text, values?.length ? values : undefined)) as unknown as
        | pg.QueryResult
        | pg.QueryResult[];
      return { rows: (Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows) as Record<string, unknown>[] };
    };
    connect = () => pool.connect();
    sql = async <Row>(text: string, values: unknown[]) =>
      (await pool.query({ name: preparedStatementName({ sql: text }, true), text, values })).rows as Row[];
  } else {
    let client: PGlite;
    let release = async () => {};
    if (source.kind === 'embedded') {
      // Before PGlite touches the folder: a second process must not open it at all.
      const lock = await lockDataDir(source.dataDir);
      release = () => lock.release();
      try {
        await mkdir(source.dataDir, { recursive: true });
        client = await PGlite.create(source.dataDir, { extensions: { pg_trgm } });
      } catch (error) {
        await release();
        throw error;
      }
    } else {
      client = source.client;
    }
    pglite = client;
    adapterFactory = new PrismaPGlite(client);
    sql = async <Row>(text: string, values: unknown[]) => (await client.query<Row>(text, values)).rows;
    // PGlite's query() prepares one statement; a script of several runs through exec().
    const embedded = client;
    execute = async (text, values) =>
      values?.length
        ? { rows: (await embedded.query<Record<string, unknown>>(text, values)).rows }
        : { rows: ((await embedded.exec(text)).at(-1)?.rows ?? []) as Record<string, unknown>[] };
    // prisma.$disconnect() leaves PGlite open, and an open file-backed PGlite keeps Node alive.
    closeDriver = async () => {
      try {
        await client.close();
      } finally {
        await release();
      }
    };
  }
  if (options.migrate) {
    try {
      if (source.kind === 'postgres') {
        // The migration engine holds PostgreSQL's session-level advisory lock on its connection
        // and leaves it there: in the app's pool that lock lived as long as the server, and the
        // next instance started with MIGRATE_ON_START waited on it until its start timed out. A
        // connection of its own, ended after, lets the lock go with it.
        const once = new pg.Pool({ connectionString: source.url, max: 1, connectionTimeoutMillis: 5_000 });
        try {
          await applyMigrations(new PrismaPg(once));
        } finally {
          await once.end();
        }
      } else {
        await applyMigrations(adapterFactory);
      }
    } catch (error) {
      await closeDriver().catch(() => {});
      throw error;
    }
  }
  const prisma = withoutEmptySelects(new PrismaClient({ adapter: adapterFactory }), sql);
  return {
    prisma,
    pglite,
    adapterFactory,
    kind: source.kind === 'postgres' ? 'postgres' : 'pglite',
    execute,
    connect,
    poolStats,
    async close() {
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}

// Prisma sends every statement unnamed, so PostgreSQL parses and plans it on every call: for the
// gallery list's statement (lateral joins for cover, photo count and access) planning took longer
// than running it, and a named statement ran in a third of the time (bench/api.ts). Named, each
// connection parses a statement once and PostgreSQL may keep a generic plan for it (as Prisma's
// former Rust engine did with its statement cache). Only Prisma's own statements (they name their
// tables "public"."…"): the app's raw SQL (the file search) depends on its parameters' values to be
// planned well; the few texts of `$sql` are named too. The names are bounded, since each one stays
// prepared on every connection that ran it.
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 1_000;

function preparedStatementName(query: { sql: string }, always = false): string | undefined {
  const known = statementNames.get(query.sql);
  if (known !== undefined || statementNames.size >= MAX_STATEMENT_NAMES) return known;
  if (!always && !query.sql.includes('"public".')) return undefined;
  const name = `prisma_${statementNames.size}`;
  statementNames.set(query.sql, name);
  return name;
}

/**
 * A GraphQL selection of only `__typename` hands Prisma `select: {}`, which it rejects. An empty
 * selection means "nothing in particular": read the row's scalars instead (nested: `relation: true`).
 */
function normalizeSelect(args: Record<string, unknown>): Record<string, unknown> {
  const select = args.select as Record<string, unknown> | undefined;
  if (!select || typeof select !== 'object') return args;
  if (Object.keys(select).length === 0) {
    const { select: _empty, ...rest } = args;
    return rest;
  }
  const next: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(select)) {
    if (value && typeof value === 'object' && 'select' in value) {
      const inner = normalizeSelect(value as Record<string, unknown>);
      next[key] = Object.keys(inner).length === 0 ? true : inner;
    } else next[key] = value;
  }
  return { ...args, select: next };
}

/** Whether an empty select hides anywhere in the arguments (checked without allocating). */
function hasEmptySelect(args: Record<string, unknown>): boolean {
  const select = args.select;
  if (!select || typeof select !== 'object') return false;
  let empty = true;
  for (const key in select) {
    empty = false;
    const value = (select as Record<string, unknown>)[key];
    if (value && typeof value === 'object' && 'select' in value && hasEmptySelect(value as Record<string, unknown>))
      return true;
  }
  return empty;
}

/**
 * The client with empty selects normalized on the way in. A Proxy, not `$extends`: any client
 * extension makes Prisma walk every result row to apply result extensions, which cost about a fifth
 * of the CPU of a list query (bench/api.ts).
 */
function withoutEmptySelects<T extends object>(client: T, sql?: Sql): T & { $sql: Sql } {
  const wrapped = new Map<PropertyKey, unknown>(sql ? [['$sql', sql]] : []);
  return new Proxy(client, {
    get(target, key) {
      if (wrapped.has(key)) return wrapped.get(key);
      const value: unknown = Reflect.get(target, key, target);
      let result = value;
      if (key === '$transaction' && typeof value === 'function') {
        // An interactive transaction hands its callback another client: it gets the same treatment.
        result = (first: unknown, ...rest: unknown[]) =>
          value.call(
            target,
            typeof first === 'function' ? (tx: object) => first(withoutEmptySelects(tx)) : first,
            ...rest,
          );
      } else if (typeof value === 'function') {
        result = value.bind(target);
      } else if (typeof key === 'string' && !key.startsWith('$') && isModelDelegate(value)) {
        result = modelWithoutEmptySelects(value);
      } else {
        return value;
      }
      wrapped.set(key, result);
      return result;
    },
  }) as T & { $sql: Sql };
}

function isModelDelegate(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { findMany?: unknown }).findMany === 'function'
  );
}

function modelWithoutEmptySelects(delegate: Record<string, unknown>) {
  const operations = new Map<PropertyKey, unknown>();
  return new Proxy(delegate, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let operation = operations.get(key);
      if (!operation) {
        operation = (args: unknown, ...rest: unknown[]) =>
          value.call(
            target,
            args && typeof args === 'object' && hasEmptySelect(args as Record<string, unknown>)
              ? normalizeSelect(args as Record<string, unknown>)
              : args,
            ...rest,
          );
        operations.set(key, operation);
      }
      return operation;
    },
  });
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  // PostgreSQL: shutting down, crash recovery, cannot connect now, connection failures.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  // Prisma: cannot reach the server, connection closed, pool timeout.
  'P1001',
  'P1002',
  'P1017',
  'P2024',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Can't reach database|Server has closed the connection|Connection (is )?closed|connection error|ECONNREFUSED|ECONNRESET|DatabaseNotReachable|socket hang up|Query read timeout/i;

/** Whether a failure means the database cannot be reached (answer 503), not that a query is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 6;
    depth++
  ) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    const kind = (e as { kind?: unknown }).kind;
    if (kind === 'DatabaseNotReachable' || kind === 'ConnectionClosed' || kind === 'SocketTimeout') return true;
    e = e.cause as typeof e;
  }
  return false;
}
