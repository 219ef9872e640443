import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase, strangersView } from '../../test/access-rows.ts';
import { writeNotification } from './rules.ts';

async function ownerNotification(t: AccessHarness) {
  return writeNotification(t.app.database.prisma, {
    userId: t.owner.id,
    type: 'task',
    title: 'For the owner',
    message: 'Only the owner may read this.',
  });
}

async function stillUnread(t: AccessHarness, { id }: { id: string }) {
  const n = await t.app.database.prisma.notification.findUniqueOrThrow({ where: { id } });
  expect(n.isRead).toBe(false);
}

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/notifications',
    name: "lists none of the owner's notifications",
    given: ownerNotification,
    expect: 'own-data-only',
    async unchanged(t, { id }) {
      expect(JSON.stringify(await strangersView(t, '/api/notifications'))).not.toContain(id);
    },
  }),
  accessCase({
    route: 'GET /api/notifications/unread-count',
    name: "does not count the owner's notifications",
    given: ownerNotification,
    expect: 'own-data-only',
    async unchanged(t) {
      expect(await strangersView(t, '/api/notifications/unread-count')).toEqual({
        count: await t.app.database.prisma.notification.count({ where: { userId: t.stranger.id, isRead: false } }),
      });
    },
  }),
  accessCase({
    route: 'PATCH /api/notifications/:id/read',
    name: "cannot mark the owner's notification read",
    given: ownerNotification,
    asks: (notification) => `/api/notifications/${notification.id}/read`,
    expect: 'not-found',
    unchanged: stillUnread,
  }),
  accessCase({
    route: 'PATCH /api/notifications/read-all',
    name: "marks only the stranger's own notifications read",
    given: ownerNotification,
    expect: 'own-data-only',
    unchanged: stillUnread,
  }),
];
