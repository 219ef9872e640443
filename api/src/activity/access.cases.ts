import type { AccessCase } from '../../test/access.ts';
import { recordActivity } from './rules.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /api/activity',
    name: "shows none of the owner's private activity",
    async arrange(t) {
      await recordActivity(t.app.database.prisma, {
        userId: t.owner.id,
        action: 'folder_created',
        resourceType: 'folder',
        resourceName: 'Owner folder',
      });
      return { method: 'GET', path: '/api/activity' };
    },
    expect: 'own-data-only',
  },
];
