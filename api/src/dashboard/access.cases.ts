import { expect } from 'vitest';
import type { AccessCase } from '../../test/access.ts';
import { accessCase, strangersView } from '../../test/access-rows.ts';

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/dashboard/stats',
    name: "counts none of the owner's things",
    async given(t) {
      await t.app.database.prisma.gallery.create({ data: { ownerId: t.owner.id, name: 'Owner gallery' } });
      await t.app.database.prisma.task.create({ data: { creatorId: t.owner.id, title: 'Owner pending' } });
    },
    expect: 'own-data-only',
    async unchanged(t) {
      const db = t.app.database.prisma;
      expect(await strangersView(t, '/api/dashboard/stats')).toMatchObject({
        totalGalleries: await db.gallery.count({ where: { ownerId: t.stranger.id } }),
        pendingTasks: await db.task.count({
          where: { status: 'pending', OR: [{ creatorId: t.stranger.id }, { assigneeId: t.stranger.id }] },
        }),
      });
    },
  }),
];
