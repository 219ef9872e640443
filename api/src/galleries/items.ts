import type { ViewerContext } from '../context.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { asPhotoOrder, positionBetween, respaceSql } from './order.ts';
import { galleryFor, galleryItemInclude, galleryItemsPage, inOrderOf } from './rules.ts';

// A gallery's photos in its order (order.ts): read a page at a time, and moved by hand.

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
