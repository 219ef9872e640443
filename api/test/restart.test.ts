import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { BASE, person, signIn, type TestApp } from './harness.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-restart-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

// The embedded database on disk, as `pnpm start` uses it: migrated at start, kept across restarts.
async function start() {
  const config = readConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'none'),
  });
  config.auth.scryptCost = 2 ** 10;
  const app = await createApp(config, { logger: pino({ level: 'silent' }) });
  const request = (pathname: string, init: RequestInit & { cookie?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set('cookie', init.cookie);
    return app.fetch(new Request(new URL(pathname, BASE), { ...init, headers }));
  };
  return { ...app, dataDir, request } as TestApp;
}

it('keeps accounts and sessions across a restart of the embedded database', async () => {
  const who = person();
  const first = await start();
  expect(first.config.database.kind).toBe('embedded');
  const created = await first.request('/api/auth/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  expect(created.status).toBe(201);
  const { jar } = await signIn(first, who);
  await first.close();

  const second = await start();
  try {
    // The same session cookie still works: the secret and the session row both survived.
    expect((await second.request('/api/auth/user', { cookie: jar.header })).status).toBe(200);
    const again = await signIn(second, who);
    const user = await second.request('/api/auth/user', { cookie: again.jar.header });
    expect(await user.json()).toMatchObject({ email: who.email });
  } finally {
    await second.close();
  }
}, 120_000); // a file-backed PGlite opens slowly when other test files load the cores
