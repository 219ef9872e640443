import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { person, settingsFor, signIn, startedApp } from './harness.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-restart-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

// The embedded database on disk, as `pnpm start` uses it: migrated at start, kept across restarts.
const start = () => startedApp(settingsFor(dataDir));

it('keeps accounts and sessions across a restart of the embedded database', async () => {
  const who = person();
  const first = await start();
  expect(first.config.database.kind).toBe('embedded');
  const created = await first.request('/api/auth/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  expect(created.status).toBe(202);
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
