import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, viewerContext } from '../http/helpers.ts';
import { ValidationError } from '../shared/errors.ts';
import { createGallery, deleteGallery, galleryJson, getGallery, updateGallery } from './rules.ts';
import { listGalleries } from './listing.ts';
import { listShares, revokeShare, shareGallery, shareJson } from './shares.ts';
import {
  addFilesToGallery,
  galleryItemJson,
  listGalleryItems,
  moveGalleryItem,
  removeFileFromGallery,
} from './items.ts';

/** Galleries, their photos and their shares, as plain JSON arrays and objects. */
export function galleryRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  routes.get('/api/galleries', async (c) => {
    const ctx = viewerContext(c, services);
    const galleries = await listGalleries(ctx, { search: c.req.query('search'), sort: c.req.query('sort') });
    return c.json(galleries.map((g) => galleryJson(ctx.viewer.id, g)));
  });

  routes.post('/api/galleries', async (c) => {
    const ctx = viewerContext(c, services);
    const gallery = await createGallery(ctx, await readJson(c));
    return c.json(galleryJson(ctx.viewer.id, gallery), 201);
  });

  routes.get('/api/galleries/:id', async (c) => {
    const ctx = viewerContext(c, services);
    return c.json(galleryJson(ctx.viewer.id, await getGallery(ctx, c.req.param('id'))));
  });

  routes.patch('/api/galleries/:id', async (c) => {
    const ctx = viewerContext(c, services);
    const gallery = await updateGallery(ctx, c.req.param('id'), await readJson(c));
    return c.json(galleryJson(ctx.viewer.id, gallery));
  });

  routes.delete('/api/galleries/:id', async (c) => {
    await deleteGallery(viewerContext(c, services), c.req.param('id'));
    return c.json({ success: true });
  });

  routes.get('/api/galleries/:id/items', async (c) => {
    const ctx = viewerContext(c, services);
    const limitText = c.req.query('limit');
    const limit = limitText === undefined ? undefined : Number(limitText);
    const items = await listGalleryItems(ctx, c.req.param('id'), { after: c.req.query('after'), limit });
    return c.json(items.map(galleryItemJson));
  });

  // Body: { fileIds: [...] }, in the order they should appear.
  routes.post('/api/galleries/:id/items', async (c) => {
    const ctx = viewerContext(c, services);
    const body = (await readJson(c)) as { fileIds?: unknown } | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ValidationError('Send { "fileIds": [...] }.');
    }
    const items = await addFilesToGallery(ctx, c.req.param('id'), body.fileIds);
    return c.json(items.map(galleryItemJson), 201);
  });

  // Body: { beforeFileId: id | null } (null moves the file to the end).
  routes.patch('/api/galleries/:id/items/:fileId', async (c) => {
    const ctx = viewerContext(c, services);
    const body = (await readJson(c)) as { beforeFileId?: unknown } | null;
    const before = body && typeof body === 'object' ? body.beforeFileId : undefined;
    if (before !== null && typeof before !== 'string') {
      throw new ValidationError('beforeFileId must be a file id in this gallery, or null for the end.', 'beforeFileId');
    }
    const item = await moveGalleryItem(ctx, c.req.param('id'), c.req.param('fileId'), before);
    return c.json(galleryItemJson(item));
  });

  routes.delete('/api/galleries/:id/items/:fileId', async (c) => {
    await removeFileFromGallery(viewerContext(c, services), c.req.param('id'), c.req.param('fileId'));
    return c.json({ success: true });
  });

  routes.get('/api/galleries/:id/shares', async (c) => {
    const shares = await listShares(viewerContext(c, services), c.req.param('id'));
    return c.json(shares.map(shareJson));
  });

  routes.post('/api/galleries/:id/share', async (c) => {
    const share = await shareGallery(viewerContext(c, services), c.req.param('id'), await readJson(c));
    return c.json(shareJson(share), 201);
  });

  routes.delete('/api/project-galleries/:shareId', async (c) => {
    await revokeShare(viewerContext(c, services), c.req.param('shareId'));
    return c.json({ success: true });
  });

  return routes;
}
