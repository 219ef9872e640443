import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
import { writeNotification } from './rules.ts';

let app: TestApp, alice: User, bob: User;
beforeAll(async () => {
  [app, alice, bob] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

async function call(user: User | null, method: string, path: string) {
  const response = await app.request(path, { method, cookie: user?.cookie });
  return { status: response.status, body: await response.json() };
}

async function notify(user: User, title: string, createdAt: Date) {
  const n = await writeNotification(app.database.prisma, {
    userId: user.id,
    type: 'task',
    title,
    message: `${title}!`,
  });
  await app.database.prisma.notification.update({ where: { id: n.id }, data: { createdAt } });
  return n;
}

describe('notifications over REST', () => {
  it('lists only the viewer’s own, newest first, and counts unread', async () => {
    const t0 = Date.now();
    await notify(alice, 'older', new Date(t0 - 60_000));
    await notify(alice, 'newest', new Date(t0));
    await notify(alice, 'middle', new Date(t0 - 30_000));
    await notify(bob, 'for bob', new Date(t0));

    const list = await call(alice, 'GET', '/api/notifications');
    expect(list.status).toBe(200);
    expect(list.body.map((n: { title: string }) => n.title)).toEqual(['newest', 'middle', 'older']);
    expect(list.body[0]).toEqual({
      id: expect.any(String),
      type: 'task',
      title: 'newest',
      message: 'newest!',
      isRead: false,
      link: null,
      createdAt: expect.any(String),
    });
    expect((await call(alice, 'GET', '/api/notifications?limit=2')).body).toHaveLength(2);
    expect((await call(alice, 'GET', '/api/notifications?limit=0')).status).toBe(400);
    expect((await call(alice, 'GET', '/api/notifications?limit=abc')).status).toBe(400);
    expect((await call(alice, 'GET', '/api/notifications/unread-count')).body).toEqual({ count: 3 });
    expect((await call(bob, 'GET', '/api/notifications/unread-count')).body).toEqual({ count: 1 });
  });

  it('marks one read, publishes it, and refuses someone else’s with a 404', async () => {
    const mine = await notify(alice, 'read me', new Date());
    const bobs = await notify(bob, 'not yours', new Date());
    const before = (await call(alice, 'GET', '/api/notifications/unread-count')).body.count;

    const iterator = app.services.events.subscribe('notification:read', alice.id)[Symbol.asyncIterator]();
    const event = iterator.next();
    const res = await call(alice, 'PATCH', `/api/notifications/${mine.id}/read`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: mine.id, isRead: true });
    expect((await event).value).toEqual({ ids: [mine.id] });
    await iterator.return?.();

    expect((await call(alice, 'GET', '/api/notifications/unread-count')).body.count).toBe(before - 1);
    // Marking twice is fine.
    expect((await call(alice, 'PATCH', `/api/notifications/${mine.id}/read`)).status).toBe(200);

    const stolen = await call(alice, 'PATCH', `/api/notifications/${bobs.id}/read`);
    expect(stolen.status).toBe(404);
    expect(stolen.body.message).toBe('Notification not found');
    expect((await app.database.prisma.notification.findUniqueOrThrow({ where: { id: bobs.id } })).isRead).toBe(false);
    expect((await call(alice, 'PATCH', '/api/notifications/nope/read')).status).toBe(404);
  });

  it('read-all marks only the viewer’s and publishes it', async () => {
    await notify(alice, 'a1', new Date());
    await notify(bob, 'b1', new Date());
    const bobUnread = (await call(bob, 'GET', '/api/notifications/unread-count')).body.count;
    expect(bobUnread).toBeGreaterThan(0);

    const iterator = app.services.events.subscribe('notification:read', alice.id)[Symbol.asyncIterator]();
    const event = iterator.next();
    const res = await call(alice, 'PATCH', '/api/notifications/read-all');
    expect(res.status).toBe(200);
    expect(res.body.updated).toBeGreaterThan(0);
    expect((await event).value).toEqual({ all: true });
    await iterator.return?.();

    expect((await call(alice, 'GET', '/api/notifications/unread-count')).body).toEqual({ count: 0 });
    expect((await call(alice, 'GET', '/api/notifications')).body.every((n: { isRead: boolean }) => n.isRead)).toBe(
      true,
    );
    expect((await call(bob, 'GET', '/api/notifications/unread-count')).body).toEqual({ count: bobUnread });
    expect((await call(alice, 'GET', '/api/notifications?unread=true')).body).toEqual([]);
  });
});

describe('notifications over GraphQL', () => {
  it('pages the connection, counts unread and marks read with typed errors', async () => {
    const carol = await signedInUser(app);
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) await notify(carol, `n${i}`, new Date(t0 + i * 1000));
    const other = await notify(bob, 'hidden', new Date());

    const first = await graphql<{
      notifications: {
        totalCount: number;
        edges: { node: { id: string; title: string } }[];
        pageInfo: { endCursor: string; hasNextPage: boolean };
      };
      unreadNotificationCount: number;
    }>(
      app,
      carol.cookie,
      '{ notifications(first: 2) { totalCount edges { node { id title isRead type } } pageInfo { endCursor hasNextPage } } unreadNotificationCount }',
    );
    expect(first.errors).toBeUndefined();
    expect(first.data?.notifications.edges.map((e) => e.node.title)).toEqual(['n2', 'n1']);
    expect(first.data?.notifications.totalCount).toBe(3);
    expect(first.data?.unreadNotificationCount).toBe(3);
    const next = await graphql<{ notifications: { edges: { node: { title: string } }[] } }>(
      app,
      carol.cookie,
      'query($after: String) { notifications(first: 2, after: $after) { edges { node { title } } } }',
      { after: first.data?.notifications.pageInfo.endCursor },
    );
    expect(next.data?.notifications.edges.map((e) => e.node.title)).toEqual(['n0']);

    const nodeId = first.data?.notifications.edges[0]?.node.id;
    const marked = await graphql<{ markNotificationRead: { data: { isRead: boolean } } }>(
      app,
      carol.cookie,
      'mutation($id: ID!) { markNotificationRead(id: $id) { ... on MutationMarkNotificationReadSuccess { data { isRead } } } }',
      { id: nodeId },
    );
    expect(marked.data?.markNotificationRead.data.isRead).toBe(true);

    const foreign = Buffer.from(`Notification:${other.id}`).toString('base64');
    const refused = await graphql<{ markNotificationRead: { __typename: string; code: string } }>(
      app,
      carol.cookie,
      'mutation($id: ID!) { markNotificationRead(id: $id) { __typename ... on Error { code } } }',
      { id: foreign },
    );
    expect(refused.data?.markNotificationRead).toEqual({ __typename: 'BaseError', code: 'NOT_FOUND' });
    const peek = await graphql<{ node: unknown }>(app, carol.cookie, `{ node(id: "${foreign}") { id } }`);
    expect(peek.data?.node).toBeNull();

    const all = await graphql<{ markAllNotificationsRead: { data: number } }>(
      app,
      carol.cookie,
      'mutation { markAllNotificationsRead { ... on MutationMarkAllNotificationsReadSuccess { data } } }',
    );
    expect(all.data?.markAllNotificationsRead.data).toBe(2);
    const after = await graphql<{ unreadNotificationCount: number }>(app, carol.cookie, '{ unreadNotificationCount }');
    expect(after.data?.unreadNotificationCount).toBe(0);
    expect((await app.database.prisma.notification.findUniqueOrThrow({ where: { id: other.id } })).isRead).toBe(false);
  });
});
