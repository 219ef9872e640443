import type { AccessCase } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/map/config',
    name: 'where map tiles come from is for signed-in people only, and holds nobody’s data',
    expect: 'own-data-only',
  }),
];
