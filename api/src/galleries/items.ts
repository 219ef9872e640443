import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { record } from '../domain-events/events.ts';
import { nameOf, userNameSelect } from '../projects/rules.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { isUuid } from '../shared/ids.ts';
import { announceGalleryItems } from './live.ts';
import { galleryItemsPage, inOrderOf } from './listing.ts';
import { asPhotoOrder, positionBetween, respaceSql } from './order.ts';
import { galleryFor } from './viewer-access.ts';

// A gallery's photos: added and taken out, and in its order (order.ts) read a page at a time and
// moved by hand.

const fileIdsInput = z.preprocess(
  (v) => (v == null ? [] : v),
  z
    .array(z.string({ error: 'fileIds must be a list of file ids.' }), { error: 'fileIds must be a list of file ids.' })
    .min(1, 'Choose at least one file to add.')
    .max(1000, 'At most 1000 files can be added at once.'),
);

export const galleryItemInclude = {
  file: {
    select: {
      id: true,
      name: true,
      originalName: true,
      mimeType: true,
      size: true,
      objectPath: true,
      tags: true,
      metadata: true,
      createdAt: true,
    },
  },
} satisfies Prisma.GalleryItemInclude;

export type GalleryItemRow = Prisma.GalleryItemGetPayload<{ include: typeof galleryItemInclude }>;

export function galleryItemJson(item: GalleryItemRow) {
  return {
    id: item.id,
    galleryId: item.galleryId,
    fileId: item.fileId,
    position: item.position,
    addedById: item.addedById,
    createdAt: item.createdAt,
    cursor: `${item.position}.${item.id}`,
    file: { ...item.file, size: Number(item.file.size) },
  };
}

/** A gallery shows photos and videos; anything else would sit in it as a broken thumbnail. */
export function isGalleryMedia(mimeType: string) {
  return /^(image|video)\//.test(mimeType);
}

/**
 * Adds the viewer's own files to a gallery they may write, after the ones already there, in the
 * order given. Files already in the gallery are left where they are. The owner hears about files
 * a collaborator adds.
 */
export async function addFilesToGallery(ctx: ViewerContext, galleryId: string, fileIds: string[] | unknown) {
  const ids = [...new Set(parse(fileIdsInput, fileIds))];
  if (!ids.every(isUuid)) throw new NotFoundError('File');
  const { items, afterCommit } = await ctx.db.$transaction(async (tx) => {
    const gallery = await galleryFor(
      ctx,
      galleryId,
      'write',
      tx,
      'You can only view this gallery; ask its owner for edit access.',
    );
    const files = await tx.file.findMany({
      where: { id: { in: ids }, ownerId: ctx.viewer.id },
      select: { id: true, name: true, mimeType: true },
    });
    if (files.length !== ids.length) throw new NotFoundError('File');
    const other = files.find((f) => !isGalleryMedia(f.mimeType));
    if (other) {
      throw new ValidationError(
        `Only photos and videos can be added to a gallery: ${other.name} is not one.`,
        'fileIds',
      );
    }
    const present = await tx.galleryItem.findMany({
      where: { galleryId, fileId: { in: ids } },
      select: { fileId: true },
    });
    const already = new Set(present.map((p) => p.fileId));
    const toAdd = ids.filter((id) => !already.has(id));
    if (toAdd.length === 0) return { items: [], afterCommit: undefined };
    // Touching the gallery row first locks it: concurrent adds to one gallery take turns, so they
    // cannot both start numbering after the same last position.
    await tx.gallery.update({ where: { id: galleryId }, data: { updatedAt: new Date() } });
    const last = await tx.galleryItem.findFirst({
      where: { galleryId },
      orderBy: [{ position: 'desc' }],
      select: { position: true },
    });
    const start = (last?.position ?? -1) + 1;
    await tx.galleryItem.createMany({
      data: toAdd.map((fileId, i) => ({ galleryId, fileId, position: start + i, addedById: ctx.viewer.id })),
      skipDuplicates: true,
    });
    const names = new Map(files.map((f) => [f.id, f.name]));
    const adder = await tx.user.findUniqueOrThrow({ where: { id: ctx.viewer.id }, select: userNameSelect });
    const afterCommit = await record(tx, ctx, {
      type: 'gallery.photos_added',
      actorId: ctx.viewer.id,
      actorName: nameOf(adder),
      galleryId,
      galleryName: gallery.name,
      ownerId: gallery.ownerId,
      files: toAdd.map((id) => ({ id, name: names.get(id) ?? '' })),
    });
    const items = await tx.galleryItem.findMany({
      where: { galleryId, fileId: { in: toAdd } },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      include: galleryItemInclude,
    });
    return { items, afterCommit };
  });
  await afterCommit?.();
  if (items.length > 0) await announceGalleryItems(ctx, galleryId);
  return items;
}

/** Takes a file out of a gallery (the file itself stays); a cover that leaves stops being the cover. */
export async function removeFileFromGallery(ctx: ViewerContext, galleryId: string, fileId: string) {
  await ctx.db.$transaction(async (tx) => {
    const gallery = await galleryFor(ctx, galleryId, 'write', tx);
    if (!isUuid(fileId)) throw new NotFoundError('File');
    const removed = await tx.galleryItem.deleteMany({ where: { galleryId, fileId } });
    if (removed.count === 0) throw new NotFoundError('File');
    await tx.gallery.update({
      where: { id: galleryId },
      data: { updatedAt: new Date(), ...(gallery.coverImageId === fileId && { coverImageId: null }) },
    });
  });
  await announceGalleryItems(ctx, galleryId);
}

/**
 * Moves one file to just before another (or to the end when `beforeFileId` is null), or with
 * `afterFileId` to just after another (a drop after the last photo a screen has loaded), in the
 * gallery's manual order. Positions keep gaps (order.ts): a move writes one row, and only a move
 * into a gap that is used up spaces the gallery out again (one statement). In a sorted gallery a
 * move first makes the order people see the manual order, then moves: the photo goes where it was
 * dropped, and the gallery is in manual order from then on, for everyone.
 */
export async function moveGalleryItem(
  ctx: ViewerContext,
  galleryId: string,
  fileId: string,
  beforeFileId: string | null,
  afterFileId?: string | null,
) {
  if (afterFileId && beforeFileId)
    throw new ValidationError('Give beforeFileId or afterFileId, not both.', 'afterFileId');
  return ctx.db.$transaction(async (tx) => {
    const gallery = await galleryFor(ctx, galleryId, 'write', tx);
    // Locks the gallery row so two moves (or a move and an add) do not renumber at the same time.
    await tx.gallery.update({ where: { id: galleryId }, data: { updatedAt: new Date(), photoOrder: 'manual' } });
    const find = (id: string) =>
      isUuid(id) ? tx.galleryItem.findUnique({ where: { galleryId_fileId: { galleryId, fileId: id } } }) : null;
    const item = await find(fileId);
    if (!item) throw new NotFoundError('File');
    let before = beforeFileId && beforeFileId !== fileId ? await find(beforeFileId) : null;
    if (beforeFileId && !before && beforeFileId !== fileId) {
      throw new ValidationError('The file to move before is not in this gallery.', 'beforeFileId');
    }
    const after = afterFileId && afterFileId !== fileId ? await find(afterFileId) : null;
    if (afterFileId && !after && afterFileId !== fileId) {
      throw new ValidationError('The file to move after is not in this gallery.', 'afterFileId');
    }
    const order = asPhotoOrder(gallery.photoOrder);
    if (order !== 'manual') await tx.$executeRawUnsafe(respaceSql(order), galleryId);
    if (beforeFileId === fileId || afterFileId === fileId) {
      return tx.galleryItem.findUniqueOrThrow({ where: { id: item.id }, include: galleryItemInclude });
    }
    if (after) {
      // Just after `after`: before the photo that follows it (other than the one moved), or the end.
      const { position } = await tx.galleryItem.findUniqueOrThrow({ where: { id: after.id } });
      before = await tx.galleryItem.findFirst({
        where: {
          galleryId,
          id: { not: item.id },
          OR: [{ position: { gt: position } }, { position, id: { gt: after.id } }],
        },
        orderBy: [{ position: 'asc' }, { id: 'asc' }],
      });
    }
    const neighbours = async () => {
      const next = before ? await tx.galleryItem.findUniqueOrThrow({ where: { id: before.id } }) : null;
      const previous = await tx.galleryItem.findFirst({
        where: {
          galleryId,
          id: { not: item.id },
          ...(next && { OR: [{ position: { lt: next.position } }, { position: next.position, id: { lt: next.id } }] }),
        },
        orderBy: [{ position: 'desc' }, { id: 'desc' }],
        select: { position: true },
      });
      return positionBetween(previous?.position ?? null, next?.position ?? null);
    };
    let position = await neighbours();
    if (position === null) {
      await tx.$executeRawUnsafe(respaceSql('manual'), galleryId);
      position = await neighbours();
    }
    return tx.galleryItem.update({
      where: { id: item.id },
      data: { position: position ?? 0 },
      include: galleryItemInclude,
    });
  });
}

/** One page of a gallery's photos in gallery order; `after` is the cursor of the last item seen. */
export async function listGalleryItems(
  ctx: ViewerContext,
  galleryId: string,
  { after, limit = 100 }: { after?: string | null; limit?: number } = {},
) {
  const gallery = await galleryFor(ctx, galleryId);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
    throw new ValidationError('limit must be a whole number from 1 to 500.', 'limit');
  }
  let afterId: string | undefined;
  if (after) {
    // The cursor is "position.id"; the id alone says where the page goes on, in any order.
    const match = /^(-?\d+)\.([0-9a-f-]{36})$/i.exec(after);
    if (!match || !isUuid(match[2] as string))
      throw new ValidationError('after is not a cursor from this list.', 'after');
    afterId = match[2];
  }
  const page = await galleryItemsPage(ctx, galleryId, {
    take: limit,
    after: afterId,
    order: asPhotoOrder(gallery.photoOrder),
  });
  const ids = page.map((item) => item.id);
  return inOrderOf(ids, await ctx.db.galleryItem.findMany({ where: { id: { in: ids } }, include: galleryItemInclude }));
}
