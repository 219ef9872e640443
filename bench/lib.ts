// Pieces the benchmarks share: a throw-away PostgreSQL database, the real server in this process,
// a signed-in user, percentiles, and recording each run's figures in bench/history/<bench>.jsonl.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../api/src/app.ts';
import { readConfig } from '../api/src/config.ts';
import type { Db } from '../api/src/infra/db/database.ts';
import { attachSubscriptions } from '../api/src/live/websocket.ts';
import { appendRun } from './scripts/history.mjs';

// Packages resolve from the api workspace, where they are installed.
export const requireApi = createRequire(new URL('../api/package.json', import.meta.url));
const pino = requireApi('pino') as typeof import('pino').default;
const { serve } = requireApi('@hono/node-server') as typeof import('@hono/node-server');
export const pg = requireApi('pg') as typeof import('pg');

export const here = path.dirname(fileURLToPath(import.meta.url));
export const n = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function percentile(values: number[], p: number) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * The machine's CPU time so far, all of it and the part a virtual machine's host gave to other
 * guests ("steal", from Linux's /proc/stat); null elsewhere.
 */
function cpuTime() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]?.trim().split(/\s+/) ?? [];
    const ticks = fields.map(Number);
    return { all: ticks.reduce((sum, t) => sum + t, 0), stolen: ticks[7] ?? 0 };
  } catch {
    return null;
  }
}
const cpuAtStart = cpuTime();

/**
 * The share of the machine's CPU time its host gave to other guests since this bench started: on a
 * shared virtual machine the same code runs slower when it is high, so it goes with the figures.
 */
export function stolenPercent() {
  const now = cpuTime();
  if (!cpuAtStart || !now || now.all === cpuAtStart.all) return undefined;
  return round((100 * (now.stolen - cpuAtStart.stolen)) / (now.all - cpuAtStart.all), 1);
}

export function machine(database?: string) {
  return {
    cpus: cpus().length,
    load: round(loadavg()[0] ?? 0),
    stolenPercent: stolenPercent(),
    node: process.version,
    ...(database ? { database } : {}),
    notes:
      'Shared 2-core machine: other engineers were building and testing on it during the run, so absolute figures are noisy; compare the ratios taken in the same run.',
  };
}

/** A fresh PostgreSQL database for one run, dropped afterwards. */
export async function throwawayPostgres(label: string) {
  const name = `scoutbase_bench_${label}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  // BENCH_LOG_SQL=1 logs every statement with its duration to the PostgreSQL server log.
  if (process.env.BENCH_LOG_SQL === '1') await admin.query(`ALTER DATABASE ${name} SET log_min_duration_statement = 0`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

interface ServerOptions {
  databaseUrl?: string;
  webDistDir?: string;
  subscriptions?: boolean;
  rateLimits?: boolean;
  /** More settings, as the environment would give them (S3_BUCKET…). */
  env?: Record<string, string>;
}

/** The real app on a loopback port in this process (production mode, logs off; rate limits off unless asked for). */
export async function startServer(options: ServerOptions = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-bench-'));
  const config = readConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    STORAGE_QUOTA: '1TB',
    RATE_LIMITS: String(options.rateLimits ?? false),
    DUE_REMINDER_INTERVAL_SECONDS: '0',
    WEB_DIST_DIR: options.webDistDir ?? path.join(dataDir, 'no-web'),
    DATABASE_URL: options.databaseUrl,
    ...options.env,
  });
  const app = await createApp(config, { logger: pino({ level: 'silent' }) });
  const server = serve({ fetch: (req, env) => app.fetch(req, env as never), port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const subscriptions = options.subscriptions ? attachSubscriptions(server, app) : null;
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app,
    origin,
    db: app.services.db,
    async close() {
      await subscriptions?.close();
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** startServer on a throw-away PostgreSQL database (at `databaseUrl`), which close() drops after the server. */
export async function serverOnPostgres(label: string, options: Omit<ServerOptions, 'databaseUrl'> = {}) {
  const database = await throwawayPostgres(label);
  const server = await startServer({ ...options, databaseUrl: database.url });
  return {
    ...server,
    databaseUrl: database.url,
    async close() {
      await server.close();
      await database.drop();
    },
  };
}

/** Signs a new person up and in as a browser would; returns their cookie header and id. */
export async function signUp(origin: string, db: Pick<Db, 'user'>, name = 'Bench Runner') {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const email = `bench-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  const signup = await fetch(`${origin}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, password }),
  });
  if (!signup.ok) throw new Error(`sign-up refused: ${signup.status} ${await signup.text()}`);
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  keep(
    await fetch(`${origin}/api/auth/callback/credentials`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() },
      body: new URLSearchParams({ email, password, csrfToken }),
    }),
  );
  const user = await db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  return { cookie: cookie(), cookies, userId: user.id, email };
}

/** Times one call of `work`; returns its milliseconds and what it returned. */
export async function timed<T>(work: () => Promise<T>) {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

/** Times `work` `count` times one after another; returns the milliseconds of each. */
export async function timeEach(count: number, work: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await work(i);
    times.push(performance.now() - started);
  }
  return times;
}

/** A photo-sized JPEG of one colour, made with sharp (a dependency of the API). */
export function solidJpeg(
  width: number,
  height: number,
  background: { r: number; g: number; b: number },
  quality: number,
) {
  const sharp = requireApi('sharp') as typeof import('sharp');
  return sharp({ create: { width, height, channels: 3, background } })
    .jpeg({ quality })
    .toBuffer();
}

/** The median and the 99th percentile of `times`, rounded, under the names results give them. */
export function p50p99(times: number[]) {
  return { p50Ms: round(percentile(times, 50)), p99Ms: round(percentile(times, 99)) };
}

export function summary(times: number[]) {
  return {
    samples: times.length,
    p50Ms: round(percentile(times, 50)),
    p95Ms: round(percentile(times, 95)),
    p99Ms: round(percentile(times, 99)),
  };
}

/** Records this run's figures as one more line of bench/history/<name>.jsonl (scripts/history.mjs). */
export async function saveResults(name: string, results: { date: string }) {
  const out = appendRun(name, results);
  const stolen = stolenPercent();
  const host = stolen === undefined ? '' : `CPU time the host gave to other guests during this run: ${stolen} %\n`;
  console.log(`\n${host}Saved ${path.relative(process.cwd(), out)}`);
}

/** The web app's persisted operations: text by id. */
const persistedOperations = () =>
  JSON.parse(readFileSync(path.join(here, '../web/persisted-operations.json'), 'utf8')) as Record<string, string>;

/** The id of the web app's persisted operation whose text starts with `start`. */
export function persistedOperation(start: string) {
  const found = Object.entries(persistedOperations()).find(([, text]) => text.startsWith(start));
  if (!found) throw new Error(`no persisted operation starts with ${start}: run pnpm generate`);
  return found[0];
}

export const persistedOperationText = (id: string) => persistedOperations()[id] ?? '';

/** What a profile is driven through: node's inspector session here, or a page's CDP session. */
interface ProfilerSession {
  send(method: string, params?: object): Promise<unknown>;
  close(): Promise<void> | void;
}

/** The inspector of this thread (where the app runs). */
function thisThread(): ProfilerSession {
  const session = new Session();
  session.connect();
  return {
    send: (method, params) => session.post(method, params),
    close: () => session.disconnect(),
  };
}

/**
 * With BENCH_PROFILE=<dir>, a CPU profile for one measured run: of this thread (where the app runs),
 * or of whatever `session` drives (a Chromium page's CDP session), sampled every `intervalUs` when given.
 */
export async function startProfile(
  session: () => ProfilerSession | Promise<ProfilerSession> = thisThread,
  intervalUs?: number,
) {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return null;
  const driven = await session();
  await driven.send('Profiler.enable');
  if (intervalUs) await driven.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await driven.send('Profiler.start');
  return {
    async save(title: string) {
      const { profile } = (await driven.send('Profiler.stop')) as { profile: object };
      const file = `${dir}/${title.replace(/\W+/g, '-')}${Date.now()}.cpuprofile`;
      await writeFile(file, JSON.stringify(profile));
      await driven.close();
      console.log(`CPU profile: ${file}`);
    },
  };
}
