import { expect } from 'vitest';
import type { AccessCase } from '../../test/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /api/dashboard/stats',
    name: "counts none of the owner's things",
    async arrange(t) {
      await t.app.database.prisma.gallery.create({ data: { ownerId: t.owner.id, name: 'Owner gallery' } });
      await t.app.database.prisma.task.create({ data: { creatorId: t.owner.id, title: 'Owner pending' } });
      return { method: 'GET', path: '/api/dashboard/stats' };
    },
    expect: 'own-data-only',
    async unchanged(t) {
      const response = await t.app.request('/api/dashboard/stats', { cookie: t.stranger.cookie });
      const db = t.app.database.prisma;
      expect(await response.json()).toMatchObject({
        totalGalleries: await db.gallery.count({ where: { ownerId: t.stranger.id } }),
        pendingTasks: await db.task.count({
          where: { status: 'pending', OR: [{ creatorId: t.stranger.id }, { assigneeId: t.stranger.id }] },
        }),
      });
    },
  },
];
