import type { AccessCase } from '../../test/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /api/map/config',
    name: 'where map tiles come from is for signed-in people only, and holds nobody’s data',
    async arrange() {
      return { method: 'GET', path: '/api/map/config' };
    },
    expect: 'own-data-only',
  },
];
