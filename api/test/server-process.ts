import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CookieJar, type Person, scratchPostgresDatabase } from './harness.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort() {
  return new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A production server's settings: a port of its own, this data folder, and a secret (its own unless shared). */
export async function productionSettings(
  dataDir: string,
  secret = randomBytes(32).toString('hex'),
): Promise<Record<string, string>> {
  const port = await freePort();
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    AUTH_SECRET: secret,
    WEB_DIST_DIR: path.join(dataDir, 'none'),
  };
}

/**
 * productionSettings on a fresh data folder named after `name` and, with `postgres`, a scratch
 * database of its own; what removes them goes onto `cleanups` (for an afterAll to run, last first).
 */
export async function freshProductionSettings(
  name: string,
  cleanups: (() => Promise<void>)[],
  { postgres }: { postgres: boolean },
) {
  const dataDir = await mkdtemp(path.join(tmpdir(), `scoutbase-${name}-`));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const env = await productionSettings(dataDir);
  if (postgres) {
    const database = await scratchPostgresDatabase(`scoutbase_${name.replaceAll('-', '_')}`);
    cleanups.push(() => database.drop());
    env.DATABASE_URL = database.url;
  }
  return { dataDir, env };
}

/** Runs a script of api/ (scripts/*.ts, or src/main.ts) as `pnpm <name>` does; resolves with its exit code and output. */
export async function runScript(script: string, args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--experimental-wasm-modules', '--no-warnings=ExperimentalWarning', '--import', 'tsx', script, ...args],
    { cwd: apiDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

/** The real server (src/main.ts) in its own process, as `pnpm start` runs it, so a test can kill it. */
export async function startServer(env: Record<string, string>) {
  const port = Number(env.PORT);
  const child: ChildProcess = spawn(
    process.execPath,
    ['--experimental-wasm-modules', '--no-warnings=ExperimentalWarning', '--import', 'tsx', 'src/main.ts'],
    {
      cwd: apiDir,
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const origin = `http://127.0.0.1:${port}`;
  // Generous: tsx compiles the whole app at start, which takes long on a loaded CI machine.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${log}`);
    const ok = await fetch(`${origin}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not start in 120 s: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    child,
    log: () => log,
    /** SIGKILL: no shutdown, no flushing; whatever was half done stays half done. */
    async kill() {
      // A process killed by a signal has a signalCode and no exitCode: it will not exit again.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      // A process killed by a signal has a signalCode and no exitCode: it will not exit again.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Signs a person up and in against a server over HTTP; returns the session cookie. */
export async function signUpOver(origin: string, who: Person) {
  const created = await fetch(`${origin}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  if (created.status !== 202) throw new Error(`sign-up failed: ${created.status} ${await created.text()}`);
  const jar = await signInOver(origin, who);
  const user = (await (await fetch(`${origin}/api/auth/user`, { headers: { cookie: jar.header } })).json()) as {
    id: string;
  };
  return { cookie: jar.header, id: user.id };
}

/** Signs a person in against a server over HTTP through Auth.js's credentials flow; returns the cookie jar. */
export async function signInOver(origin: string, who: Pick<Person, 'email' | 'password'>) {
  const jar = new CookieJar();
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  jar.store(
    await fetch(`${origin}/api/auth/callback/credentials`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header },
      body: new URLSearchParams({ email: who.email, password: who.password, csrfToken }),
    }),
  );
  return jar;
}
