import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { call, makeFile, makeGallery, makeProject } from './testing.ts';

async function galleryWithPhoto(t: AccessHarness) {
  const gallery = await makeGallery(t.app, t.owner.cookie, { name: 'Owner gallery' });
  const file = await makeFile(t.app, t.owner.id);
  const added = await call(t.app, t.owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [file.id] });
  expect(added.status).toBe(201);
  return { gallery, file };
}

const db = (t: AccessHarness) => t.app.database.prisma;

export const accessCases: AccessCase[] = [
  {
    route: 'GET /api/galleries',
    name: "the list holds none of the owner's galleries",
    async arrange(t) {
      await makeGallery(t.app, t.owner.cookie, { name: 'Hidden loft', tags: 'secret' });
      return { method: 'GET', path: '/api/galleries?search=secret' };
    },
    expect: 'own-data-only',
  },
  {
    route: 'POST /api/galleries',
    name: 'creates a gallery of their own only',
    async arrange() {
      return { method: 'POST', path: '/api/galleries', body: { name: 'Stranger gallery' } };
    },
    expect: 'own-data-only',
  },
  {
    route: 'GET /api/galleries/:id',
    name: "cannot read the owner's gallery",
    async arrange(t) {
      const g = await makeGallery(t.app, t.owner.cookie);
      return { method: 'GET', path: `/api/galleries/${g.id}` };
    },
    expect: 'not-found',
  },
  ...(() => {
    let id = '';
    return [
      {
        route: 'PATCH /api/galleries/:id',
        name: "cannot edit the owner's gallery",
        async arrange(t: AccessHarness) {
          id = (await makeGallery(t.app, t.owner.cookie, { name: 'Keep me' })).id;
          return { method: 'PATCH' as const, path: `/api/galleries/${id}`, body: { name: 'Taken over' } };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect((await db(t).gallery.findUniqueOrThrow({ where: { id } })).name).toBe('Keep me');
        },
      },
    ];
  })(),
  ...(() => {
    let id = '';
    return [
      {
        route: 'DELETE /api/galleries/:id',
        name: "cannot delete the owner's gallery",
        async arrange(t: AccessHarness) {
          id = (await makeGallery(t.app, t.owner.cookie)).id;
          return { method: 'DELETE' as const, path: `/api/galleries/${id}` };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect(await db(t).gallery.count({ where: { id } })).toBe(1);
        },
      },
    ];
  })(),
  {
    route: 'GET /api/galleries/:id/items',
    name: "cannot list the owner's photos",
    async arrange(t) {
      const { gallery } = await galleryWithPhoto(t);
      return { method: 'GET', path: `/api/galleries/${gallery.id}/items` };
    },
    expect: 'not-found',
  },
  ...(() => {
    let id = '';
    return [
      {
        route: 'POST /api/galleries/:id/items',
        name: "cannot add files to the owner's gallery",
        async arrange(t: AccessHarness) {
          id = (await makeGallery(t.app, t.owner.cookie)).id;
          const mine = await makeFile(t.app, t.stranger.id);
          return { method: 'POST' as const, path: `/api/galleries/${id}/items`, body: { fileIds: [mine.id] } };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect(await db(t).galleryItem.count({ where: { galleryId: id } })).toBe(0);
        },
      },
    ];
  })(),
  ...(() => {
    let id = '';
    return [
      {
        route: 'PATCH /api/galleries/:id/items/:fileId',
        name: "cannot reorder the owner's photos",
        async arrange(t: AccessHarness) {
          const { gallery, file } = await galleryWithPhoto(t);
          id = gallery.id;
          return {
            method: 'PATCH' as const,
            path: `/api/galleries/${gallery.id}/items/${file.id}`,
            body: { beforeFileId: null },
          };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect((await db(t).galleryItem.findFirstOrThrow({ where: { galleryId: id } })).position).toBe(0);
        },
      },
    ];
  })(),
  ...(() => {
    let id = '';
    return [
      {
        route: 'DELETE /api/galleries/:id/items/:fileId',
        name: "cannot take photos out of the owner's gallery",
        async arrange(t: AccessHarness) {
          const { gallery, file } = await galleryWithPhoto(t);
          id = gallery.id;
          return { method: 'DELETE' as const, path: `/api/galleries/${gallery.id}/items/${file.id}` };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect(await db(t).galleryItem.count({ where: { galleryId: id } })).toBe(1);
        },
      },
    ];
  })(),
  {
    route: 'GET /api/galleries/:id/shares',
    name: "cannot see who the owner's gallery is shared with",
    async arrange(t) {
      const g = await makeGallery(t.app, t.owner.cookie);
      const p = await makeProject(t.app, t.owner.cookie);
      await call(t.app, t.owner.cookie, 'POST', `/api/galleries/${g.id}/share`, { projectId: p.id });
      return { method: 'GET', path: `/api/galleries/${g.id}/shares` };
    },
    expect: 'not-found',
  },
  ...(() => {
    let id = '';
    return [
      {
        route: 'POST /api/galleries/:id/share',
        name: "cannot share the owner's gallery, even with their own project",
        async arrange(t: AccessHarness) {
          id = (await makeGallery(t.app, t.owner.cookie)).id;
          const theirs = await makeProject(t.app, t.stranger.cookie, { name: 'Stranger project' });
          return { method: 'POST' as const, path: `/api/galleries/${id}/share`, body: { projectId: theirs.id } };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect(await db(t).galleryShare.count({ where: { galleryId: id } })).toBe(0);
        },
      },
    ];
  })(),
  ...(() => {
    let id = '';
    return [
      {
        route: 'DELETE /api/project-galleries/:shareId',
        name: "cannot revoke the owner's share",
        async arrange(t: AccessHarness) {
          const g = await makeGallery(t.app, t.owner.cookie);
          const p = await makeProject(t.app, t.owner.cookie);
          const shared = await call(t.app, t.owner.cookie, 'POST', `/api/galleries/${g.id}/share`, { projectId: p.id });
          id = shared.body.id;
          return { method: 'DELETE' as const, path: `/api/project-galleries/${id}` };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect(await db(t).galleryShare.count({ where: { id } })).toBe(1);
        },
      },
    ];
  })(),
];
