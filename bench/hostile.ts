// /api/health's p99 while hostile bodies arrive, against its p99 on the same idle server, same run
// (issue 17): four 8 MB GraphQL bodies from a signed-in user and four oversized unauthenticated
// bodies (application/octet-stream, no type) to the sign-up route, all at once. The server runs in a
// process of its own, as `pnpm start` runs it, so the event loop measured is the server's alone.
// Target: the ratio under 3.
import { Worker } from 'node:worker_threads';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { person } from '../api/test/harness.ts';
import { freePort, signUpOver, startServer } from '../api/test/server-process.ts';
import { machine, n, p50p99, percentile, round, saveResults, throwawayPostgres } from './lib.ts';

const PROBES = n('HOSTILE_PROBES', 400);
const GRAPHQL_BYTES = n('HOSTILE_GRAPHQL_BYTES', 8_000_000);
const OVERSIZED_BYTES = n('HOSTILE_OVERSIZED_BYTES', 64_000_000);

/**
 * The attacker, on a thread of its own (plain JavaScript, run with eval) so that writing the hostile
 * bodies never delays the probes: waves of eight bodies at once, four 8 MB GraphQL bodies from a
 * signed-in user and four oversized unauthenticated ones to sign-up, until told to stop.
 */
const ATTACKER = `
const { request } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { origin, cookie, graphqlBytes, oversizedBytes } = workerData;
// Streams size bytes in 64 KB slices; the status, or 'closed' when the server hung up first.
function hostile(pathname, headers, size, first) {
  return new Promise((resolve) => {
    const req = request(origin + pathname, { method: 'POST', headers, agent: false });
    req.on('socket', (socket) => socket.on('error', () => {}));
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve(res.statusCode));
    });
    req.on('error', () => { if (!answered) resolve('closed'); });
    const slice = Buffer.alloc(65536, 'x');
    let sent = 0;
    const write = () => {
      if (answered || req.destroyed || sent >= size) return req.end();
      const chunk = sent === 0 && first ? first : slice;
      sent += chunk.length;
      req.write(chunk, () => setImmediate(write));
    };
    write();
  });
}
const graphqlStart = Buffer.from('{"query":"{ viewer { id } }","variables":{"padding":"');
const wave = () => Promise.all([
  ...Array.from({ length: 4 }, () => hostile('/graphql', { 'content-type': 'application/json', cookie }, graphqlBytes, graphqlStart)),
  hostile('/api/auth/signup', { 'content-type': 'application/octet-stream' }, oversizedBytes),
  hostile('/api/auth/signup', { 'content-type': 'application/octet-stream' }, oversizedBytes),
  hostile('/api/auth/signup', {}, oversizedBytes),
  hostile('/api/auth/signup', {}, oversizedBytes),
]);
let stopped = false;
parentPort.once('message', () => { stopped = true; });
(async () => {
  const statuses = {};
  let waves = 0;
  while (!stopped) {
    for (const status of await wave()) statuses[status] = (statuses[status] || 0) + 1;
    waves += 1;
  }
  parentPort.postMessage({ waves, statuses });
})();
`;

// PostgreSQL in its own processes, as in production (BENCH_PG_URL); HOSTILE_DB=embedded for PGlite.
const embedded = process.env.HOSTILE_DB === 'embedded';
const database = embedded ? undefined : await throwawayPostgres('hostile');
const dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-bench-hostile-'));
const port = await freePort();
const server = await startServer({
  PORT: String(port),
  DATA_DIR: dataDir,
  WEB_DIST_DIR: path.join(dataDir, 'none'),
  ...(database ? { DATABASE_URL: database.url } : {}),
  DUE_REMINDER_INTERVAL_SECONDS: '0',
  // Budgets per address would refuse the repeated sign-up posts before the body gate is what answers.
  RATE_LIMITS: 'false',
  LOG_LEVEL: 'error',
});
const { cookie } = await signUpOver(server.origin, person());

/** One /api/health request's latency in ms. */
async function probe() {
  const started = performance.now();
  const response = await fetch(`${server.origin}/api/health`);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`/api/health answered ${response.status}`);
  return performance.now() - started;
}

/** PROBES sequential health requests (10 ms apart, as a load balancer's checks would come). */
async function probes() {
  const latencies: number[] = [];
  while (latencies.length < PROBES) {
    latencies.push(await probe());
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return latencies;
}

const snapshot = () => ({ load1m: round(loadavg()[0] ?? 0) });

// Warm up: the first requests compile code paths.
for (let i = 0; i < 50; i++) await probe();

const idleLoad = snapshot();
const idle = await probes();

const attackLoad = snapshot();
// The attack runs on a thread of its own, so writing the hostile bodies never delays this thread's probes.
const attacker = new Worker(ATTACKER, {
  eval: true,
  workerData: { origin: server.origin, cookie, graphqlBytes: GRAPHQL_BYTES, oversizedBytes: OVERSIZED_BYTES },
});
const attackReport = new Promise<{ waves: number; statuses: Record<string, number> }>((resolve) =>
  attacker.once('message', resolve),
);
await new Promise((resolve) => setTimeout(resolve, 200));
const underAttack = await probes();
attacker.postMessage('stop');
const { waves, statuses } = await attackReport;
await attacker.terminate();
const attackLoadAfter = snapshot();

await server.stop();
await rm(dataDir, { recursive: true, force: true });
await database?.drop();

const summary = (values: number[]) => ({ probes: values.length, ...p50p99(values), maxMs: round(Math.max(...values)) });
const results = {
  date: new Date().toISOString(),
  machine: machine(database ? 'PostgreSQL' : 'embedded (PGlite)'),
  idle: { ...summary(idle), load: idleLoad },
  underAttack: { ...summary(underAttack), load: attackLoad, loadAfter: attackLoadAfter },
  waves,
  hostileAnswers: statuses,
  ratio: round(percentile(underAttack, 99) / percentile(idle, 99), 2),
  target: '/api/health p99 under attack less than 3x its idle p99',
};

console.log(
  `/api/health, idle:          p99 ${results.idle.p99Ms} ms (p50 ${results.idle.p50Ms}, ${idle.length} probes), load average ${idleLoad.load1m}`,
);
console.log(
  `/api/health, under attack:  p99 ${results.underAttack.p99Ms} ms (p50 ${results.underAttack.p50Ms}, ${underAttack.length} probes), load average ${attackLoad.load1m} → ${attackLoadAfter.load1m}`,
);
console.log(
  `  ${waves} waves of 4 × ${GRAPHQL_BYTES / 1e6} MB GraphQL and 4 × ${OVERSIZED_BYTES / 1e6} MB sign-up bodies; answers: ${JSON.stringify(results.hostileAnswers)}`,
);
console.log(`  ratio ${results.ratio} (target < 3), ${results.machine.cpus} CPUs`);
await saveResults('hostile', results);
