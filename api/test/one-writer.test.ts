// One writer for the embedded database (issue 18): with `pnpm start` running, `pnpm user:create`
// on the same DATA_DIR used to open the folder itself, print 'Created', and be overwritten by the
// server (the user could not sign in, and was gone after a restart along with other writes). These
// run the real server and the real command as processes, as an operator would.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { person, type Person } from './harness.ts';
import { freePort, runScript, signInOver, signUpOver, startServer } from './server-process.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-writer-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const env = () => ({ DATA_DIR: dataDir, NODE_ENV: 'development', WEB_DIST_DIR: path.join(dataDir, 'none') });

/** `pnpm user:create` on this data folder. */
function createUser(who: Person) {
  const args = ['--email', who.email, '--password', who.password, '--name', who.name];
  return runScript('scripts/user-create.ts', args, env());
}

async function signsIn(origin: string, who: Person) {
  const jar = await signInOver(origin, who);
  const user = await fetch(`${origin}/api/auth/user`, { headers: { cookie: jar.header } });
  return user.status === 200 && ((await user.json()) as { email: string }).email === who.email;
}

it('user:create goes through the running server; every write survives a restart; a second start is refused', async () => {
  const port = String(await freePort());
  const first = await startServer({ ...env(), PORT: port });
  const before = [person(), person(), person()];
  const admin = person({ name: 'Ana Lopez' });
  const after = [person(), person(), person()];
  try {
    for (const who of before) await signUpOver(first.origin, who);

    const created = await createUser(admin);
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain(`Created ${admin.email}`);
    expect(created.code).toBe(0);
    // The running server knows the account at once.
    expect(await signsIn(first.origin, admin)).toBe(true);
    // The rules still hold through the socket: a taken address is refused with the domain's message.
    const again = await createUser(admin);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('An account with this email already exists.');

    for (const who of after) await signUpOver(first.origin, who);

    // A second server on the folder stops at once, with one line naming the holder.
    const second = await runScript('src/main.ts', [], { ...env(), PORT: String(await freePort()), LOG_LEVEL: 'warn' });
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      `The data folder ${dataDir} is in use by process ${first.child.pid} (another Scoutbase server or command). Stop it first, or use another DATA_DIR.`,
    ]);
    // The admin socket is the owner's alone.
    expect((await stat(path.join(dataDir, 'admin.sock'))).mode & 0o777).toBe(0o600);
  } finally {
    await first.stop();
  }
  expect(first.child.exitCode).toBe(0);

  const restarted = await startServer({ ...env(), PORT: port });
  try {
    for (const who of [...before, admin, ...after]) expect(await signsIn(restarted.origin, who), who.email).toBe(true);
  } finally {
    await restarted.kill();
  }
}, 300_000);

it('a lock left by a killed server does not block the next start; with no server running user:create opens the folder itself', async () => {
  // The previous test ended with SIGKILL: its lock file is still there, naming a dead process.
  const port = String(await freePort());
  await stat(path.join(dataDir, 'db.lock'));
  const admin = person({ name: 'Bea Ruiz' });
  const created = await createUser(admin);
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  // The command released the folder when done.
  await expect(stat(path.join(dataDir, 'db.lock'))).rejects.toMatchObject({ code: 'ENOENT' });

  // A lock naming a live process that is not a Scoutbase one would be honoured; one naming a
  // process that is gone is not, even right after the crash.
  await writeFile(path.join(dataDir, 'db.lock'), JSON.stringify({ pid: 2 ** 22 - 1, host: '', started: null }));
  const server = await startServer({ ...env(), PORT: port });
  try {
    expect(await signsIn(server.origin, admin)).toBe(true);
  } finally {
    await server.stop();
  }
}, 300_000);
