import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { finishedUpload } from '../../test/fixtures.ts';
import { newFolder, uploadFile } from './testing.ts';

const db = (t: AccessHarness) => t.app.database.prisma;

/** A row whose arrange step remembers the owner's record, so unchanged() can check it. */
function withOwnerRecord(build: (state: { id: string }) => AccessCase): AccessCase {
  return build({ id: '' });
}

export const accessCases: AccessCase[] = [
  {
    route: 'GET /api/folders',
    name: "cannot list inside the owner's folder",
    async arrange(t) {
      const folder = await newFolder(t.app, t.owner.cookie, 'Owner scouting');
      await newFolder(t.app, t.owner.cookie, 'Owner day 1', folder.id);
      return { method: 'GET', path: `/api/folders?parentId=${folder.id}` };
    },
    expect: 'not-found',
  },
  withOwnerRecord((state) => ({
    route: 'POST /api/folders',
    name: "cannot create a folder inside the owner's folder",
    async arrange(t) {
      state.id = (await newFolder(t.app, t.owner.cookie, 'Owner only')).id;
      return { method: 'POST', path: '/api/folders', body: { name: 'Intruder', parentId: state.id } };
    },
    expect: 'not-found',
    async unchanged(t) {
      expect(await db(t).folder.count({ where: { parentId: state.id } })).toBe(0);
    },
  })),
  {
    route: 'GET /api/folders/:id',
    name: "cannot read the owner's folder",
    async arrange(t) {
      const folder = await newFolder(t.app, t.owner.cookie, 'Owner read');
      return { method: 'GET', path: `/api/folders/${folder.id}` };
    },
    expect: 'not-found',
  },
  withOwnerRecord((state) => ({
    route: 'PATCH /api/folders/:id',
    name: "cannot rename or move the owner's folder",
    async arrange(t) {
      state.id = (await newFolder(t.app, t.owner.cookie, 'Keep this name')).id;
      return { method: 'PATCH', path: `/api/folders/${state.id}`, body: { name: 'Taken over', parentId: null } };
    },
    expect: 'not-found',
    async unchanged(t) {
      expect((await db(t).folder.findUniqueOrThrow({ where: { id: state.id } })).name).toBe('Keep this name');
    },
  })),
  withOwnerRecord((state) => ({
    route: 'DELETE /api/folders/:id',
    name: "cannot delete the owner's folder, even recursively",
    async arrange(t) {
      state.id = (await newFolder(t.app, t.owner.cookie, 'Keep this folder')).id;
      await uploadFile(t.app, t.owner, { name: 'inside.jpg', folderId: state.id });
      return { method: 'DELETE', path: `/api/folders/${state.id}?recursive=true` };
    },
    expect: 'not-found',
    async unchanged(t) {
      expect(await db(t).folder.count({ where: { id: state.id } })).toBe(1);
      expect(await db(t).file.count({ where: { folderId: state.id } })).toBe(1);
    },
  })),
  {
    route: 'GET /api/files',
    name: "cannot list the owner's folder",
    async arrange(t) {
      const folder = await newFolder(t.app, t.owner.cookie, 'Owner stills');
      await uploadFile(t.app, t.owner, { name: 'listed.jpg', folderId: folder.id });
      return { method: 'GET', path: `/api/files?folderId=${folder.id}` };
    },
    expect: 'not-found',
  },
  {
    route: 'GET /api/files/recent',
    name: "recent files hold none of the owner's",
    async arrange(t) {
      await uploadFile(t.app, t.owner, { name: 'recent-owner.jpg' });
      return { method: 'GET', path: '/api/files/recent' };
    },
    expect: 'own-data-only',
  },
  {
    route: 'GET /api/files/search',
    name: "search finds none of the owner's private files",
    async arrange(t) {
      await uploadFile(t.app, t.owner, { name: 'zanzibar-private.jpg', tags: ['zanzibar'] });
      return { method: 'GET', path: '/api/files/search?q=zanzibar' };
    },
    expect: 'empty-list',
  },
  {
    route: 'GET /api/files/conflicts',
    name: "cannot ask which names are taken in the owner's folder",
    async arrange(t) {
      const folder = await newFolder(t.app, t.owner.cookie, 'Owner names');
      await uploadFile(t.app, t.owner, { name: 'taken.jpg', folderId: folder.id });
      return { method: 'GET', path: `/api/files/conflicts?folderId=${folder.id}&names=taken.jpg` };
    },
    expect: 'not-found',
  },
  withOwnerRecord((state) => ({
    route: 'POST /api/files',
    name: "cannot claim the owner's upload",
    async arrange(t) {
      const upload = await finishedUpload(t.app, t.owner.id);
      state.id = upload.id;
      return {
        method: 'POST',
        path: '/api/files',
        body: { name: 'stolen.jpg', objectUrl: upload.uploadURL, folderId: null },
      };
    },
    expect: 'refused',
    async unchanged(t) {
      expect((await db(t).upload.findUniqueOrThrow({ where: { id: state.id } })).status).toBe('uploaded');
      expect(await db(t).file.count({ where: { name: 'stolen.jpg' } })).toBe(0);
    },
  })),
  {
    route: 'GET /api/files/:id',
    name: "cannot read the owner's private file",
    async arrange(t) {
      const file = await uploadFile(t.app, t.owner, { name: 'private.jpg' });
      return { method: 'GET', path: `/api/files/${file.id}` };
    },
    expect: 'not-found',
  },
  withOwnerRecord((state) => ({
    route: 'PATCH /api/files/:id',
    name: "cannot change the owner's file",
    async arrange(t) {
      state.id = (await uploadFile(t.app, t.owner, { name: 'untouched.jpg', tags: ['keep'] })).id;
      return { method: 'PATCH', path: `/api/files/${state.id}`, body: { tags: ['mine'], isPublic: true } };
    },
    expect: 'not-found',
    async unchanged(t) {
      const file = await db(t).file.findUniqueOrThrow({ where: { id: state.id } });
      expect(file.tags).toEqual(['keep']);
      expect(file.isPublic).toBe(false);
    },
  })),
  withOwnerRecord((state) => ({
    route: 'DELETE /api/files/:id',
    name: "cannot delete the owner's file",
    async arrange(t) {
      state.id = (await uploadFile(t.app, t.owner, { name: 'survivor.jpg' })).id;
      return { method: 'DELETE', path: `/api/files/${state.id}` };
    },
    expect: 'not-found',
    async unchanged(t) {
      expect(await db(t).file.count({ where: { id: state.id } })).toBe(1);
    },
  })),
  {
    route: 'GET /api/files/:id/versions',
    name: "cannot list the owner's file versions",
    async arrange(t) {
      const file = await uploadFile(t.app, t.owner, { name: 'versioned.jpg' });
      return { method: 'GET', path: `/api/files/${file.id}/versions` };
    },
    expect: 'not-found',
  },
  withOwnerRecord((state) => ({
    route: 'POST /api/files/:id/versions',
    name: "cannot add a version to the owner's file, even with an upload of their own",
    async arrange(t) {
      state.id = (await uploadFile(t.app, t.owner, { name: 'owner-only.jpg' }, { size: 333 })).id;
      const upload = await finishedUpload(t.app, t.stranger.id, { size: 444 });
      return { method: 'POST', path: `/api/files/${state.id}/versions`, body: { objectUrl: upload.uploadURL } };
    },
    expect: 'not-found',
    async unchanged(t) {
      expect((await db(t).file.findUniqueOrThrow({ where: { id: state.id } })).size).toBe(333n);
      expect(await db(t).fileVersion.count({ where: { fileId: state.id } })).toBe(1);
    },
  })),
  withOwnerRecord((state) => ({
    route: 'POST /api/files/:id/versions/:version/restore',
    name: "cannot restore a version of the owner's file",
    async arrange(t) {
      await uploadFile(t.app, t.owner, { name: 'restorable.jpg' }, { size: 111 });
      const again = await uploadFile(t.app, t.owner, { name: 'restorable.jpg', onConflict: 'replace' }, { size: 222 });
      state.id = again.id;
      return { method: 'POST', path: `/api/files/${state.id}/versions/1/restore` };
    },
    expect: 'not-found',
    async unchanged(t) {
      expect((await db(t).file.findUniqueOrThrow({ where: { id: state.id } })).size).toBe(222n);
    },
  })),
  withOwnerRecord((state) => ({
    route: 'POST /api/files/move',
    name: "cannot move the owner's files, even together with their own",
    async arrange(t) {
      state.id = (await uploadFile(t.app, t.owner, { name: 'stays-put.jpg' })).id;
      const own = await uploadFile(t.app, t.stranger, { name: 'strangers-own.jpg' });
      const into = await newFolder(t.app, t.stranger.cookie, 'Stranger bulk target');
      return { method: 'POST', path: '/api/files/move', body: { ids: [own.id, state.id], folderId: into.id } };
    },
    expect: 'not-found',
    async unchanged(t) {
      expect((await db(t).file.findUniqueOrThrow({ where: { id: state.id } })).folderId).toBeNull();
    },
  })),
  withOwnerRecord((state) => ({
    route: 'POST /api/files/delete',
    name: "cannot delete the owner's files, even together with their own",
    async arrange(t) {
      state.id = (await uploadFile(t.app, t.owner, { name: 'bulk-survivor.jpg' })).id;
      const own = await uploadFile(t.app, t.stranger, { name: 'strangers-doomed.jpg' });
      return { method: 'POST', path: '/api/files/delete', body: { ids: [own.id, state.id] } };
    },
    expect: 'not-found',
    async unchanged(t) {
      expect(await db(t).file.count({ where: { id: state.id } })).toBe(1);
    },
  })),
  {
    route: 'GET /api/files/archive',
    name: "cannot download the owner's private files in a ZIP",
    async arrange(t) {
      const file = await uploadFile(t.app, t.owner, { name: 'zipped-private.jpg' });
      return { method: 'GET', path: `/api/files/archive?ids=${file.id}` };
    },
    expect: 'not-found',
  },
];
