import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { freshProductionSettings } from './server-process.ts';

// Issue 53, item 15: a supervisor's SIGINT to `pnpm start` stops the server cleanly.

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

it('stops the server cleanly when the supervisor sends SIGINT to pnpm start', async () => {
  const { env } = await freshProductionSettings('start-sigint', cleanups, { postgres: false });
  // The start path as a supervisor runs it, with the code already generated and the web app built
  // (the preparation is the launcher's first step; it is not what this test is about).
  const child: ChildProcess = spawn('pnpm', ['start'], {
    cwd: rootDir,
    env: { ...process.env, ...env, HOST: '127.0.0.1', LOG_LEVEL: 'info', SCOUTBASE_START_SKIP_PREPARE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const origin = `http://127.0.0.1:${env.PORT}`;
  const up = () =>
    fetch(`${origin}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
  const deadline = Date.now() + 240_000;
  while (!(await up())) {
    if (child.exitCode !== null) throw new Error(`pnpm start exited: ${log}`);
    if (Date.now() > deadline) throw new Error(`the server did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }

  const exited = once(child, 'exit');
  const sent = Date.now();
  child.kill('SIGINT');
  await Promise.race([
    exited,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`still running: ${log}`)), 15_000)),
  ]);
  expect(Date.now() - sent).toBeLessThan(15_000);
  // The server went with it, after a clean shutdown, not left behind.
  expect(await up()).toBe(false);
  expect(log).toContain('"signal":"SIGINT"');
  expect(log).toContain('shut down');
}, 300_000);
