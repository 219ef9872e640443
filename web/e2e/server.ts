import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Builds the web app and starts the real API server on a free port with a fresh embedded
// database: used by the browser tests and the bundle bench. Nothing is faked.

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apiDir = path.resolve(webDir, '../api');
// E2E_DIST_DIR lets two browser-test runs on one checkout build side by side.
export const distDir = process.env.E2E_DIST_DIR ?? path.join(webDir, 'test-results/e2e-dist');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess, output: () => string) {
  // A busy machine (several test runs at once) may need longer: E2E_SERVER_START_SECONDS.
  const seconds = Number(process.env.E2E_SERVER_START_SECONDS) || 90;
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`API server exited (${server.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`API server did not answer /api/health within ${seconds} s:\n${output()}`);
}

/** Production build of the web app into distDir (E2E_REUSE_BUILD=1 keeps an existing one). */
export function buildWeb() {
  if (process.env.E2E_REUSE_BUILD === '1' && existsSync(path.join(distDir, 'index.html'))) return;
  execFileSync(
    path.join(webDir, 'node_modules/.bin/vite'),
    ['build', '--outDir', distDir, '--emptyOutDir', '--logLevel', 'warn'],
    // Vite keeps the NODE_ENV it finds, and vitest sets it to 'test': React's development build
    // then ran in every browser test, StrictMode's double effects and all, not what ships.
    { cwd: webDir, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
}

export interface RunningServer {
  baseURL: string;
  /** The server's import folder (IMPORT_DIR): tests put files there to import them. */
  importDir: string;
  /** Where the server writes the e-mails it would send (DATA_DIR/outbox): tests open their links. */
  outboxDir: string;
  log(): string;
  /**
   * Stops the server as a supervisor does (SIGTERM) and starts it again on the same port and data:
   * how the stop went (its exit code, how long it took), for tests of what an open tab sees.
   */
  restart(): Promise<{ exitCode: number | null; stopMs: number }>;
  stop(): Promise<void>;
}

/** The outbox of each server this process started, by its address (support.ts reads the shared one's from inject). */
export const outboxes = new Map<string, string>();

export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'scoutbase-e2e-'));
  const port = await freePort();
  let log = '';
  const spawnServer = () => {
    const child = spawn(
      process.execPath,
      ['--experimental-wasm-modules', '--no-warnings=ExperimentalWarning', '--import', 'tsx', 'src/main.ts'],
      {
        cwd: apiDir,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          IMPORT_DIR: path.join(dataDir, 'import'),
          WEB_DIST_DIR: distDir,
          LOG_LEVEL: 'warn',
          DATABASE_URL: '',
          ALLOW_SIGNUP: 'true',
          ...extraEnv,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (chunk) => {
      log += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      log += chunk;
    });
    return child;
  };
  let server = spawnServer();
  // A test run that ends early (a failed start, a killed vitest) must not leave its server running:
  // orphans kept taking the machine's two cores from every later run.
  const killOnExit = () => server.kill('SIGKILL');
  process.once('exit', killOnExit);
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseURL, server, () => log);
  } catch (error) {
    server.kill('SIGKILL');
    throw error;
  }
  /** SIGTERM, then SIGKILL after 15 s; the exit code (null when it had to be killed). */
  const terminate = () =>
    new Promise<number | null>((resolve) => {
      if (server.exitCode !== null) return resolve(server.exitCode);
      const timer = setTimeout(() => {
        server.kill('SIGKILL');
        resolve(null);
      }, 15_000);
      server.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
      server.kill('SIGTERM');
    });
  outboxes.set(baseURL, path.join(dataDir, 'outbox'));
  return {
    baseURL,
    importDir: path.join(dataDir, 'import'),
    outboxDir: path.join(dataDir, 'outbox'),
    log: () => log,
    async restart() {
      const started = Date.now();
      const exitCode = await terminate();
      const stopMs = Date.now() - started;
      server = spawnServer();
      await waitForHealth(baseURL, server, () => log);
      return { exitCode, stopMs };
    },
    async stop() {
      process.off('exit', killOnExit);
      await terminate();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
