import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { writeNotification } from './rules.ts';

async function ownerNotification(t: AccessHarness) {
  return writeNotification(t.app.database.prisma, {
    userId: t.owner.id,
    type: 'task',
    title: 'For the owner',
    message: 'Only the owner may read this.',
  });
}

let lastId = '';
const stillUnread = async (t: AccessHarness) => {
  const n = await t.app.database.prisma.notification.findUniqueOrThrow({ where: { id: lastId } });
  expect(n.isRead).toBe(false);
};

export const accessCases: AccessCase[] = [
  {
    route: 'GET /api/notifications',
    name: "lists none of the owner's notifications",
    async arrange(t) {
      lastId = (await ownerNotification(t)).id;
      return { method: 'GET', path: '/api/notifications' };
    },
    expect: 'own-data-only',
    async unchanged(t) {
      const response = await t.app.request('/api/notifications', { cookie: t.stranger.cookie });
      expect(JSON.stringify(await response.json())).not.toContain(lastId);
    },
  },
  {
    route: 'GET /api/notifications/unread-count',
    name: "does not count the owner's notifications",
    async arrange(t) {
      await ownerNotification(t);
      return { method: 'GET', path: '/api/notifications/unread-count' };
    },
    expect: 'own-data-only',
    async unchanged(t) {
      const response = await t.app.request('/api/notifications/unread-count', { cookie: t.stranger.cookie });
      expect(await response.json()).toEqual({
        count: await t.app.database.prisma.notification.count({ where: { userId: t.stranger.id, isRead: false } }),
      });
    },
  },
  {
    route: 'PATCH /api/notifications/:id/read',
    name: "cannot mark the owner's notification read",
    async arrange(t) {
      lastId = (await ownerNotification(t)).id;
      return { method: 'PATCH', path: `/api/notifications/${lastId}/read` };
    },
    expect: 'not-found',
    unchanged: stillUnread,
  },
  {
    route: 'PATCH /api/notifications/read-all',
    name: "marks only the stranger's own notifications read",
    async arrange(t) {
      lastId = (await ownerNotification(t)).id;
      return { method: 'PATCH', path: '/api/notifications/read-all' };
    },
    expect: 'own-data-only',
    unchanged: stillUnread,
  },
];
