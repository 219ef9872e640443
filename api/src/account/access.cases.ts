import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';
import { unzip } from '../../test/zip.ts';

// A person's own data: every route acts on whoever is signed in, and nothing in a request names
// anyone else. The stranger's export and preview hold none of the owner's records; a deletion
// with the stranger's own session never reaches the owner (and, refused, not even the stranger).

async function ownerGallery(t: AccessHarness) {
  return t.app.database.prisma.gallery.create({
    data: { ownerId: t.owner.id, name: 'Owner only', description: 'private to the owner' },
  });
}

async function ownerStillHere(t: AccessHarness) {
  expect(await t.app.database.prisma.user.count({ where: { id: t.owner.id } })).toBe(1);
  expect((await t.app.request('/api/auth/user', { cookie: t.owner.cookie })).status).toBe(200);
}

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/account/export',
    name: "exports the stranger's own data, nothing of the owner's",
    given: ownerGallery,
    expect: 'own-data-only',
    async unchanged(t, gallery) {
      // The answer is a ZIP: read every entry, not the raw bytes.
      const response = await t.app.request('/api/account/export', { cookie: t.stranger.cookie });
      const entries = await unzip(Buffer.from(await response.arrayBuffer()));
      const text = [...entries.values()].map((b) => b.toString('utf8')).join('\n');
      expect(text).toContain(t.stranger.id);
      for (const secret of [t.owner.id, t.owner.email, gallery.id, 'private to the owner']) {
        expect(text).not.toContain(secret);
      }
    },
  }),
  accessCase({
    route: 'GET /api/account/deletion-preview',
    name: "previews the stranger's own account, not the owner's",
    given: ownerGallery,
    expect: 'own-data-only',
    async unchanged(t) {
      const response = await t.app.request('/api/account/deletion-preview', { cookie: t.stranger.cookie });
      expect(await response.json()).toMatchObject({ email: t.stranger.email, galleries: 0 });
    },
  }),
  accessCase({
    route: 'DELETE /api/account',
    name: 'takes no one to delete but the signed-in person (an id in the body is refused)',
    asks: (_given, t) => ({ body: { userId: t.owner.id, password: t.owner.password } }),
    expect: 'refused',
    unchanged: ownerStillHere,
  }),
  accessCase({
    route: 'DELETE /api/account',
    name: 'a wrong password deletes nobody',
    asks: (_given, t) => ({ body: { password: `${t.stranger.password} but wrong` } }),
    expect: 'refused',
    async unchanged(t) {
      await ownerStillHere(t);
      expect(await t.app.database.prisma.user.count({ where: { id: t.stranger.id } })).toBe(1);
    },
  }),
];
