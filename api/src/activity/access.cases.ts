import type { AccessCase } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';
import { recordActivity } from './rules.ts';

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/activity',
    name: "shows none of the owner's private activity",
    async given(t) {
      await recordActivity(t.app.database.prisma, {
        userId: t.owner.id,
        action: 'folder_created',
        resourceType: 'folder',
        resourceName: 'Owner folder',
      });
    },
    expect: 'own-data-only',
  }),
];
