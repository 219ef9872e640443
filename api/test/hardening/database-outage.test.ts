import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { scratchPostgresDatabase, TestApp } from '../harness.ts';
import { person, postgresReachable, settingsFor, signIn, startedApp } from '../harness.ts';
import { databaseBehindProxy, type tcpProxy } from '../tcp-proxy.ts';

// The PostgreSQL server of this machine, reached through a proxy the test cuts: the app sees the
// database go away under load and come back, without a restart.
const reachable = await postgresReachable();

let database: Awaited<ReturnType<typeof scratchPostgresDatabase>>;
let proxy: Awaited<ReturnType<typeof tcpProxy>>;
let app: TestApp;
let dataDir: string;

beforeAll(async () => {
  if (!reachable) return;
  let url: string;
  ({ database, proxy, url } = await databaseBehindProxy('scoutbase_outage'));
  dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-outage-'));
  app = await startedApp({ ...settingsFor(dataDir, url), AUTH_SECRET: randomBytes(32).toString('hex') });
}, 60_000);

afterAll(async () => {
  if (!reachable) return;
  proxy.restore();
  await app?.close();
  await proxy?.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

function withDeadline<T>(work: Promise<T>, ms: number) {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref()),
  ]);
}

it.skipIf(!reachable)(
  'answers 503 with a message while the database is away, works again when it returns, and leaves no half-written records',
  async () => {
    const who = person();
    const signup = await app.request('/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(who),
    });
    expect(signup.status).toBe(202);
    const { jar } = await signIn(app as unknown as TestApp, who);
    const cookie = jar.header;

    let phase: 'before' | 'outage' | 'after' = 'before';
    let running = true;
    const seen: { phase: string; status: number; message?: string }[] = [];
    let counter = 0;
    const worker = async () => {
      while (running) {
        const at = phase;
        const response = await withDeadline(
          app.request('/api/galleries', {
            method: 'POST',
            cookie,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Recce ${++counter}` }),
          }),
          15_000,
        );
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        seen.push({ phase: at, status: response.status, message: body.message });
        if (phase === 'outage') await new Promise((r) => setTimeout(r, 50));
      }
    };
    // Phases end on what was seen, not on a clock, so a slow machine only makes the test longer.
    const until = async (done: () => boolean, what: string) => {
      const deadline = Date.now() + 60_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`waited 60 s for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const count = (p: string, status: number) => seen.filter((s) => s.phase === p && s.status === status).length;
    const workers = Array.from({ length: 6 }, worker);
    await until(() => count('before', 201) >= 6, 'requests to succeed before the outage');
    phase = 'outage';
    proxy.cut();
    await until(() => count('outage', 503) >= 6, 'requests to be refused during the outage');
    proxy.restore();
    phase = 'after';
    await until(() => count('after', 201) >= 12, 'requests to succeed after the outage');
    running = false;
    await Promise.all(workers);

    const statuses = new Set(seen.map((s) => s.status));
    expect([...statuses].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(seen.some((s) => s.phase === 'before' && s.status === 201)).toBe(true);
    const refused = seen.filter((s) => s.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused)
      expect(r.message).toBe('The database is not reachable right now. Please try again in a moment.');
    // Back without a restart: the last requests all went through.
    const last = seen.filter((s) => s.phase === 'after').slice(-6);
    expect(last.length).toBeGreaterThan(0);
    expect(last.every((s) => s.status === 201)).toBe(true);
    expect((await app.request('/api/auth/user', { cookie })).status).toBe(200);

    // A gallery and its activity row are written together or not at all.
    const user = (await (await app.request('/api/auth/user', { cookie })).json()) as { id: string };
    const check = new pg.Client({ connectionString: database.url });
    await check.connect();
    const galleries = await check.query('SELECT count(*)::int AS n FROM "Gallery" WHERE "ownerId" = $1', [user.id]);
    const activities = await check.query(
      `SELECT count(*)::int AS n FROM "Activity" WHERE "userId" = $1 AND action = 'gallery_created'`,
      [user.id],
    );
    await check.end();
    expect(galleries.rows[0].n).toBe(activities.rows[0].n);
    expect(galleries.rows[0].n).toBeGreaterThanOrEqual(seen.filter((s) => s.status === 201).length);
  },
  240_000,
);
