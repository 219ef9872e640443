import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import { createApp, type App } from '../src/app.ts';
import { readConfig, type Config } from '../src/config.ts';
import type { DatabaseSource } from '../src/infra/db/database.ts';
import { markEmailVerified } from '../src/auth/verification.ts';

export const BASE = 'http://scoutbase.test';

/** A fresh, migrated database of the kind this run tests (PGlite, or PostgreSQL when TEST_DATABASE_URL is set). */
async function isolatedDatabase(): Promise<{ source: DatabaseSource; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `scoutbase_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    // Cloning needs the template to itself, so test files starting together take turns.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
        break;
      } catch (error) {
        if (attempt > 50 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      source: { kind: 'postgres', url: url.toString() },
      async drop() {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const snapshot = await readFile(inject('pgliteSnapshot'));
  const client = await PGlite.create({ loadDataDir: new Blob([snapshot]), extensions: { pg_trgm } });
  return { source: { kind: 'pglite', client }, drop: async () => {} };
}

/** This machine's PostgreSQL server, for the tests that need a real server rather than the run's database. */
export const postgresServerUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether that server answers; tests that need it are skipped where it does not run. */
export async function postgresReachable(): Promise<boolean> {
  const probe = new pg.Client({ connectionString: postgresServerUrl, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
    await probe.end();
    return true;
  } catch {
    return false;
  }
}

/** An empty database of its own on that server (the app under test migrates it when it starts). */
export async function scratchPostgresDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresServerUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgresServerUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * The database of `app` as a second app in the same test sees it: it may use it, but its close
 * leaves it open for `app`, which closes it last (a PostgreSQL URL is shared as it is).
 */
export function borrowedDatabase(app: { databaseSource: DatabaseSource }): DatabaseSource {
  const source = app.databaseSource;
  if (source.kind !== 'pglite') return source;
  const client = new Proxy(source.client, {
    get(target, property) {
      if (property === 'close') return async () => {};
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { kind: 'pglite', client };
}

export interface TestApp extends App {
  dataDir: string;
  /** The database this app runs on, so a second instance can share it (multi-instance tests). */
  databaseSource: DatabaseSource;
  /** Sends a request to the app as a browser at BASE would. */
  request(pathname: string, init?: RequestInit & { cookie?: string }): Promise<Response>;
}

export async function testApp(
  env: Record<string, string> = {},
  adjust: (config: Config) => Config = (c) => c,
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-data-'));
  const config = adjust({
    ...readConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      MIGRATE_ON_START: 'false',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      ...env,
    }),
  });
  // Tests sign many people up; the production cost of scrypt would only slow them down.
  config.auth.scryptCost = 2 ** 10;
  const database = await isolatedDatabase();
  const app = await createApp(
    { ...config, migrateOnStart: false },
    { database: database.source, logger: pino({ level: 'silent' }) },
  );
  return {
    ...app,
    dataDir,
    databaseSource: database.source,
    request: browserRequests(app),
    async close() {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Requests to `app` as a browser at BASE sends them. */
export function browserRequests(app: App): TestApp['request'] {
  return (pathname, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set('cookie', init.cookie);
    return app.fetch(new Request(new URL(pathname, BASE), { ...init, headers }));
  };
}

/** An operator's settings for a data folder (and a PostgreSQL database), quiet, for startedApp and the scripts. */
export function settingsFor(dataDir: string, databaseUrl?: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
}

/**
 * The app as `pnpm start` builds it from these settings, without listening: it opens (and migrates) the
 * database they name, so what it writes outlives it, unlike testApp's. Its `close` leaves the data folder.
 */
export async function startedApp(env: Record<string, string>) {
  const config = readConfig(env);
  config.auth.scryptCost = 2 ** 10;
  const app = await createApp(config, { logger: pino({ level: 'silent' }) });
  return { ...app, dataDir: config.dataDir, request: browserRequests(app) } as TestApp;
}

/** Sends `body` as JSON (a string as it is) with the person's cookie, as the web app's fetch calls do. */
export function sendBody(
  app: Pick<TestApp, 'request'>,
  cookie: string | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  return app.request(path, {
    method,
    cookie,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The same, with the answer's JSON (null for an empty answer). */
// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely and assert on them
export async function send<T = any>(
  app: Pick<TestApp, 'request'>,
  cookie: string | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await sendBody(app, cookie, method, path, body);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** A tiny cookie jar: enough to follow Auth.js's sign-in as a browser does. */
export class CookieJar {
  private cookies = new Map<string, string>();

  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  has(name: string) {
    return this.cookies.has(name);
  }
}

export interface Person {
  name: string;
  email: string;
  password: string;
}

let counter = 0;
export function person(overrides: Partial<Person> = {}): Person {
  counter += 1;
  return {
    name: `Crew Member${counter}`,
    email: `crew${counter}-${randomBytes(3).toString('hex')}@example.com`,
    password: 'correct horse battery',
    ...overrides,
  };
}

/** A random private address, for apps that trust one proxy to say where a request comes from. */
export const randomAddress = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;

/** Signs `who` up as if from the address `from` (X-Forwarded-For): the raw answer. */
export function signUpFrom(app: TestApp, from: string, who: Person = person()) {
  return app.request('/api/auth/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(who),
  });
}

/** Auth.js's CSRF token; `jar` keeps the cookie that comes with it. */
export async function csrfToken(app: TestApp, jar: CookieJar) {
  const response = await app.request('/api/auth/csrf', { cookie: jar.header });
  jar.store(response);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/**
 * Signs in with e-mail and password through Auth.js's credentials flow, as a script would; `headers`
 * go with the sign-in itself (a browser's User-Agent, a proxy's X-Forwarded-For).
 */
export async function signIn(
  app: TestApp,
  who: Pick<Person, 'email' | 'password'>,
  jar = new CookieJar(),
  headers: Record<string, string> = {},
) {
  const csrf = await csrfToken(app, jar);
  const response = await app.request('/api/auth/callback/credentials', {
    method: 'POST',
    cookie: jar.header,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ email: who.email, password: who.password, csrfToken: csrf }),
  });
  jar.store(response);
  return { jar, response };
}

/**
 * Signs a new person up and in; returns their cookie jar and profile. Their address is verified
 * (as if they had opened the e-mailed link) unless `verified: false`.
 */
export async function signedInUser(
  app: TestApp,
  overrides: Partial<Person> = {},
  options: { verified?: boolean } = {},
) {
  const who = person(overrides);
  const created = await app.request('/api/auth/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  if (created.status !== 202) throw new Error(`sign-up failed: ${created.status} ${await created.text()}`);
  if (options.verified !== false) {
    const db = app.services.db;
    const account = await db.user.findUniqueOrThrow({
      where: { email: ((await created.json()) as { email: string }).email },
      select: { id: true, email: true },
    });
    await db.$transaction((tx) => markEmailVerified(tx, account));
  }
  const { jar } = await signIn(app, who);
  const user = (await (await app.request('/api/auth/user', { cookie: jar.header })).json()) as {
    id: string;
    email: string;
  };
  return { ...who, ...user, jar, cookie: jar.header };
}

export type SignedInUser = Awaited<ReturnType<typeof signedInUser>>;

/** Someone with nothing particular about them, for appWithPeople. */
export const anyone: Partial<Person> = {};

/**
 * A test file's own app with one signed-in user per entry (how that person differs from anyone), signed up
 * one after the other so their ids and creation times come in the order given.
 */
export async function appWithPeople<const People extends readonly Partial<Person>[]>(...people: People) {
  const app = await testApp();
  const users: SignedInUser[] = [];
  for (const overrides of people) users.push(await signedInUser(app, overrides));
  return [app, ...users] as [TestApp, ...{ -readonly [K in keyof People]: SignedInUser }];
}

/** Runs a GraphQL operation with a session cookie. */
export async function graphql<T = Record<string, unknown>>(
  app: TestApp,
  cookie: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
) {
  const response = await app.request('/graphql', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  return { status: response.status, ...body };
}
