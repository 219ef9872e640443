import { expect } from 'vitest';
import type { AccessCase } from '../../test/access.ts';
import { uploaded } from './testing.ts';

let ownersUploads = 0;

export const accessCases: AccessCase[] = [
  {
    route: 'POST /api/objects/upload',
    name: 'a stranger gets an upload URL of their own, never one into the owner’s storage',
    async arrange({ app, owner }) {
      ownersUploads = await app.database.prisma.upload.count({ where: { userId: owner.id } });
      return { method: 'POST', path: '/api/objects/upload' };
    },
    expect: 'own-data-only',
    async unchanged({ app, owner }) {
      expect(await app.database.prisma.upload.count({ where: { userId: owner.id } })).toBe(ownersUploads);
    },
  },
  {
    route: 'GET /api/storage/usage',
    name: 'a stranger sees their own usage, not the owner’s',
    async arrange({ app, owner }) {
      await uploaded(app, owner, 'call sheet for day two\n');
      return { method: 'GET', path: '/api/storage/usage' };
    },
    expect: 'own-data-only',
  },
];
