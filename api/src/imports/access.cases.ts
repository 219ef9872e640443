import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase, strangersView } from '../../test/access-rows.ts';
import { encryptToken, importKeys, signState } from './oauth.ts';

// The server folder is shared by design (every signed-in user may import from it); what must stay
// private is each person's connections, jobs, and the folders and galleries imports go into.

async function dropFile(t: AccessHarness) {
  const dir = t.app.config.imports.dir as string;
  await writeFile(path.join(dir, 'access-case.txt'), 'Access case notes.\n');
  return 'access-case.txt';
}

async function ownersJob(t: AccessHarness) {
  return t.app.database.prisma.importJob.create({
    data: { userId: t.owner.id, source: 'local', total: 1, items: [{ id: 'a.txt', name: 'a.txt' }], fileIds: [] },
  });
}

async function ownersConnection(t: AccessHarness) {
  const key = importKeys(t.app.secret).tokenKey;
  await t.app.database.prisma.importConnection.upsert({
    where: { userId_provider: { userId: t.owner.id, provider: 'dropbox' } },
    create: { userId: t.owner.id, provider: 'dropbox', accessToken: encryptToken(key, 'owners-token') },
    update: {},
  });
}

async function ownerStillConnected(t: AccessHarness) {
  expect(await t.app.database.prisma.importConnection.count({ where: { userId: t.owner.id } })).toBe(1);
}

async function ownerFileCount(t: AccessHarness) {
  return t.app.database.prisma.file.count({ where: { ownerId: t.owner.id } });
}

/** A file the stranger dropped, and a folder or gallery of the owner's they would import it into. */
async function droppedFor(t: AccessHarness, kind: 'folder' | 'gallery') {
  const itemId = await dropFile(t);
  const data = { ownerId: t.owner.id, name: 'Owner only' };
  const db = t.app.database.prisma;
  const target = kind === 'folder' ? await db.folder.create({ data }) : await db.gallery.create({ data });
  return { itemId, target };
}

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/imports/sources',
    name: 'a stranger sees their own connections, not the owner’s',
    given: ownersConnection,
    expect: 'own-data-only',
    async unchanged(t) {
      const sources = (await strangersView(t, '/api/imports/sources')) as { id: string }[];
      expect(sources.find((s) => s.id === 'dropbox')).toMatchObject({ connected: false, account: null });
    },
  }),
  accessCase({
    route: 'GET /api/imports/:source/items',
    name: 'a stranger lists the shared server folder, never anything of the owner’s',
    given: dropFile,
    asks: () => '/api/imports/local/items',
    expect: 'own-data-only',
  }),
  accessCase({
    route: 'GET /api/imports/:source/items',
    name: 'a stranger cannot list a source through the owner’s connection',
    given: ownersConnection,
    // Dropbox is not set up on the test server; even where it is, the stranger has no tokens.
    asks: () => '/api/imports/dropbox/items',
    expect: 'not-found',
    unchanged: ownerStillConnected,
  }),
  accessCase({
    route: 'GET /api/imports/:source/thumbnail',
    name: 'a stranger cannot reach past the server folder for a thumbnail',
    asks: () => '/api/imports/local/thumbnail?id=..%2F..%2Fauth-secret',
    expect: 'not-found',
  }),
  accessCase({
    route: 'GET /api/imports/:source/connect',
    name: 'a stranger can only start a connection of their own (none for a source not set up)',
    given: ownersConnection,
    asks: () => '/api/imports/dropbox/connect',
    expect: 'not-found',
    unchanged: ownerStillConnected,
  }),
  accessCase({
    route: 'GET /api/imports/:source/callback',
    name: 'a stranger cannot finish a connection the owner started',
    asks(_, t) {
      const state = signState(importKeys(t.app.secret), {
        u: t.owner.id,
        s: 'dropbox',
        r: 'http://scoutbase.test/api/imports/dropbox/callback',
      });
      return `/api/imports/dropbox/callback?code=stolen&state=${encodeURIComponent(state)}`;
    },
    expect: 'refused',
  }),
  accessCase({
    route: 'DELETE /api/imports/:source/connection',
    name: 'a stranger disconnecting removes only their own connection',
    given: ownersConnection,
    asks: () => '/api/imports/dropbox/connection',
    expect: 'own-data-only',
    unchanged: ownerStillConnected,
  }),
  accessCase({
    route: 'POST /api/imports',
    name: 'a stranger cannot import into the owner’s folder',
    given: async (t) => ({ ...(await droppedFor(t, 'folder')), ownerFiles: await ownerFileCount(t) }),
    asks: ({ itemId, target }) => ({ body: { source: 'local', itemIds: [itemId], folderId: target.id } }),
    expect: 'not-found',
    async unchanged(t, { ownerFiles }) {
      expect(await ownerFileCount(t)).toBe(ownerFiles);
    },
  }),
  accessCase({
    route: 'POST /api/imports',
    name: 'a stranger cannot import into the owner’s gallery',
    given: (t) => droppedFor(t, 'gallery'),
    asks: ({ itemId, target }) => ({ body: { source: 'local', itemIds: [itemId], galleryId: target.id } }),
    expect: 'not-found',
    async unchanged(t) {
      const jobs = await t.app.database.prisma.importJob.count({ where: { userId: t.stranger.id } });
      expect(jobs).toBe(0);
    },
  }),
  accessCase({
    route: 'GET /api/imports/:id',
    name: 'a stranger cannot read the owner’s import job',
    given: ownersJob,
    asks: (job) => `/api/imports/${job.id}`,
    expect: 'not-found',
  }),
];
