import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser as User, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { call, finished, jpeg } from './testing.ts';

// Imports whose file names already exist in the target folder (issue #16): the same three choices
// as an upload, keepBoth when none is given.

let app: TestApp;
let importDir: string;

beforeAll(async () => {
  importDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-import-conflicts-'));
  await mkdir(path.join(importDir, 'day2'));
  await writeFile(path.join(importDir, 'barn.jpg'), await jpeg('#a03020'));
  await writeFile(path.join(importDir, 'day2', 'barn.jpg'), await jpeg('#2030a0'));
  await writeFile(path.join(importDir, 'diner.jpg'), await jpeg('#30a020'));
  app = await testApp({ IMPORT_DIR: importDir });
});
afterAll(async () => {
  await app.close();
  await rm(importDir, { recursive: true, force: true });
});

async function importInto(who: User, body: Record<string, unknown>) {
  const started = await call(app, who.cookie, 'POST', '/api/imports', { source: 'local', ...body });
  expect(started.status).toBe(202);
  return finished(app, who.cookie, started.body.id);
}

async function filesIn(who: User, folderId: string | null) {
  return app.database.prisma.file.findMany({
    where: { ownerId: who.id, folderId },
    orderBy: { name: 'asc' },
    include: { versions: true },
  });
}

describe('POST /api/imports onConflict', () => {
  it('keeps both by default and says under which name', async () => {
    const who = await signedInUser(app);
    await importInto(who, { itemIds: ['barn.jpg'] });
    const job = await importInto(who, { itemIds: ['day2/barn.jpg', 'diner.jpg'] });
    expect(job).toMatchObject({
      status: 'completed',
      imported: 2,
      skipped: [],
      replaced: [],
      renamed: [{ name: 'barn.jpg', storedAs: 'barn (1).jpg' }],
    });
    expect((await filesIn(who, null)).map((f) => f.name)).toEqual(['barn (1).jpg', 'barn.jpg', 'diner.jpg']);
  });

  it('replaces or skips when asked, for all or item by item; a replaced photo stays the same gallery item', async () => {
    const who = await signedInUser(app);
    const folder = await call(app, who.cookie, 'POST', '/api/folders', { name: 'Farm' });
    const first = await importInto(who, { itemIds: ['barn.jpg', 'diner.jpg'], folderId: folder.body.id });
    const [barn] = await filesIn(who, folder.body.id);
    const gallery = await call(app, who.cookie, 'POST', '/api/galleries', { name: 'Farm picks' });
    await call(app, who.cookie, 'POST', `/api/galleries/${gallery.body.id}/items`, { fileIds: first.fileIds });

    const replaced = await importInto(who, {
      itemIds: ['day2/barn.jpg', 'diner.jpg'],
      folderId: folder.body.id,
      onConflict: 'skip',
      onConflictByItem: { 'day2/barn.jpg': 'replace' },
    });
    expect(replaced).toMatchObject({
      status: 'completed',
      imported: 1,
      skipped: ['diner.jpg'],
      replaced: ['barn.jpg'],
    });
    expect(replaced.fileIds).toEqual([barn?.id]);
    const after = await filesIn(who, folder.body.id);
    expect(after.map((f) => [f.name, f.versions.length])).toEqual([
      ['barn.jpg', 2],
      ['diner.jpg', 1],
    ]);
    // The replaced photo changes in the gallery (it was asked for); nothing else was added.
    const items = await app.database.prisma.galleryItem.findMany({ where: { galleryId: gallery.body.id } });
    expect(items).toHaveLength(2);

    // Everything skipped is a finished job that filed nothing, not a failure; the bytes are released.
    const usage = async () => (await call(app, who.cookie, 'GET', '/api/storage/usage')).body.usedBytes as number;
    const before = await usage();
    const skipped = await importInto(who, { itemIds: ['barn.jpg'], folderId: folder.body.id, onConflict: 'skip' });
    expect(skipped).toMatchObject({ status: 'completed', imported: 0, skipped: ['barn.jpg'], failed: [] });
    expect(await usage()).toBe(before);
    expect(await filesIn(who, folder.body.id)).toHaveLength(2);
  });

  it('refuses an unknown choice before importing anything', async () => {
    const who = await signedInUser(app);
    const refused = await call(app, who.cookie, 'POST', '/api/imports', {
      source: 'local',
      itemIds: ['barn.jpg'],
      onConflict: 'merge',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('onConflict must be one of keepBoth, replace, skip.');
    const byItem = await call(app, who.cookie, 'POST', '/api/imports', {
      source: 'local',
      itemIds: ['barn.jpg'],
      onConflictByItem: { 'barn.jpg': 'merge' },
    });
    expect(byItem.status).toBe(400);
    expect(await app.database.prisma.importJob.count({ where: { userId: who.id } })).toBe(0);
  });
});
