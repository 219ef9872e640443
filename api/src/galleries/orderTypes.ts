import type { ViewerContext } from '../context.ts';
import { builder } from '../graphql/builder.ts';
import { rowMutation } from '../graphql/shapes.ts';
import { rawId } from '../projects/types.ts';
import { asPhotoOrder, PHOTO_ORDERS, type PhotoOrder } from './order.ts';
import { updateGallery } from './rules.ts';

// The order of a gallery's photos (order.ts) in the graph: read on the gallery, set by editors.

export const GalleryPhotoOrderEnum = builder.enumType('GalleryPhotoOrder', {
  description:
    "How a gallery's photos are ordered, the same for every member and review link: manual (as editors " +
    'arranged them), or by date taken (EXIF; photos without one count as oldest), file name or date added, ' +
    'ascending or descending.',
  values: PHOTO_ORDERS,
});

/** The gallery's order: on its row when the row was read whole, else read now. */
export async function photoOrderOf(ctx: ViewerContext, gallery: { id: string; photoOrder?: string }) {
  if (typeof gallery.photoOrder === 'string') return asPhotoOrder(gallery.photoOrder);
  const row = await ctx.db.gallery.findUnique({ where: { id: gallery.id }, select: { photoOrder: true } });
  return asPhotoOrder(row?.photoOrder);
}

builder.prismaObjectField('Gallery', 'photoOrder', (t) =>
  t.field({
    type: GalleryPhotoOrderEnum,
    description: 'How the photos are ordered (items follow it).',
    select: { photoOrder: true },
    resolve: (g) => asPhotoOrder(g.photoOrder),
  }),
);

builder.mutationField('setGalleryPhotoOrder', (t) =>
  rowMutation(t, 'Gallery', {
    description:
      "Sets how a gallery's photos are ordered, for everyone who sees it (owner or edit access). " +
      'moveGalleryItem sets manual itself.',
    args: {
      id: t.arg.id({ required: true }),
      order: t.arg({ type: GalleryPhotoOrderEnum, required: true }),
    },
    change: ({ id, order }, ctx) =>
      updateGallery(ctx, rawId(id, 'Gallery', 'id'), { photoOrder: order satisfies PhotoOrder }),
  }),
);
