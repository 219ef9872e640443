import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInUser, type TestApp, testApp, sendBody } from '../../test/harness.ts';
import { collect, type Listening, listen, listeningApp, secondInstance, wsClient } from '../../test/live.ts';
import { freePort } from '../../test/server-process.ts';
import { subscribeOverSse } from '../../test/sse.ts';
import { countStatements } from '../../test/statements.ts';
import { publishNotifications, writeNotification } from '../notifications/rules.ts';
import type { App } from '../app.ts';
import { createEvents } from '../infra/events/pubsub.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const NOTIFICATION_ADDED =
  'subscription { notificationAdded { notificationId unreadCount notification { id title } } }';
const UNREAD = 'subscription { unreadNotificationCount }';
/** A Lua script holding Redis (single-threaded) for 300 ms. */
const BUSY_300_MS = `local s = redis.call('TIME') local t = s
repeat t = redis.call('TIME') until (t[1] - s[1]) * 1000000 + (t[2] - s[2]) >= 300000`;

async function notify(app: App, userId: string, title = 'Call sheet ready') {
  const n = await writeNotification(app.services.db, { userId, type: 'other', title, message: 'See the call sheet.' });
  publishNotifications(app.services, [n]);
  return n;
}

/** Repeats `act` until `done` holds: a subscription is live only once its (Redis) subscribe went through. */
async function until(done: () => boolean, act: () => Promise<unknown>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await act();
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Two instances of one app on the Redis at `redisUrl`, both listening; `close` stops all four. */
async function twoInstances(redisUrl: string, logger?: Logger) {
  const a = await testApp({ REDIS_URL: redisUrl });
  const b = await secondInstance(a);
  if (logger) {
    await a.services.events.close();
    a.services.events = createEvents({ redisUrl, logger });
  }
  await Promise.all([a.services.events.ready(), b.services.events.ready()]);
  const serverA = await listen(a);
  const serverB = await listen(b);
  const close = async () => {
    await serverA.close();
    await serverB.close();
    await b.close();
    await a.close();
  };
  return { a, b, serverA, serverB, close };
}
type TwoInstances = Awaited<ReturnType<typeof twoInstances>>;

describe('subscriptions across two instances on one Redis', () => {
  let a: TestApp, b: TwoInstances['b'], serverA: Listening, serverB: Listening, close: () => Promise<void>;
  beforeAll(async () => {
    ({ a, b, serverA, serverB, close } = await twoInstances(REDIS_URL));
  });
  afterAll(() => close?.());

  it('delivers an event published through instance A to a graphql-ws subscriber on instance B', async () => {
    const alice = await signedInUser(a);
    const client = wsClient(serverB.ws, { cookie: alice.cookie });
    const sub = collect<{
      notificationAdded: { notificationId: string; unreadCount: number; notification: { id: string; title: string } };
    }>(client, NOTIFICATION_ADDED);
    const sent: string[] = [];
    await until(
      () => sub.results.length > 0,
      async () => sent.push((await notify(a, alice.id)).id),
    );
    const first = sub.results[0]?.data?.notificationAdded;
    expect(sent.map((id) => encodeGlobalID('Notification', id))).toContain(first?.notificationId);
    expect(first?.unreadCount).toBeGreaterThanOrEqual(1);
    expect(first?.notification).toEqual({ id: first?.notificationId, title: 'Call sheet ready' });
    await client.dispose();
  });

  it('says when a new listener is sure to hear what another instance publishes through Redis', async () => {
    const events = createEvents({ redisUrl: REDIS_URL });
    const publisher = new Redis(REDIS_URL);
    try {
      await events.ready();
      const channel = `access:changed:${crypto.randomUUID()}`;
      // Redis is kept busy for 300 ms, so the new listener's SUBSCRIBE waits for an answer.
      const busySince = Date.now();
      void publisher.eval(BUSY_300_MS, 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const heard = events.subscribe('access:changed', channel.slice('access:changed:'.length));
      const first = heard.next();
      await events.subscribed(channel);
      expect(Date.now() - busySince).toBeGreaterThanOrEqual(250);
      const change = { kind: 'invitations', projectId: 'p', galleryId: null, galleriesChanged: false };
      // PUBLISH answers how many connections it reached: the new listener's is one.
      expect(await publisher.publish(channel, JSON.stringify(change))).toBe(1);
      expect((await first).value).toEqual(change);
      await heard.return?.();
    } finally {
      publisher.disconnect();
      await events.close();
    }
  });

  it('sends the unread count once a notification added after it is sure to be heard', async () => {
    const alice = await signedInUser(a);
    const publisher = new Redis(REDIS_URL);
    try {
      // Redis is kept busy for 300 ms: the subscription's two SUBSCRIBEs wait for an answer, and a
      // count sent before them would miss a notification added in between.
      const busySince = Date.now();
      void publisher.eval(BUSY_300_MS, 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const client = wsClient(serverB.ws, { cookie: alice.cookie });
      const sub = collect<{ unreadNotificationCount: number }>(client, UNREAD);
      await sub.next(1);
      expect(Date.now() - busySince).toBeGreaterThanOrEqual(250);
      expect(sub.results[0]?.data?.unreadNotificationCount).toBe(0);
      await notify(a, alice.id); // once, through the other instance
      await sub.next(2);
      expect(sub.results[1]?.data?.unreadNotificationCount).toBe(1);
      await client.dispose();
    } finally {
      publisher.disconnect();
    }
  });

  it('never carries another user’s events', async () => {
    const alice = await signedInUser(a);
    const bob = await signedInUser(a);
    const aliceClient = wsClient(serverB.ws, { cookie: alice.cookie });
    const bobClient = wsClient(serverB.ws, { cookie: bob.cookie });
    const aliceSub = collect<{ notificationAdded: { notificationId: string } }>(aliceClient, NOTIFICATION_ADDED);
    const bobSub = collect<{ notificationAdded: { notificationId: string } }>(bobClient, NOTIFICATION_ADDED);
    const bobsIds = new Set<string>();
    const alicesIds = new Set<string>();
    // Both subscriptions are live once each has heard one of its own events.
    await until(
      () => aliceSub.results.length > 0 && bobSub.results.length > 0,
      async () => {
        alicesIds.add(encodeGlobalID('Notification', (await notify(a, alice.id, 'For Alice')).id));
        bobsIds.add(encodeGlobalID('Notification', (await notify(a, bob.id, 'For Bob')).id));
      },
    );
    // Then a burst of Alice's events: Bob hears none of them.
    for (let i = 0; i < 5; i++) alicesIds.add(encodeGlobalID('Notification', (await notify(a, alice.id)).id));
    await aliceSub.next(6);
    await new Promise((r) => setTimeout(r, 200));
    for (const r of bobSub.results) expect(bobsIds).toContain(r.data?.notificationAdded.notificationId);
    for (const r of aliceSub.results) expect(alicesIds).toContain(r.data?.notificationAdded.notificationId);
    await aliceClient.dispose();
    await bobClient.dispose();
  });

  it('streams assistant replies to the sender over graphql-ws, across instances', async () => {
    const alice = await signedInUser(a);
    const client = wsClient(serverB.ws, { cookie: alice.cookie });
    const sub = collect<{ assistantReply: { conversationId: string; delta: string; done: boolean; streamId: string } }>(
      client,
      'subscription { assistantReply(streamId: "s-9") { conversationId delta done streamId } }',
    );
    const conversations: string[] = [];
    const replyAt = () => sub.results.findIndex((r) => r.data?.assistantReply.delta.includes('/files?upload=true'));
    await until(
      () => replyAt() >= 0,
      async () => {
        const response = await sendBody(a, alice.cookie, 'POST', '/api/ai/chat', {
          message: 'How do I upload photos?',
          streamId: 's-9',
        });
        const { conversation } = (await response.json()) as { conversation: { id: string } };
        conversations.push(encodeGlobalID('AssistantConversation', conversation.id));
      },
    );
    // The reply, then its last piece, for one of the conversations this test started.
    const at = replyAt();
    await sub.next(at + 2);
    const reply = sub.results[at]?.data?.assistantReply;
    expect(conversations).toContain(reply?.conversationId);
    expect(reply).toMatchObject({ done: false, streamId: 's-9' });
    expect(sub.results[at + 1]?.data?.assistantReply).toEqual({
      conversationId: reply?.conversationId,
      delta: '',
      done: true,
      streamId: 's-9',
    });
    await client.dispose();
  });

  it('admits a connection by the token of /api/auth/firebase-token', async () => {
    const alice = await signedInUser(a);
    const { token } = (await (await a.request('/api/auth/firebase-token', { cookie: alice.cookie })).json()) as {
      token: string;
    };
    const client = wsClient(serverA.ws, { token });
    const sub = collect<{ unreadNotificationCount: number }>(client, UNREAD);
    await sub.next(1);
    expect(sub.results[0]?.data?.unreadNotificationCount).toBe(0);
    await until(
      () => sub.results.length > 1,
      () => notify(b, alice.id),
    );
    expect(sub.results.at(-1)?.data?.unreadNotificationCount).toBeGreaterThanOrEqual(1);
    await client.dispose();
  });

  it.each([
    ['no credentials', {}],
    ['a forged token', { token: 'not-a-token' }],
    ['a forged cookie', { cookie: 'authjs.session-token=forged' }],
  ])('refuses a subscription with %s', async (_name, auth) => {
    const client = wsClient(serverB.ws, auth);
    const sub = collect(client, UNREAD);
    const { failure } = await sub.ended();
    expect(sub.results).toEqual([]);
    expect(failure).toBeDefined();
    expect(client.closes).toContain(4403);
    await client.dispose();
  });
});

describe('one person in many tabs', () => {
  let app: TestApp, server: Listening;
  beforeAll(async () => {
    [app, server] = await listeningApp();
  });
  afterAll(() => server?.close());

  it('counts the unread notifications once per event for all of the person’s subscriptions, and right after adds and mark-reads', async () => {
    const alice = await signedInUser(app);
    const bob = await signedInUser(app);
    const clients = [alice, alice, bob].map((user) => wsClient(server.ws, { cookie: user.cookie }));
    const added = clients.map((client) =>
      collect<{ notificationAdded: { notificationId: string; unreadCount: number } }>(
        client,
        'subscription { notificationAdded { notificationId unreadCount } }',
      ),
    );
    const unread = clients.map((client) => collect<{ unreadNotificationCount: number }>(client, UNREAD));
    await Promise.all(unread.map((sub) => sub.next(1)));
    const [aliceAdded, bobAdded] = [added.slice(0, 2), added[2]!];
    const [aliceUnread, bobUnread] = [unread.slice(0, 2), unread[2]!];

    // A subscription is live once its opening value has arrived; the added ones need a probe.
    const first = await writeNotification(app.services.db, {
      userId: alice.id,
      type: 'other',
      title: 'Call sheet ready',
      message: 'See the call sheet.',
    });
    let probes = 0;
    await until(
      () => aliceAdded.every((sub) => sub.results.length > 0),
      async () => {
        probes += 1;
        await app.services.events.publish('notification:added', alice.id, { notificationId: first.id });
      },
    );
    // Each probe is counted once it reaches Alice's unread subscriptions, live since before the
    // first: on a busy machine the last probes are still on their way, and would be counted below.
    await Promise.all(aliceUnread.map((sub) => sub.next(1 + probes)));
    const settled = () => [...aliceAdded, ...aliceUnread].map((sub) => sub.results.length);
    await new Promise((r) => setTimeout(r, 100));
    const before = settled();

    const second = await writeNotification(app.services.db, {
      userId: alice.id,
      type: 'other',
      title: 'Location confirmed',
      message: 'The pier is ours on Friday.',
    });
    // Four subscriptions of one person hear the event; the count is read once for all of them.
    // (Published directly: publishNotifications also looks up who wants an e-mail.)
    const statements = await countStatements(async () => {
      app.services.events.publish('notification:added', alice.id, { notificationId: second.id });
      await Promise.all([...aliceAdded, ...aliceUnread].map((sub, i) => sub.next((before[i] ?? 0) + 1)));
    });
    expect(statements).toBe(1);
    for (const sub of aliceAdded)
      expect(sub.results.at(-1)?.data?.notificationAdded).toEqual({
        notificationId: encodeGlobalID('Notification', second.id),
        unreadCount: 2,
      });
    for (const sub of aliceUnread) expect(sub.results.at(-1)?.data?.unreadNotificationCount).toBe(2);

    // Marking one read: both of Alice's tabs hear the new count.
    const heard = aliceUnread.map((sub) => sub.results.length);
    const marked = await app.request(`/api/notifications/${first.id}/read`, { method: 'PATCH', cookie: alice.cookie });
    expect(marked.status).toBe(200);
    await Promise.all(aliceUnread.map((sub, i) => sub.next((heard[i] ?? 0) + 1)));
    for (const sub of aliceUnread) expect(sub.results.at(-1)?.data?.unreadNotificationCount).toBe(1);

    // Bob heard nothing of Alice's notifications: only his own opening count.
    expect(bobAdded.results).toEqual([]);
    expect(bobUnread.results).toEqual([{ data: { unreadNotificationCount: 0 } }]);
    await Promise.all(clients.map((client) => client.dispose()));
  });

  it('reads a new notification once per event for all of the person’s tabs', async () => {
    const alice = await signedInUser(app);
    const clients = [1, 2, 3].map(() => wsClient(server.ws, { cookie: alice.cookie }));
    type Added = { notificationAdded: { notificationId: string; notification: { id: string; title: string } | null } };
    const tabs = clients.map((client) => collect<Added>(client, NOTIFICATION_ADDED));
    const probe = await notify(app, alice.id, 'Probe');
    await until(
      () => tabs.every((tab) => tab.results.length > 0),
      async () => app.services.events.publish('notification:added', alice.id, { notificationId: probe.id }),
    );
    // Probes may still be on their way: a last, distinct one marks the end of the set-up.
    const marker = await notify(app, alice.id, 'Marker');
    const markerId = encodeGlobalID('Notification', marker.id);
    await until(
      () => tabs.every((tab) => tab.results.at(-1)?.data?.notificationAdded.notificationId === markerId),
      async () => {},
    );
    const before = tabs.map((tab) => tab.results.length);

    const sent = await writeNotification(app.services.db, {
      userId: alice.id,
      type: 'other',
      title: 'Location confirmed',
      message: 'The pier is ours on Friday.',
    });
    // Every JSON text made of the event's answer, for the server's sockets or anything else.
    const serialized: unknown[] = [];
    const sentId = encodeGlobalID('Notification', sent.id);
    const realStringify = JSON.stringify;
    const stringify = vi.spyOn(JSON, 'stringify').mockImplementation((value, replacer, space) => {
      // The answer itself, or a graphql-ws message carrying it.
      const answer = (value as { payload?: unknown } | null)?.payload ?? value;
      if ((answer as { data?: Added } | null)?.data?.notificationAdded?.notificationId === sentId)
        serialized.push(value);
      return realStringify(value, replacer as never, space);
    });
    const statements = await countStatements(async () => {
      app.services.events.publish('notification:added', alice.id, { notificationId: sent.id });
      await Promise.all(tabs.map((tab, i) => tab.next((before[i] ?? 0) + 1)));
    }).finally(() => stringify.mockRestore());
    // One unread count, one read of the notification and one serialization of the answer,
    // whatever the number of tabs.
    expect(statements).toBe(2);
    expect(serialized).toHaveLength(1);
    for (const tab of tabs)
      expect(tab.results.at(-1)?.data?.notificationAdded.notification).toEqual({
        id: encodeGlobalID('Notification', sent.id),
        title: 'Location confirmed',
      });
    await Promise.all(clients.map((client) => client.dispose()));
  });
});

describe('subscriptions over server-sent events', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app?.close());

  /** Reads `data:` payloads from an event stream until `count` have arrived. */
  async function readEvents(response: Response, count: number, onEvent?: (index: number) => Promise<unknown>) {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const events: unknown[] = [];
    let buffer = '';
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .join('');
        if (data) {
          events.push(JSON.parse(data));
          await onEvent?.(events.length - 1);
        }
        end = buffer.indexOf('\n\n');
      }
    }
    await reader.cancel();
    return events;
  }

  it('streams the unread count to the signed-in user', async () => {
    const alice = await signedInUser(app);
    const response = await subscribeOverSse(app, alice.cookie, UNREAD);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await readEvents(response, 2, () => notify(app, alice.id));
    expect(events).toEqual([{ data: { unreadNotificationCount: 0 } }, { data: { unreadNotificationCount: 1 } }]);
  });

  it('closes a WebSocket subscription once its session ends', async () => {
    const server = await listen(app, { sessionCheckMs: 100 });
    const alice = await signedInUser(app);
    const client = wsClient(server.ws, { cookie: alice.cookie });
    const sub = collect<{ unreadNotificationCount: number }>(client, UNREAD);
    await sub.next(1);
    await app.database.prisma.session.deleteMany({ where: { userId: alice.id } });
    const { failure } = await sub.ended();
    expect(failure).toBeDefined();
    expect(client.closes).toContain(4401);
    await client.dispose();
    await server.close();
  });

  it('refuses a subscription without a session', async () => {
    const response = await subscribeOverSse(app, undefined, UNREAD);
    expect(response.status).toBe(401);
  });

  it('carries upload progress only to its owner', async () => {
    const alice = await signedInUser(app);
    const bob = await signedInUser(app);
    const live = await subscribeOverSse(
      app,
      alice.cookie,
      'subscription { uploadProgress { uploadId percent status } }',
    );
    const read = readEvents(live, 1);
    await new Promise((r) => setTimeout(r, 100));
    app.services.events.publish('upload:progress', bob.id, {
      uploadId: 'bobs',
      received: 1,
      total: 2,
      status: 'uploading',
    });
    app.services.events.publish('upload:progress', alice.id, {
      uploadId: 'alices',
      received: 50,
      total: 200,
      status: 'uploading',
    });
    expect(await read).toEqual([
      { data: { uploadProgress: { uploadId: 'alices', percent: 25, status: 'uploading' } } },
    ]);
  });
});

describe('a Redis outage', () => {
  // A Redis of our own, so stopping it disturbs nobody else's tests.
  let redis: ChildProcess | undefined;
  let port: number;
  let a: TestApp, b: TwoInstances['b'], serverA: Listening, serverB: Listening, close: () => Promise<void>;
  const logged: string[] = [];

  async function startRedis() {
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    // Ready when it answers a connection.
    for (let i = 0; i < 100; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        }).on('error', () => resolve(false));
      });
      if (ok) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not start');
  }

  async function stopRedis() {
    const child = redis;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  beforeAll(async () => {
    port = await freePort();
    await startRedis();
    // Instance A logs to our list: the outage must be reported.
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
    ({ a, b, serverA, serverB, close } = await twoInstances(`redis://127.0.0.1:${port}`, logger));
  });
  afterAll(async () => {
    await close?.();
    await stopRedis();
  });

  it('is logged, does not crash the app, and events flow again when Redis returns', async () => {
    const alice = await signedInUser(a);
    const onA = collect<{ notificationAdded: { notificationId: string } }>(
      wsClient(serverA.ws, { cookie: alice.cookie }),
      NOTIFICATION_ADDED,
    );
    const onB = collect<{ notificationAdded: { notificationId: string } }>(
      wsClient(serverB.ws, { cookie: alice.cookie }),
      NOTIFICATION_ADDED,
    );
    await until(
      () => onA.results.length > 0 && onB.results.length > 0,
      () => notify(a, alice.id),
    );

    await stopRedis();
    await new Promise((r) => setTimeout(r, 300));
    const heardOnA = onA.results.length;
    // Publishing while Redis is away neither throws nor goes unheard on this instance.
    await notify(a, alice.id, 'During the outage');
    await onA.next(heardOnA + 1);
    expect((await a.request('/api/health')).status).toBe(200);
    expect(logged.some((line) => line.includes('Redis is unreachable'))).toBe(true);

    await startRedis();
    await Promise.all([a.services.events.ready(), b.services.events.ready()]);
    const heardOnB = onB.results.length;
    await until(
      () => onB.results.length > heardOnB,
      () => notify(a, alice.id, 'After the outage'),
      10_000,
    );
    expect(logged.some((line) => line.includes('Redis is back'))).toBe(true);
  });
});
