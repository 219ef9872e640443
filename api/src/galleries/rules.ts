import type { Prisma } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { record } from '../domain-events/events.ts';
import { ForbiddenError, ValidationError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { isUuid } from '../shared/ids.ts';
import { type GalleryCreateInput, type GalleryUpdateInput, galleryCreateInput, galleryUpdateInput } from './input.ts';
import { accessOf, galleryFor, viewerSharesSelect } from './viewer-access.ts';

// A gallery itself: made, read, edited and deleted.

/** What a gallery card needs besides the gallery's own columns: a fixed number of queries per list. */
export const galleryCardInclude = (viewerId: string) =>
  ({
    _count: { select: { items: true } },
    coverImage: { select: { objectPath: true } },
    shares: viewerSharesSelect(viewerId),
  }) satisfies Prisma.GalleryInclude;

export type GalleryCard = Prisma.GalleryGetPayload<{ include: ReturnType<typeof galleryCardInclude> }>;

/** The REST shape: the spec's fields plus photoCount, coverImageUrl and what the viewer may do. */
export function galleryJson(viewerId: string, g: GalleryCard) {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    tags: g.tags,
    projectName: g.projectName,
    movieTvShow: g.movieTvShow,
    location: g.location,
    propertyType: g.propertyType,
    style: g.style,
    status: g.status,
    isPublic: g.isPublic,
    coverImageId: g.coverImageId,
    coverImageUrl: g.coverImage?.objectPath ?? null,
    notes: g.notes,
    photoCount: g._count.items,
    ownerId: g.ownerId,
    access: accessOf(viewerId, g),
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
  };
}

export async function createGallery(ctx: ViewerContext, input: GalleryCreateInput | unknown) {
  const data = parse(galleryCreateInput, input ?? {});
  const { gallery, afterCommit } = await ctx.db.$transaction(async (tx) => {
    const gallery = await tx.gallery.create({
      data: {
        ownerId: ctx.viewer.id,
        name: data.name,
        description: data.description ?? null,
        tags: data.tags ?? [],
        projectName: data.projectName ?? null,
        movieTvShow: data.movieTvShow ?? null,
        location: data.location ?? null,
        propertyType: data.propertyType ?? null,
        style: data.style ?? null,
        status: data.status ?? 'active',
        isPublic: data.isPublic ?? false,
        notes: data.notes ?? null,
      },
      include: galleryCardInclude(ctx.viewer.id),
    });
    const afterCommit = await record(tx, ctx, {
      type: 'gallery.created',
      actorId: ctx.viewer.id,
      galleryId: gallery.id,
      galleryName: gallery.name,
    });
    return { gallery, afterCommit };
  });
  await afterCommit();
  return gallery;
}

export async function getGallery(ctx: ViewerContext, galleryId: string) {
  await galleryFor(ctx, galleryId);
  return ctx.db.gallery.findUniqueOrThrow({ where: { id: galleryId }, include: galleryCardInclude(ctx.viewer.id) });
}

/** Owner and write-share members edit; only the owner decides whether the gallery is public. */
export async function updateGallery(ctx: ViewerContext, galleryId: string, input: GalleryUpdateInput | unknown) {
  const data = parse(galleryUpdateInput, input ?? {});
  return ctx.db.$transaction(async (tx) => {
    const gallery = await galleryFor(ctx, galleryId, 'write', tx);
    if (data.isPublic != null && data.isPublic !== gallery.isPublic && gallery.access !== 'owner') {
      throw new ForbiddenError('Only the gallery owner can make it public or private.');
    }
    if (data.coverImageId) {
      const item = isUuid(data.coverImageId)
        ? await tx.galleryItem.findUnique({
            where: { galleryId_fileId: { galleryId, fileId: data.coverImageId } },
            select: { fileId: true },
          })
        : null;
      if (!item) throw new ValidationError('The cover image must be a photo in this gallery.', 'coverImageId');
    }
    const keep = <T>(v: T | null | undefined) => (v === undefined ? undefined : v);
    return tx.gallery.update({
      where: { id: galleryId },
      data: {
        name: data.name,
        description: keep(data.description),
        tags: data.tags === undefined ? undefined : (data.tags ?? []),
        projectName: keep(data.projectName),
        movieTvShow: keep(data.movieTvShow),
        location: keep(data.location),
        propertyType: keep(data.propertyType),
        style: keep(data.style),
        status: data.status === undefined ? undefined : (data.status ?? 'active'),
        isPublic: data.isPublic ?? undefined,
        notes: keep(data.notes),
        coverImageId: keep(data.coverImageId),
        photoOrder: data.photoOrder,
      },
      include: galleryCardInclude(ctx.viewer.id),
    });
  });
}

export async function deleteGallery(ctx: ViewerContext, galleryId: string) {
  await ctx.db.$transaction(async (tx) => {
    await galleryFor(ctx, galleryId, 'owner', tx, 'Only the gallery owner can delete it.');
    await tx.gallery.delete({ where: { id: galleryId } });
  });
}
