import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person, postgresReachable, postgresServerUrl } from '../harness.ts';
import { collect, wsClient } from '../live.ts';
import { freePort, signUpOver, startServer } from '../server-process.ts';
import { sseResults } from '../sse.ts';

// The real server process (src/main.ts, as `pnpm start` runs it): what an operator sees when it
// cannot start, and how it stops.
const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const reachable = await postgresReachable();

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-lifecycle-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** Runs the server until it exits on its own (a failed start); its exit code and stderr. */
async function failedStart(env: Record<string, string>) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--experimental-wasm-modules', '--no-warnings=ExperimentalWarning', '--import', 'tsx', 'src/main.ts'],
    {
      cwd: apiDir,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        AUTH_SECRET: randomBytes(32).toString('hex'),
        DATA_DIR: await mkdtemp(path.join(dataDir, 'start-')),
        WEB_DIST_DIR: path.join(dataDir, 'none'),
        DUE_REMINDER_INTERVAL_SECONDS: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, lines: stderr.trim().split('\n') };
}

describe('a start that fails says why in one line', () => {
  it('names the unreachable database, with and without migrations on start', async () => {
    const port = await freePort();
    for (const migrate of ['true', 'false']) {
      const { code, lines } = await failedStart({
        DATABASE_URL: `postgres://scout:hunter2@127.0.0.1:${port}/scoutbase`,
        MIGRATE_ON_START: migrate,
      });
      expect(code, `MIGRATE_ON_START=${migrate}`).toBe(1);
      expect(lines, `MIGRATE_ON_START=${migrate}`).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^Cannot reach the database \\(PostgreSQL at 127\\.0\\.0\\.1:${port}/scoutbase\\): is PostgreSQL running and DATABASE_URL right\\?`,
        ),
      );
      // Never the password of the URL.
      expect(lines[0]).not.toContain('hunter2');
    }
  }, 120_000);

  it.skipIf(!reachable)(
    'names a database that does not exist',
    async () => {
      const url = new URL(postgresServerUrl);
      url.pathname = `/scoutbase_missing_${randomBytes(4).toString('hex')}`;
      const { code, lines } = await failedStart({ DATABASE_URL: url.toString(), MIGRATE_ON_START: 'false' });
      expect(code).toBe(1);
      expect(lines).toEqual([
        expect.stringMatching(/^The database does not exist \(PostgreSQL at .*\/scoutbase_missing_\w+\): create it/),
      ]);
    },
    60_000,
  );

  it('names a port in use', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, lines } = await failedStart({ PORT: String(port) });
      expect(code).toBe(1);
      expect(lines).toEqual([
        `Cannot listen on 127.0.0.1:${port}: the port is in use by another program. Stop it, or set PORT to a free port.`,
      ]);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('names a wrong setting, without a stack', async () => {
    const { code, lines } = await failedStart({ PORT: 'eighty' });
    expect(code).toBe(1);
    expect(lines).toEqual(['Invalid configuration: PORT: Invalid input: expected number, received NaN']);
    // Several wrong settings: still one line, each named.
    const two = await failedStart({ PORT: 'eighty', SESSION_MAX_AGE_DAYS: 'forever' });
    expect(two.code).toBe(1);
    expect(two.lines).toHaveLength(1);
    expect(two.lines[0]).toMatch(
      /^Invalid configuration: (PORT|SESSION_MAX_AGE_DAYS): .+; (PORT|SESSION_MAX_AGE_DAYS): /,
    );
  }, 60_000);
});

describe('a graceful shutdown', () => {
  it('ends SSE streams with a retry hint, closes WebSockets with 1012, finishes a running request, and exits 0 at once', async () => {
    const port = await freePort();
    const server = await startServer({
      NODE_ENV: 'test',
      PORT: String(port),
      DATA_DIR: await mkdtemp(path.join(dataDir, 'stop-')),
      AUTH_SECRET: randomBytes(32).toString('hex'),
      WEB_DIST_DIR: path.join(dataDir, 'none'),
      DUE_REMINDER_INTERVAL_SECONDS: '0',
    });
    try {
      const { cookie } = await signUpOver(server.origin, person());

      // A browser tab's live updates, over SSE and over WebSocket.
      const sse = await fetch(`${server.origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
        body: JSON.stringify({ query: 'subscription { unreadNotificationCount }' }),
      });
      expect(sse.status).toBe(200);
      const stream = sseResults<{ data?: { unreadNotificationCount: number } }>(sse);
      await stream.until((r) => r.length >= 1);
      const ws = wsClient(`ws://127.0.0.1:${port}/graphql`, { cookie });
      const live = collect<{ unreadNotificationCount: number }>(ws, 'subscription { unreadNotificationCount }');
      await live.next(1);
      // Both are counted in /metrics while open.
      const metrics = await (await fetch(`${server.origin}/metrics`)).text();
      expect(metrics).toMatch(/^scoutbase_sse_connections 1$/m);
      expect(metrics).toMatch(/^scoutbase_websocket_connections 1$/m);

      // A request under way: half its body is sent before the stop, the rest after.
      const body = JSON.stringify(person());
      const running = new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${server.origin}/api/auth/signup`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(() => req.end(body.slice(10)), 700);
      });
      await new Promise((r) => setTimeout(r, 200));

      const stopped = Date.now();
      const exited = once(server.child, 'exit') as Promise<[number | null, string | null]>;
      server.child.kill('SIGTERM');

      // The SSE stream ends (not `event: complete`) after a `retry:` hint.
      let raw = '';
      for (;;) {
        const { value, done } = await stream.read().catch(() => ({ value: undefined, done: true as const }));
        if (done) break;
        raw += new TextDecoder().decode(value);
      }
      expect(raw).toMatch(/(^|\n)retry: \d+\n\n$/);
      expect(raw).not.toContain('event: complete');

      // Sign-up answers 202 for any address (it cannot tell who has an account).
      expect(await running).toBe(202);
      const [code] = await exited;
      expect(code).toBe(0);
      expect(Date.now() - stopped).toBeLessThan(10_000);
      await expect.poll(() => ws.closes).toEqual([1012]);
      await ws.dispose();
    } finally {
      await server.kill();
    }
  }, 120_000);
});
