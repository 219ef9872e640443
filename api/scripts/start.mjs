// `pnpm start`: prepares the app (generated code, the web build when it is missing) quietly, says so
// in one line, then runs the server as a child of this process and hands it every stop signal.
//
// pnpm runs a script in a process group of its own and passes SIGTERM and SIGINT on to it. The
// server used to sit two pnpm layers further down (`pnpm --filter @scoutbase/api start`), each one
// another relay for the signal to be lost in; now this launcher is the script, and it forwards.
// (A pnpm started with SIGINT ignored, as `pnpm start &` in a non-interactive shell does, never
// hears SIGINT at all: stop it with SIGTERM.)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rootDir = path.resolve(apiDir, '..');
const started = Date.now();

/** Runs a step with its output held back: shown only when the step fails. */
function quietly(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

async function prepare() {
  const steps = [['generate', ['-s', 'generate'], rootDir]];
  const built = existsSync(path.join(rootDir, 'web', 'dist', 'index.html'));
  if (!built) steps.push(['web build', ['-s', '--filter', '@scoutbase/web', 'build'], rootDir]);
  for (const [name, args, cwd] of steps) {
    const { code, output } = await quietly('pnpm', args, cwd);
    if (code !== 0) {
      process.stderr.write(output);
      process.stderr.write(`pnpm start: the ${name} step failed (exit code ${code}).\n`);
      process.exit(code || 1);
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `Scoutbase: code generated, web app ${built ? 'already built' : 'built'} (${seconds} s); starting the server`,
  );
}

if (process.env.SCOUTBASE_START_SKIP_PREPARE !== '1') await prepare();

const server = spawn(
  process.execPath,
  [
    '--experimental-wasm-modules',
    '--no-warnings=ExperimentalWarning',
    '--max-semi-space-size=32',
    '--import',
    'tsx',
    'src/main.ts',
  ],
  { cwd: apiDir, stdio: 'inherit' },
);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // The server shuts down cleanly on SIGINT and SIGTERM (src/main.ts); SIGHUP ends it as SIGTERM.
    if (server.exitCode === null && server.signalCode === null) server.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  });
}

server.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
