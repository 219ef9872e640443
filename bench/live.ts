// pnpm bench:live — how long a notification takes to reach 1,000 WebSocket subscribers
// (graphql-ws, the bell's notificationAdded subscription), p50/p99 over every delivery, against a
// bare `ws` server broadcasting the same payload to 1,000 more graphql-ws clients in the same run,
// the two taking turns round by round.
//
// One person with 1,000 connections (1,000 open tabs or devices), not 1,000 people: a notification
// belongs to one person, so "one notification to 1,000 subscribers" is exactly this; with 1,000
// people it would be 1,000 separate notifications, each executed for its own person; one person's
// tabs share one execution of the event (api/src/live/shared-events.ts).
// The clients run in this process next to the server, and are graphql-ws clients alike for both
// (until 2026-11-28 the baseline's were bare sockets that only parsed the JSON), so both figures
// include the same client-side work on the same two cores.
// The first rounds of each are not counted: the app's per-subscriber path runs a thousand times per
// round, and V8 optimises it only during the second or third round (measured: rounds 0 and 1 took
// about twice as long as every later one), so one warm-up round left p99 a figure of the JIT.
// Options (environment): BENCH_SUBSCRIBERS (1000), BENCH_ROUNDS (5), BENCH_WARMUP (3), DATABASE_URL
// (PostgreSQL instead of the embedded database), BENCH_PROFILE=<dir>: a CPU profile of this thread
// (the server, its clients and the baseline's) over the measured rounds.
import type { AddressInfo } from 'node:net';
import { publishNotifications, writeNotification } from '../api/src/notifications/rules.ts';
import {
  machine,
  n,
  p50p99,
  persistedOperation,
  requireApi,
  round,
  saveResults,
  signUp,
  startProfile,
  startServer,
} from './lib.ts';

const { createClient } = requireApi('graphql-ws') as typeof import('graphql-ws');
const wsModule = requireApi('ws') as typeof import('ws');
const WebSocket = wsModule.WebSocket;
const WebSocketServer = wsModule.WebSocketServer;
const SUBSCRIBERS = n('BENCH_SUBSCRIBERS', 1000);
const ROUNDS = n('BENCH_ROUNDS', 5);
const WARMUP = n('BENCH_WARMUP', 3);

// The bell's own subscription as the web app sends it in production (a persisted operation): the
// event, the unread count and the notification itself.
const SUBSCRIPTION_DOC_ID = persistedOperation('subscription NotificationBellSlotAddedSubscription');

const server = await startServer({ databaseUrl: process.env.DATABASE_URL, subscriptions: true });
const viewer = await signUp(server.origin, server.db);
const wsUrl = `${server.origin.replace('http', 'ws')}/graphql`;

class SignedInSocket extends WebSocket {
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols, { headers: { cookie: viewer.cookie } });
  }
}

// ── 1,000 graphql-ws clients, the same for the app and the baseline ──
let expected = '';
let sentAt = 0;
let arrivals: number[] = [];
let onAllArrived = () => {};

/** SUBSCRIBERS graphql-ws clients, 50 connecting at a time, each holding the bell's subscription. */
async function subscribers(url: string, webSocketImpl: typeof WebSocket) {
  const clients: ReturnType<typeof createClient>[] = [];
  for (let start = 0; start < SUBSCRIBERS; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, SUBSCRIBERS - start) }, async () => {
        const client = createClient({ url, webSocketImpl, lazy: false, retryAttempts: 0 });
        clients.push(client);
        await new Promise<void>((resolve, reject) => {
          client.subscribe<{ notificationAdded: { notificationId: string } }>(
            // graphql-ws requires a query text; the server takes the persisted one by its id.
            { query: '', extensions: { persistedQuery: { sha256Hash: SUBSCRIPTION_DOC_ID } } },
            {
              next: (message) => {
                if (message.data?.notificationAdded.notificationId !== expected) return;
                arrivals.push(performance.now() - sentAt);
                if (arrivals.length === SUBSCRIBERS) onAllArrived();
              },
              error: (error) => reject(new Error(`subscription refused: ${JSON.stringify(error)}`)),
              complete: () => {},
            },
          );
          // graphql-ws acknowledges the subscription only with its first event: wait for the socket.
          client.on('connected', () => resolve());
        });
      }),
    );
  }
  // Give the last subscriptions a moment to be registered on the server.
  await new Promise((r) => setTimeout(r, 1000));
  return clients;
}

// ── the app: one signed-in person's 1,000 tabs ──
const opened = performance.now();
const clients = await subscribers(wsUrl, SignedInSocket);
const openSeconds = round((performance.now() - opened) / 1000, 1);

async function deliverOnce<T>(send: () => Promise<T> | T) {
  arrivals = [];
  const all = new Promise<void>((resolve, reject) => {
    onAllArrived = resolve;
    setTimeout(() => reject(new Error(`only ${arrivals.length} of ${SUBSCRIBERS} deliveries in 30 s`)), 30_000).unref();
  });
  sentAt = performance.now();
  await send();
  await all;
  return arrivals;
}

// ── the baseline: a bare ws server broadcasting the same payload to clients of the same kind ──
// It speaks just enough of graphql-ws (acknowledge the connection, note each subscription's id)
// for graphql-ws clients to take its messages, so the clients' own work (parsing, checking each
// message) weighs the same in both figures, and serializes the payload once for all sockets.
const bare = new WebSocketServer({ port: 0, host: '127.0.0.1' });
await new Promise((resolve) => bare.once('listening', resolve));
const subscriptionIds = new Map<InstanceType<typeof WebSocket>, string>();
bare.on('connection', (socket) => {
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; id?: string };
    if (message.type === 'connection_init') socket.send('{"type":"connection_ack"}');
    if (message.type === 'subscribe' && message.id) subscriptionIds.set(socket, message.id);
  });
  socket.once('close', () => subscriptionIds.delete(socket));
});
const bareClients = await subscribers(`ws://127.0.0.1:${(bare.address() as AddressInfo).port}`, WebSocket);

// The app's rounds and the baseline's alternate, each going first every other round, so a slower
// moment of the machine (a collection of the other's garbage, another process) falls on both alike
// instead of on whichever ran then. Each round's clients take only the message they expect, so the
// other side's idle sockets change nothing.
/** As a task assignment does: write the notification, then publish after the commit. */
const appRound = (round: number) =>
  deliverOnce(async () => {
    const notification = await writeNotification(server.db, {
      userId: viewer.userId,
      type: 'task',
      title: 'New task',
      message: `Check the light at the pier (${round})`,
    });
    expected = Buffer.from(`Notification:${notification.id}`).toString('base64'); // its global id
    publishNotifications(server.app.services, [notification]);
  });
const baselineRound = (round: number) =>
  deliverOnce(() => {
    expected = `baseline-${round}`;
    const payload = JSON.stringify({
      data: {
        notificationAdded: {
          notificationId: expected,
          unreadCount: round + 1,
          notification: {
            id: expected,
            title: 'New task',
            message: `Check the light at the pier (${round})`,
            link: null,
          },
        },
      },
    });
    for (const [socket, id] of subscriptionIds)
      socket.send(`{"id":${JSON.stringify(id)},"type":"next","payload":${payload}}`);
  });
const appTimes: number[] = [];
const bareTimes: number[] = [];
let profiler: Awaited<ReturnType<typeof startProfile>> = null;
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  if (round === WARMUP) profiler = await startProfile();
  const appFirst = round % 2 === 0;
  const first = await (appFirst ? appRound(round) : baselineRound(round));
  const second = await (appFirst ? baselineRound(round) : appRound(round));
  if (round >= WARMUP) {
    appTimes.push(...(appFirst ? first : second));
    bareTimes.push(...(appFirst ? second : first));
  }
}
await profiler?.save('live rounds');
for (const client of [...clients, ...bareClients]) await client.dispose();
await new Promise((resolve) => bare.close(resolve));

const stats = (times: number[]) => ({ deliveries: times.length, ...p50p99(times), lastMs: round(Math.max(...times)) });
const results = {
  date: new Date().toISOString(),
  machine: machine(server.app.config.database.kind),
  subscribers: SUBSCRIBERS,
  rounds: ROUNDS,
  warmupRounds: WARMUP,
  shape: 'one person, 1,000 graphql-ws connections, in-process event bus (no REDIS_URL)',
  openSeconds,
  app: stats(appTimes),
  baseline: stats(bareTimes),
  ratioP50: 0,
  ratioP99: 0,
};
results.ratioP50 = round(results.app.p50Ms / results.baseline.p50Ms, 2);
results.ratioP99 = round(results.app.p99Ms / results.baseline.p99Ms, 2);

console.log(
  `Live updates: one notification to ${SUBSCRIBERS} subscribers, ${ROUNDS} rounds, ${results.machine.database} database, load ${results.machine.load}\n`,
);
console.log(`  opened ${SUBSCRIBERS} subscriptions in ${openSeconds} s`);
console.log(
  `  app (graphql-ws)  p50 ${results.app.p50Ms} ms  p99 ${results.app.p99Ms} ms  last ${results.app.lastMs} ms`,
);
console.log(
  `  bare ws broadcast p50 ${results.baseline.p50Ms} ms  p99 ${results.baseline.p99Ms} ms  last ${results.baseline.lastMs} ms`,
);
console.log(`  app / baseline: p50 ×${results.ratioP50}, p99 ×${results.ratioP99}`);
await saveResults('live', results);
await server.close();
process.exit(0);
