import DataLoader from 'dataloader';
import type { Prisma } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { createGallery } from '../galleries/rules.ts';
import { galleryFor, mayDo } from '../galleries/viewer-access.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parse } from '../shared/validation.ts';
import { z } from 'zod';

// What reviewers said, as the owner's grid shows it: counts per photo, totals per gallery and per
// review link, the photos that match a pick filter, and a new gallery made of the picked ones.
// Everything is counted in SQL, over the photos still in the gallery.

export const FEEDBACK_FILTERS = ['all', 'picked', 'rejected', 'maybe', 'commented', 'unreviewed'] as const;
export type FeedbackFilter = (typeof FEEDBACK_FILTERS)[number];

export interface PhotoFeedbackCounts {
  yes: number;
  no: number;
  maybe: number;
  comments: number;
}

export interface FeedbackTotals {
  /** Photos someone said Yes to. */
  picked: number;
  rejected: number;
  maybe: number;
  /** Photos with at least one comment, and the comments themselves. */
  commented: number;
  comments: number;
  /** Photos nobody picked or commented on. */
  unreviewed: number;
  photos: number;
}

export interface LinkFeedback extends Omit<FeedbackTotals, 'unreviewed' | 'photos'> {
  reviewLinkId: string;
  label: string | null;
}

const NONE: PhotoFeedbackCounts = { yes: 0, no: 0, maybe: 0, comments: 0 };

const countsLoaders = new WeakMap<
  object,
  { kept?: DataLoader<string, PhotoFeedbackCounts>; fresh?: DataLoader<string, PhotoFeedbackCounts> }
>();

/**
 * The picks and comments of one photo in one gallery, read with those of every other photo the
 * request asks about at the same moment: one statement per page of the grid, never one per photo.
 * The caller has reached the item through an access check. With `keep` (a query) they are read
 * once per request; a mutation or a subscription's next event reads them afresh.
 */
export function photoFeedbackCounts(
  ctx: ViewerContext,
  item: { galleryId: string; fileId: string },
  { keep }: { keep: boolean },
): Promise<PhotoFeedbackCounts> {
  let loaders = countsLoaders.get(ctx);
  if (!loaders) {
    loaders = {};
    countsLoaders.set(ctx, loaders);
  }
  const kind = keep ? 'kept' : 'fresh';
  let loader = loaders[kind];
  if (!loader) {
    loader = new DataLoader<string, PhotoFeedbackCounts>(
      async (keys) => {
        const pairs = keys.map((k) => k.split(':') as [string, string]);
        const rows = await ctx.db.$sql<PhotoFeedbackCounts & { galleryId: string; fileId: string }>(
          `SELECT k.g AS "galleryId", k.f AS "fileId", p.yes, p.no, p.maybe, c.comments
           FROM unnest($1::uuid[], $2::uuid[]) AS k(g, f)
           CROSS JOIN LATERAL (
             SELECT count(*) FILTER (WHERE pick = 'yes')::int AS yes,
                    count(*) FILTER (WHERE pick = 'no')::int AS no,
                    count(*) FILTER (WHERE pick = 'maybe')::int AS maybe
             FROM "PhotoPick" WHERE "galleryId" = k.g AND "fileId" = k.f) p
           CROSS JOIN LATERAL (
             SELECT count(*)::int AS comments FROM "PhotoComment" WHERE "galleryId" = k.g AND "fileId" = k.f) c`,
          [pairs.map(([g]) => g), pairs.map(([, f]) => f)],
        );
        const byKey = new Map(rows.map(({ galleryId, fileId, ...counts }) => [`${galleryId}:${fileId}`, counts]));
        return keys.map((k) => byKey.get(k) ?? NONE);
      },
      { cache: keep },
    );
    loaders[kind] = loader;
  }
  return loader.load(`${item.galleryId}:${item.fileId}`);
}

/** The review link `id` of this gallery, or a 404 (any other id, existing or not). */
async function linkOf(ctx: ViewerContext, galleryId: string, id: string | null | undefined) {
  if (id === null || id === undefined) return null;
  const link = isUuid(id)
    ? await ctx.db.reviewLink.findFirst({ where: { id, galleryId }, select: { id: true } })
    : null;
  if (!link) throw new NotFoundError('Review link');
  return link.id;
}

// Per photo still in the gallery: did anyone (through link $2, when given) say yes, no, maybe, and
// how many comments. The totals and the per-link figures are counts over these rows.
const perPhotoSql = (link: string) => `
  SELECT gi."fileId",
    EXISTS (SELECT 1 FROM "PhotoPick" p WHERE p."galleryId" = gi."galleryId" AND p."fileId" = gi."fileId"
            AND p.pick = 'yes' AND (${link}::uuid IS NULL OR p."reviewLinkId" = ${link}::uuid)) AS yes,
    EXISTS (SELECT 1 FROM "PhotoPick" p WHERE p."galleryId" = gi."galleryId" AND p."fileId" = gi."fileId"
            AND p.pick = 'no' AND (${link}::uuid IS NULL OR p."reviewLinkId" = ${link}::uuid)) AS no,
    EXISTS (SELECT 1 FROM "PhotoPick" p WHERE p."galleryId" = gi."galleryId" AND p."fileId" = gi."fileId"
            AND p.pick = 'maybe' AND (${link}::uuid IS NULL OR p."reviewLinkId" = ${link}::uuid)) AS maybe,
    (SELECT count(*) FROM "PhotoComment" c WHERE c."galleryId" = gi."galleryId" AND c."fileId" = gi."fileId"
            AND (${link}::uuid IS NULL OR c."reviewLinkId" = ${link}::uuid))::int AS comments
  FROM "GalleryItem" gi`;

const totalsColumns = `
  count(*) FILTER (WHERE x.yes)::int AS picked,
  count(*) FILTER (WHERE x.no)::int AS rejected,
  count(*) FILTER (WHERE x.maybe)::int AS maybe,
  count(*) FILTER (WHERE x.comments > 0)::int AS commented,
  COALESCE(sum(x.comments), 0)::int AS comments`;

/**
 * What reviewers said about a gallery the viewer may read: totals over its photos, and the same
 * per review link for those who may manage the links (owner, editors); links nobody used yet are
 * left out. Two statements, whatever the number of photos and links.
 */
export async function galleryFeedbackSummary(ctx: ViewerContext, galleryId: string) {
  const gallery = await galleryFor(ctx, galleryId);
  const [totals] = await ctx.db.$sql<FeedbackTotals>(
    `SELECT ${totalsColumns},
       count(*) FILTER (WHERE NOT (x.yes OR x.no OR x.maybe) AND x.comments = 0)::int AS unreviewed,
       count(*)::int AS photos
     FROM (${perPhotoSql('$2')} WHERE gi."galleryId" = $1::uuid) x`,
    [galleryId, null],
  );
  const links = mayDo(gallery.access, 'edit')
    ? await ctx.db.$sql<LinkFeedback & { createdAt: Date }>(
        `SELECT l.id AS "reviewLinkId", l.label, l."createdAt", t.*
         FROM "ReviewLink" l
         CROSS JOIN LATERAL (
           SELECT ${totalsColumns} FROM (${perPhotoSql('l.id')} WHERE gi."galleryId" = l."galleryId") x) t
         WHERE l."galleryId" = $1::uuid
         ORDER BY l."createdAt" DESC, l.id DESC`,
        [galleryId],
      )
    : [];
  return {
    galleryId,
    ...(totals ?? { picked: 0, rejected: 0, maybe: 0, commented: 0, comments: 0, unreviewed: 0, photos: 0 }),
    links: links
      .filter((l) => l.picked + l.rejected + l.maybe + l.comments > 0)
      .map(({ createdAt: _createdAt, ...l }) => l),
  };
}

export type GalleryFeedbackSummary = Awaited<ReturnType<typeof galleryFeedbackSummary>>;

/**
 * The gallery's items that match a pick filter (through one review link, when given), as a Prisma
 * condition: the grid pages through them like through all items.
 */
export async function feedbackItemsWhere(
  ctx: ViewerContext,
  galleryId: string,
  filter: FeedbackFilter,
  reviewLinkId?: string | null,
): Promise<Prisma.GalleryItemWhereInput> {
  const linkId = await linkOf(ctx, galleryId, reviewLinkId);
  const about = { galleryId, ...(linkId && { reviewLinkId: linkId }) };
  const pick = (value: 'yes' | 'no' | 'maybe') => ({ file: { picks: { some: { ...about, pick: value } } } });
  switch (filter) {
    case 'picked':
      return { galleryId, ...pick('yes') };
    case 'rejected':
      return { galleryId, ...pick('no') };
    case 'maybe':
      return { galleryId, ...pick('maybe') };
    case 'commented':
      return { galleryId, file: { comments: { some: about } } };
    case 'unreviewed':
      return { galleryId, file: { picks: { none: about }, comments: { none: about } } };
    default:
      return { galleryId };
  }
}

const fromPicksInput = z.strictObject({
  reviewLinkId: z.string({ error: 'reviewLinkId must be the id of one of the gallery’s review links.' }).nullish(),
  name: z
    .string({ error: 'name must be text.' })
    .trim()
    .max(200, 'The name is too long (at most 200 characters).')
    .nullish(),
});

/**
 * A new gallery of the viewer's holding the photos reviewers said Yes to (through one review link,
 * or any), in the gallery's order. Whoever may read the gallery sees its feedback and may do this,
 * but only with photos they uploaded themselves: as with adding files to a gallery, putting
 * someone else's photo in a gallery of one's own would keep it readable after the share ends.
 * Picked photos of others are left out and counted in `skipped`.
 */
export async function galleryFromPicks(ctx: ViewerContext, galleryId: string, input: unknown) {
  const data = parse(fromPicksInput, input ?? {});
  const source = await galleryFor(ctx, galleryId);
  const where = await feedbackItemsWhere(ctx, galleryId, 'picked', data.reviewLinkId);
  const picked = await ctx.db.galleryItem.findMany({
    where,
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
    select: { fileId: true, file: { select: { ownerId: true } } },
    take: 10_000,
  });
  if (picked.length === 0) throw new ValidationError('Nobody has picked a photo yet: there is nothing to copy.');
  const fileIds = picked.filter((p) => p.file.ownerId === ctx.viewer.id).map((p) => p.fileId);
  if (fileIds.length === 0) {
    throw new ForbiddenError(
      'The picked photos were added by other people: only photos you added can go in a new gallery of yours.',
    );
  }
  const name = data.name || `${source.name} – picks`.slice(0, 200);
  const gallery = await createGallery(ctx, {
    name,
    ...(source.description && { description: source.description }),
    tags: source.tags,
    ...(source.projectName && { projectName: source.projectName }),
    ...(source.movieTvShow && { movieTvShow: source.movieTvShow }),
    ...(source.location && { location: source.location }),
    ...(source.propertyType && { propertyType: source.propertyType }),
    ...(source.style && { style: source.style }),
  });
  // One statement, in the source's order; the files are the viewer's own (checked above). Should
  // it fail (a photo deleted meanwhile), the new gallery goes too: all or nothing.
  try {
    await ctx.db.$transaction(async (tx) => {
      await tx.galleryItem.createMany({
        data: fileIds.map((fileId, position) => ({
          galleryId: gallery.id,
          fileId,
          position,
          addedById: ctx.viewer.id,
        })),
      });
      await tx.gallery.update({ where: { id: gallery.id }, data: { coverImageId: fileIds[0] } });
    });
  } catch (error) {
    await ctx.db.gallery.delete({ where: { id: gallery.id } });
    throw error;
  }
  return { gallery, added: fileIds.length, skipped: picked.length - fileIds.length };
}
