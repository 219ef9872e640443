import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';
import { finishedUpload } from '../../test/fixtures.ts';
import { newFolder, uploadFile } from './testing.ts';

const db = (t: AccessHarness) => t.app.database.prisma;

/** A folder of the owner's with one of the owner's files in it. */
async function ownerFolderHolding(t: AccessHarness, folderName: string, fileName: string) {
  const folder = await newFolder(t.app, t.owner.cookie, folderName);
  await uploadFile(t.app, t.owner, { name: fileName, folderId: folder.id });
  return folder;
}

async function ownerFileKept(t: AccessHarness, file: { id: string }) {
  expect(await db(t).file.count({ where: { id: file.id } })).toBe(1);
}

/** A file of the owner's and one of the stranger's, for a bulk request that names both. */
async function ownersAndStrangers(t: AccessHarness, ownersName: string, strangersName: string) {
  const file = await uploadFile(t.app, t.owner, { name: ownersName });
  return { file, own: await uploadFile(t.app, t.stranger, { name: strangersName }) };
}

/** The stranger asks at `path(id)` about the owner's file `fileName` and is told it is not there. */
function ownersFileNotFound(
  route: string,
  name: string,
  fileName: string,
  path: (id: string) => string,
  unchanged?: (t: AccessHarness, file: { id: string }) => Promise<void>,
) {
  return accessCase<{ id: string }>({
    route,
    name,
    given: (t) => uploadFile(t.app, t.owner, { name: fileName }),
    asks: (file) => path(file.id),
    expect: 'not-found',
    unchanged,
  });
}

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/folders',
    name: "cannot list inside the owner's folder",
    async given(t) {
      const folder = await newFolder(t.app, t.owner.cookie, 'Owner scouting');
      await newFolder(t.app, t.owner.cookie, 'Owner day 1', folder.id);
      return folder;
    },
    asks: (folder) => `/api/folders?parentId=${folder.id}`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'POST /api/folders',
    name: "cannot create a folder inside the owner's folder",
    given: (t) => newFolder(t.app, t.owner.cookie, 'Owner only'),
    asks: (folder) => ({ body: { name: 'Intruder', parentId: folder.id } }),
    expect: 'not-found',
    async unchanged(t, folder) {
      expect(await db(t).folder.count({ where: { parentId: folder.id } })).toBe(0);
    },
  }),
  accessCase({
    route: 'GET /api/folders/:id',
    name: "cannot read the owner's folder",
    given: (t) => newFolder(t.app, t.owner.cookie, 'Owner read'),
    asks: (folder) => `/api/folders/${folder.id}`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'PATCH /api/folders/:id',
    name: "cannot rename or move the owner's folder",
    given: (t) => newFolder(t.app, t.owner.cookie, 'Keep this name'),
    asks: (folder) => ({ path: `/api/folders/${folder.id}`, body: { name: 'Taken over', parentId: null } }),
    expect: 'not-found',
    async unchanged(t, folder) {
      expect((await db(t).folder.findUniqueOrThrow({ where: { id: folder.id } })).name).toBe('Keep this name');
    },
  }),
  accessCase({
    route: 'DELETE /api/folders/:id',
    name: "cannot delete the owner's folder, even recursively",
    given: (t) => ownerFolderHolding(t, 'Keep this folder', 'inside.jpg'),
    asks: (folder) => `/api/folders/${folder.id}?recursive=true`,
    expect: 'not-found',
    async unchanged(t, folder) {
      expect(await db(t).folder.count({ where: { id: folder.id } })).toBe(1);
      expect(await db(t).file.count({ where: { folderId: folder.id } })).toBe(1);
    },
  }),
  accessCase({
    route: 'GET /api/files',
    name: "cannot list the owner's folder",
    given: (t) => ownerFolderHolding(t, 'Owner stills', 'listed.jpg'),
    asks: (folder) => `/api/files?folderId=${folder.id}`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'GET /api/files/recent',
    name: "recent files hold none of the owner's",
    given: (t) => uploadFile(t.app, t.owner, { name: 'recent-owner.jpg' }),
    expect: 'own-data-only',
  }),
  accessCase({
    route: 'GET /api/files/search',
    name: "search finds none of the owner's private files",
    given: (t) => uploadFile(t.app, t.owner, { name: 'zanzibar-private.jpg', tags: ['zanzibar'] }),
    asks: () => '/api/files/search?q=zanzibar',
    expect: 'empty-list',
  }),
  accessCase({
    route: 'GET /api/files/conflicts',
    name: "cannot ask which names are taken in the owner's folder",
    given: (t) => ownerFolderHolding(t, 'Owner names', 'taken.jpg'),
    asks: (folder) => `/api/files/conflicts?folderId=${folder.id}&names=taken.jpg`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'POST /api/files',
    name: "cannot claim the owner's upload",
    given: (t) => finishedUpload(t.app, t.owner.id),
    asks: (upload) => ({ body: { name: 'stolen.jpg', objectUrl: upload.uploadURL, folderId: null } }),
    expect: 'refused',
    async unchanged(t, upload) {
      expect((await db(t).upload.findUniqueOrThrow({ where: { id: upload.id } })).status).toBe('uploaded');
      expect(await db(t).file.count({ where: { name: 'stolen.jpg' } })).toBe(0);
    },
  }),
  ownersFileNotFound(
    'GET /api/files/:id',
    "cannot read the owner's private file",
    'private.jpg',
    (id) => `/api/files/${id}`,
  ),
  accessCase({
    route: 'PATCH /api/files/:id',
    name: "cannot change the owner's file",
    given: (t) => uploadFile(t.app, t.owner, { name: 'untouched.jpg', tags: ['keep'] }),
    asks: (file) => ({ path: `/api/files/${file.id}`, body: { tags: ['mine'], isPublic: true } }),
    expect: 'not-found',
    async unchanged(t, { id }) {
      const file = await db(t).file.findUniqueOrThrow({ where: { id } });
      expect(file.tags).toEqual(['keep']);
      expect(file.isPublic).toBe(false);
    },
  }),
  ownersFileNotFound(
    'DELETE /api/files/:id',
    "cannot delete the owner's file",
    'survivor.jpg',
    (id) => `/api/files/${id}`,
    ownerFileKept,
  ),
  ownersFileNotFound(
    'GET /api/files/:id/versions',
    "cannot list the owner's file versions",
    'versioned.jpg',
    (id) => `/api/files/${id}/versions`,
  ),
  accessCase({
    route: 'POST /api/files/:id/versions',
    name: "cannot add a version to the owner's file, even with an upload of their own",
    async given(t) {
      const file = await uploadFile(t.app, t.owner, { name: 'owner-only.jpg' }, { size: 333 });
      const upload = await finishedUpload(t.app, t.stranger.id, { size: 444 });
      return { file, upload };
    },
    asks: ({ file, upload }) => ({ path: `/api/files/${file.id}/versions`, body: { objectUrl: upload.uploadURL } }),
    expect: 'not-found',
    async unchanged(t, { file }) {
      expect((await db(t).file.findUniqueOrThrow({ where: { id: file.id } })).size).toBe(333n);
      expect(await db(t).fileVersion.count({ where: { fileId: file.id } })).toBe(1);
    },
  }),
  accessCase({
    route: 'POST /api/files/:id/versions/:version/restore',
    name: "cannot restore a version of the owner's file",
    async given(t) {
      await uploadFile(t.app, t.owner, { name: 'restorable.jpg' }, { size: 111 });
      return uploadFile(t.app, t.owner, { name: 'restorable.jpg', onConflict: 'replace' }, { size: 222 });
    },
    asks: (file) => `/api/files/${file.id}/versions/1/restore`,
    expect: 'not-found',
    async unchanged(t, file) {
      expect((await db(t).file.findUniqueOrThrow({ where: { id: file.id } })).size).toBe(222n);
    },
  }),
  accessCase({
    route: 'POST /api/files/move',
    name: "cannot move the owner's files, even together with their own",
    async given(t) {
      const files = await ownersAndStrangers(t, 'stays-put.jpg', 'strangers-own.jpg');
      return { ...files, into: await newFolder(t.app, t.stranger.cookie, 'Stranger bulk target') };
    },
    asks: ({ file, own, into }) => ({ body: { ids: [own.id, file.id], folderId: into.id } }),
    expect: 'not-found',
    async unchanged(t, { file }) {
      expect((await db(t).file.findUniqueOrThrow({ where: { id: file.id } })).folderId).toBeNull();
    },
  }),
  accessCase({
    route: 'POST /api/files/delete',
    name: "cannot delete the owner's files, even together with their own",
    given: (t) => ownersAndStrangers(t, 'bulk-survivor.jpg', 'strangers-doomed.jpg'),
    asks: ({ file, own }) => ({ body: { ids: [own.id, file.id] } }),
    expect: 'not-found',
    unchanged: (t, { file }) => ownerFileKept(t, file),
  }),
  ownersFileNotFound(
    'GET /api/files/archive',
    "cannot download the owner's private files in a ZIP",
    'zipped-private.jpg',
    (id) => `/api/files/archive?ids=${id}`,
  ),
];
