import DataLoader from 'dataloader';
import { z } from 'zod';
import type { File, Gallery, GalleryItem, GalleryStyle, Prisma, PropertyType } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { recordActivity } from '../activity/rules.ts';
import { announceGalleryItems } from './live.ts';
import { publishNotifications, writeNotification } from '../notifications/rules.ts';
import { announceAccessChange, memberIdsOf, nameOf, projectForViewer, userNameSelect } from '../projects/rules.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { appLink } from '../shared/links.ts';
import { GALLERY_LIMITS } from './limits.ts';
import { optionalText, parse, requiredText } from '../shared/validation.ts';
import { isUuid } from '../shared/ids.ts';
import { afterSql, orderBySql, PHOTO_ORDERS, type PhotoOrder, photoOrderInput } from './order.ts';
import { type AccessMode, galleryAccessWhere, projectMemberWhere, readableGallerySql } from '../access/rules.ts';

type Tx = Prisma.TransactionClient;

export const PROPERTY_TYPES = [
  'residential',
  'commercial',
  'industrial',
  'outdoor',
  'studio',
] as const satisfies readonly PropertyType[];
export const GALLERY_STYLES = [
  'modern',
  'vintage',
  'rustic',
  'minimalist',
  'industrial',
  'traditional',
] as const satisfies readonly GalleryStyle[];
export const GALLERY_SORTS = ['recent', 'name', 'project', 'location', 'propertyType', 'style', 'status'] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];

// ───────────── input ─────────────

/** "a, b,,c " and ["a", " b,c"] both become ["a", "b", "c"]: trimmed, empties dropped, no repeats. */
export function splitTags(value: string | string[]): string[] {
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(','));
  return [...new Set(parts.map((t) => t.trim()).filter((t) => t !== ''))];
}

// An empty select sends '' (the spec forbids empty option values, so '' only ever means "none").
const optionalChoice = <T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z
    .union([z.literal(''), z.enum(values)], { error: `${label} must be one of ${values.join(', ')}.` })
    .transform((v) => (v === '' ? null : v))
    .nullish();

const nameField = requiredText(
  'Gallery name is required.',
  GALLERY_LIMITS.name,
  `Gallery name is too long (at most ${GALLERY_LIMITS.name} characters).`,
);

const galleryFields = {
  description: optionalText('Description', GALLERY_LIMITS.description),
  tags: z
    .union([z.string(), z.array(z.string({ error: 'Tags must be text.' }))], {
      error: 'Tags must be a list or a comma-separated text.',
    })
    .transform(splitTags)
    .pipe(
      z
        .array(z.string().max(GALLERY_LIMITS.tag, `A tag is too long (at most ${GALLERY_LIMITS.tag} characters).`))
        .max(GALLERY_LIMITS.tags, `At most ${GALLERY_LIMITS.tags} tags.`),
    )
    .nullish(),
  projectName: optionalText('Project name', GALLERY_LIMITS.projectName),
  movieTvShow: optionalText('Movie / TV show', GALLERY_LIMITS.movieTvShow),
  location: optionalText('Location', GALLERY_LIMITS.location),
  propertyType: optionalChoice('Property type', PROPERTY_TYPES),
  style: optionalChoice('Style', GALLERY_STYLES),
  status: optionalText('Status', 50),
  isPublic: z.boolean({ error: 'isPublic must be true or false.' }).nullish(),
  notes: optionalText('Notes', 20000),
};

export const galleryCreateInput = z.strictObject({ name: nameField, ...galleryFields });
export const galleryUpdateInput = z.strictObject({
  name: nameField.optional(),
  ...galleryFields,
  coverImageId: z.string({ error: 'coverImageId must be a file id.' }).nullish(),
  photoOrder: photoOrderInput.optional(),
});

export type GalleryCreateInput = z.input<typeof galleryCreateInput>;
export type GalleryUpdateInput = z.input<typeof galleryUpdateInput>;

const fileIdsInput = z.preprocess(
  (v) => (v == null ? [] : v),
  z
    .array(z.string({ error: 'fileIds must be a list of file ids.' }), { error: 'fileIds must be a list of file ids.' })
    .min(1, 'Choose at least one file to add.')
    .max(1000, 'At most 1000 files can be added at once.'),
);

const shareInput = z.strictObject({
  projectId: requiredText('Please select a project to share with.', 100, 'Project not found.'),
  permission: z
    .enum(['read', 'write'], { error: 'Permission must be read or write.' })
    .nullish()
    .transform((v) => v ?? 'read'),
});

// ───────────── who may do what ─────────────

export type GalleryAccess = 'owner' | 'write' | 'read';

/** What the viewer may do with a gallery, given its owner and the viewer's active shares of it. */
export function accessOf(viewerId: string, gallery: { ownerId: string; shares?: { permission: string }[] }) {
  return accessFrom(viewerId, gallery.ownerId, gallery.shares?.some((s) => s.permission === 'write') ?? false);
}

/** accessOf, from whether the viewer holds a write share (lists count those instead of loading them). */
export function accessFrom(viewerId: string, ownerId: string, hasWriteShare: boolean): GalleryAccess {
  if (ownerId === viewerId) return 'owner';
  return hasWriteShare ? 'write' : 'read';
}

/**
 * Who may take each action: edit (details, photos, notes) with edit access; share with projects,
 * revoke shares and delete belong to the owner alone, so a crew member cannot pass on or end
 * access the owner gave. galleryFor enforces the same table; the screens read it to leave out
 * what the viewer may not do.
 */
export const GALLERY_ACTIONS = {
  edit: ['owner', 'write'],
  share: ['owner'],
  delete: ['owner'],
} as const satisfies Record<string, readonly GalleryAccess[]>;

export function mayDo(access: GalleryAccess, action: keyof typeof GALLERY_ACTIONS) {
  return (GALLERY_ACTIONS[action] as readonly GalleryAccess[]).includes(access);
}

/** The active shares that give this viewer access: load them with any gallery you hand to accessOf. */
export const viewerSharesSelect = (viewerId: string) =>
  ({
    where: { status: 'active', project: projectMemberWhere(viewerId) },
    select: { permission: true },
  }) satisfies Prisma.Gallery$sharesArgs;

/**
 * The gallery if the viewer may act on it: 404 if they cannot even see it, 403 if they see it but
 * may not do this ('write': owner or write share; 'owner': the owner alone).
 */
export async function galleryFor(
  ctx: ViewerContext,
  galleryId: string,
  need: AccessMode | 'owner' = 'read',
  db: Tx = ctx.db,
  refusal = 'You can only view this gallery.',
) {
  if (!isUuid(galleryId)) throw new NotFoundError('Gallery');
  const gallery = await db.gallery.findFirst({
    where: { id: galleryId, ...galleryAccessWhere(ctx.viewer.id) },
    include: { shares: viewerSharesSelect(ctx.viewer.id) },
  });
  if (!gallery) throw new NotFoundError('Gallery');
  const access = accessOf(ctx.viewer.id, gallery);
  if (need !== 'read' && !mayDo(access, need === 'owner' ? 'share' : 'edit')) throw new ForbiddenError(refusal);
  return { ...gallery, access };
}

// ───────────── galleries ─────────────

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
  return ctx.db.$transaction(async (tx) => {
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
    await recordActivity(tx, {
      userId: ctx.viewer.id,
      action: 'gallery_created',
      resourceType: 'gallery',
      resourceId: gallery.id,
      resourceName: gallery.name,
    });
    return gallery;
  });
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

// Property type and style are enum columns, which PostgreSQL (and so Prisma) orders as the values
// were declared. The user reads labels, so those two sorts order the values as text, which only SQL
// can say (ORDER_SQL below): their labels are the values capitalised (web/src/screens/galleries/
// options.ts, whose test holds the two orders equal).
type LabelSort = 'propertyType' | 'style';
const isLabelSort = (sort: GallerySort): sort is LabelSort => sort === 'propertyType' || sort === 'style';

const ORDER: Record<Exclude<GallerySort, LabelSort>, Prisma.GalleryOrderByWithRelationInput[]> = {
  recent: [],
  // sortName: case-insensitive and number-aware, kept by a trigger (the collation is byte-wise).
  name: [{ sortName: 'asc' }, { name: 'asc' }],
  project: [{ projectName: { sort: 'asc', nulls: 'last' } }],
  location: [{ location: { sort: 'asc', nulls: 'last' } }],
  status: [{ status: 'asc' }],
};

export interface GalleryListOptions {
  search?: string | null;
  sort?: string | null;
}

/** LIKE's wildcards as plain characters (Prisma's `contains` passes them through as wildcards). */
function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function listOptions(options: GalleryListOptions) {
  const sort = (options.sort?.trim() || 'recent') as GallerySort;
  if (!GALLERY_SORTS.includes(sort))
    throw new ValidationError(`Sort must be one of ${GALLERY_SORTS.join(', ')}.`, 'sort');
  const search = options.search?.trim() ?? '';
  if (search.length > 200) throw new ValidationError('The search is too long (at most 200 characters).', 'search');
  return { sort, search };
}

/**
 * The filter and order of a gallery list, all done by PostgreSQL. Tags match by substring and
 * case-insensitively, which Prisma's array filters cannot say, so one SQL query finds those ids.
 * `orderBy` is undefined for the label sorts (property type, style): galleryPageIds orders those.
 */
export async function galleryListQuery(ctx: ViewerContext, options: GalleryListOptions = {}) {
  const { sort, search } = listOptions(options);
  const where: Prisma.GalleryWhereInput[] = [galleryAccessWhere(ctx.viewer.id)];
  if (search) {
    const viewerId = ctx.viewer.id;
    // The access test here only keeps the scan to the viewer's galleries; the Prisma filter below
    // (galleryAccessWhere) is what decides access, so this copy cannot widen it.
    const tagged = await ctx.db.$queryRaw<{ id: string }[]>`
      SELECT g.id::text AS id FROM "Gallery" g
      WHERE (g."ownerId" = ${viewerId}::uuid OR EXISTS (
              SELECT 1 FROM "GalleryShare" s JOIN "ProjectMember" m ON m."projectId" = s."projectId"
              WHERE s."galleryId" = g.id AND s.status = 'active' AND m."userId" = ${viewerId}::uuid))
        AND EXISTS (SELECT 1 FROM unnest(g.tags) AS t(tag) WHERE t.tag ILIKE ${`%${escapeLike(search)}%`})`;
    const contains = { contains: escapeLike(search), mode: 'insensitive' } as const;
    where.push({
      OR: [
        { name: contains },
        { description: contains },
        { movieTvShow: contains },
        { location: contains },
        ...(tagged.length ? [{ id: { in: tagged.map((r) => r.id) } }] : []),
      ],
    });
  }
  const orderBy: Prisma.GalleryOrderByWithRelationInput[] | undefined = isLabelSort(sort)
    ? undefined
    : [...ORDER[sort], { createdAt: 'desc' }, { id: 'desc' }];
  return { where: { AND: where } satisfies Prisma.GalleryWhereInput, orderBy };
}

// ORDER above, in SQL, and the label sorts; the gallery's id decides ties, as in every list.
const ORDER_SQL: Record<GallerySort, string> = {
  recent: '',
  name: 'g."sortName", g.name,',
  project: 'g."projectName" NULLS LAST,',
  location: 'g.location NULLS LAST,',
  propertyType: 'g."propertyType"::text NULLS LAST,',
  style: 'g.style::text NULLS LAST,',
  status: 'g.status,',
};

// The page of the list after gallery $3 (or from the start), $4 long: ids with their place n.
const pageSql = (sort: GallerySort) => `
  WITH visible AS (
    SELECT g.id, row_number() OVER (ORDER BY ${ORDER_SQL[sort]} g."createdAt" DESC, g.id DESC) AS n
    FROM "Gallery" g
    WHERE ${readableGallerySql('g', '$1')}
      AND ($2::text IS NULL OR g.name ILIKE $2 OR g.description ILIKE $2 OR g."movieTvShow" ILIKE $2
           OR g.location ILIKE $2 OR EXISTS (SELECT 1 FROM unnest(g.tags) AS t(tag) WHERE t.tag ILIKE $2))
  ), page AS (
    SELECT id, n FROM visible
    WHERE $3::uuid IS NULL OR n > (SELECT n FROM visible WHERE id = $3)
    ORDER BY n LIMIT $4
  )`;

/** What a gallery card shows beyond the gallery's own columns. */
export interface GalleryCardFacts {
  /** The cover photo's object path, if a cover is set. */
  coverPath: string | null;
  /** Whether the cover has its grid thumbnail for high-density screens (grid2x). */
  coverGrid2x: boolean;
  photoCount: number;
  /** Whether a project of the viewer's holds an active write share of it. */
  writeShared: boolean;
}

// The facts of gallery g for viewer $1, as one JSON column beside the gallery's own.
const cardFactsSql = `json_build_object(
    'coverPath', (SELECT f."objectPath" FROM "File" f WHERE f.id = g."coverImageId"),
    'coverGrid2x', EXISTS (SELECT 1 FROM "File" f WHERE f.id = g."coverImageId"
                             AND f.metadata->'thumbnails'->'grid2x' = 'true'::jsonb),
    'photoCount', (SELECT count(*) FROM "GalleryItem" i WHERE i."galleryId" = g.id)::int,
    'writeShared', EXISTS (SELECT 1 FROM "GalleryShare" s JOIN "ProjectMember" m ON m."projectId" = s."projectId"
                           WHERE s."galleryId" = g.id AND s.status = 'active' AND s.permission = 'write'
                             AND m."userId" = $1))`;

const galleryColumnsSql = `g.id, g."ownerId", g.name, g."sortName", g.description, g.tags, g."projectName",
  g."movieTvShow", g.location, g."propertyType"::text AS "propertyType", g.style::text AS style, g.status,
  g."isPublic", g."coverImageId", g.notes, g."photoOrder", g."createdAt" AT TIME ZONE 'UTC' AS "createdAt",
  g."updatedAt" AT TIME ZONE 'UTC' AS "updatedAt"`;

const cardsPageSql = (sort: GallerySort) => `${pageSql(sort)}
  SELECT ${galleryColumnsSql}, ${cardFactsSql} AS facts
  FROM page JOIN "Gallery" g ON g.id = page.id
  ORDER BY page.n`;

/** The facts of each card a cards page read, by its row: the card fields read them from there. */
const factsOfRow = new WeakMap<object, GalleryCardFacts>();

/**
 * A page of the gallery list, rows as Prisma's findMany returns them, read with each card's facts
 * in one hand-written statement (Db.$sql): the galleries screen asks for it on every visit, and
 * Prisma's own work around the SQL cost more CPU than the rest of the request (bench/api.ts).
 * GraphQL loads what a client asks beyond the rows and facts (owner, shares, photos) by id.
 * cards.test.ts holds it to Prisma's answer for every sort, search, cursor and kind of access.
 * `after` is the id of the last gallery of the page before.
 */
export async function galleryCardsPage(
  ctx: ViewerContext,
  options: GalleryListOptions & { take: number; after?: string },
): Promise<Gallery[]> {
  const { sort, search } = listOptions(options);
  const rows = await ctx.db.$sql<Gallery & { facts?: GalleryCardFacts }>(
    cardsPageSql(sort),
    pageParams(ctx, search, options),
  );
  return rows.map(({ facts, ...gallery }) => {
    if (facts) factsOfRow.set(gallery, facts);
    return gallery;
  });
}

/** The first page of items a gallery's statement read with it, by its row, and the page size it read. */
const firstItemsOfRow = new WeakMap<object, { take: number; items: GalleryItemWithFile[] }>();

/** A page of items as JSON rows: the same columns, their instants as text. */
type ItemsPageJson = Omit<ItemsPageRow, 'createdAt' | 'fileCreatedAt' | 'fileUpdatedAt'> & {
  createdAt: string;
  fileCreatedAt: string;
  fileUpdatedAt: string;
};

/**
 * A gallery the viewer may read, with its card facts, in one hand-written statement: the gallery
 * screen opens one on every visit (bench/gallery.ts). Null when it is hidden from them or gone.
 * With `firstItems`, the statement reads the first page of that many items too (as
 * galleryItemsPage would, as JSON beside the row): the screen asks for it with the gallery, and a
 * second statement after this one would wait a round trip for an id the viewer already sent.
 */
export async function readableGalleryWithFacts(
  ctx: ViewerContext,
  id: string,
  { firstItems }: { firstItems?: number } = {},
): Promise<Gallery | null> {
  // The page in the gallery's own order: one branch per order, of which the row's runs.
  const pageIn = (order: PhotoOrder) =>
    `WHEN '${order}' THEN (SELECT coalesce(json_agg(p ORDER BY ${orderBySql(order, 'p', 'p')}), '[]') FROM (${itemsPageSql('g.id', 'NULL', firstItems ?? 1, order)}) p)`;
  const page = firstItems ? `, CASE g."photoOrder" ${PHOTO_ORDERS.map(pageIn).join(' ')} END AS "firstItems"` : '';
  const [row] = await ctx.db.$sql<Gallery & { facts: GalleryCardFacts; firstItems?: ItemsPageJson[] }>(
    `SELECT ${galleryColumnsSql}, ${cardFactsSql} AS facts${page} FROM "Gallery" g
     WHERE g.id = $2::uuid AND ${readableGallerySql('g', '$1')}`,
    [ctx.viewer.id, id],
  );
  if (!row) return null;
  const { facts, firstItems: items, ...gallery } = row;
  factsOfRow.set(gallery, facts);
  if (firstItems && items) {
    firstItemsOfRow.set(gallery, {
      take: firstItems,
      items: items.map((r) =>
        itemWithFile({
          ...r,
          createdAt: new Date(r.createdAt),
          fileCreatedAt: new Date(r.fileCreatedAt),
          fileUpdatedAt: new Date(r.fileUpdatedAt),
        }),
      ),
    });
  }
  return gallery;
}

/** The first `take` items of a gallery, if its statement read them with it (readableGalleryWithFacts). */
export function firstItemsReadWith(gallery: object, take: number) {
  const read = firstItemsOfRow.get(gallery);
  return read?.take === take ? read.items : undefined;
}

const factsLoaders = new WeakMap<
  object,
  { kept?: DataLoader<string, GalleryCardFacts>; fresh?: DataLoader<string, GalleryCardFacts> }
>();

/**
 * The card facts of a gallery the viewer may read: those its cards page read with it, or else
 * read together with those of every other gallery of the request asking at the same moment.
 * With `keep` (a query: its fields ask at different moments, the items' totalCount after the
 * page of items) they are read once for the rest of the request; a mutation, or a subscription's
 * next event, reads them afresh: they may have changed since.
 */
export function galleryCardFacts(
  ctx: ViewerContext,
  gallery: { id: string },
  { keep }: { keep: boolean },
): GalleryCardFacts | Promise<GalleryCardFacts> {
  // At once when known: a promise per card field costs GraphQL's executor more than the fields.
  const known = factsOfRow.get(gallery);
  if (known) return known;
  let loaders = factsLoaders.get(ctx);
  if (!loaders) {
    loaders = {};
    factsLoaders.set(ctx, loaders);
  }
  const kind = keep ? 'kept' : 'fresh';
  let loader = loaders[kind];
  if (!loader) {
    loader = new DataLoader<string, GalleryCardFacts>(
      async (ids) => {
        const rows = await ctx.db.$sql<{ id: string; facts: GalleryCardFacts }>(
          `SELECT g.id, ${cardFactsSql} AS facts FROM "Gallery" g
           WHERE g.id = ANY($2::uuid[]) AND ${readableGallerySql('g', '$1')}`,
          [ctx.viewer.id, ids],
        );
        const byId = new Map(rows.map((row) => [row.id, row.facts]));
        return ids.map((id) => byId.get(id) ?? new NotFoundError('Gallery'));
      },
      { cache: keep },
    );
    loaders[kind] = loader;
  }
  return loader.load(gallery.id);
}

// The items of gallery `gallery` after item `after` (or from the start, when NULL), each with its
// whole file row: SQL expressions, so a statement can read a page beside the gallery. The page size
// is written into the text, not sent as a parameter: with LIMIT $n PostgreSQL's generic plan
// guesses a tenth of a large gallery, costs more than a custom plan, and so each opening of the
// gallery was planned afresh (about 0.8 ms of 2.7 in bench/gallery.ts). Page sizes are few, and so
// are the statements.
const itemsPageSql = (gallery: string, after: string, take: number, order: PhotoOrder) => {
  if (!Number.isSafeInteger(take) || take < 1) throw new RangeError(`a page of items holds 1 or more, not ${take}`);
  return `
  SELECT i.id, i."galleryId", i."fileId", i.position, i."addedById", i."createdAt" AT TIME ZONE 'UTC' AS "createdAt",
         f."ownerId", f."folderId", f.name, f."sortName", f."originalName", f."mimeType", f.size::text AS size,
         f."objectUrl", f."objectPath", f.checksum, f."isPublic", f.tags, f.metadata,
         f."createdAt" AT TIME ZONE 'UTC' AS "fileCreatedAt", f."updatedAt" AT TIME ZONE 'UTC' AS "fileUpdatedAt"
  FROM "GalleryItem" i JOIN "File" f ON f.id = i."fileId"
  WHERE i."galleryId" = ${gallery}
    AND ${afterSql(order, gallery, after)}
  ORDER BY ${orderBySql(order, 'i', 'f')}
  LIMIT ${take}`;
};

type ItemsPageRow = GalleryItem &
  Omit<File, 'id' | 'size' | 'createdAt' | 'updatedAt'> & { size: string; fileCreatedAt: Date; fileUpdatedAt: Date };

/**
 * A page of a gallery's items in gallery order, each with its file, as Prisma's findMany with
 * `include: { file: true }` answers them, in one hand-written statement (Db.$sql): the gallery
 * screen asks for a page on every visit, and Prisma's JSON for it and its mapping cost more than
 * the SQL (bench/gallery.ts). The caller has checked that the viewer may read the gallery.
 * `after` is the id of the last item of the page before. items.test.ts holds it to Prisma's answer.
 */
export async function galleryItemsPage(
  ctx: ViewerContext,
  galleryId: string,
  options: { take: number; after?: string; order?: PhotoOrder },
): Promise<GalleryItemWithFile[]> {
  const rows = await ctx.db.$sql<ItemsPageRow>(itemsPageSql('$1', '$2', options.take, options.order ?? 'manual'), [
    galleryId,
    options.after ?? null,
  ]);
  return rows.map(itemWithFile);
}

type GalleryItemWithFile = GalleryItem & { file: File };

function itemWithFile(r: ItemsPageRow): GalleryItemWithFile {
  return {
    id: r.id,
    galleryId: r.galleryId,
    fileId: r.fileId,
    position: r.position,
    addedById: r.addedById,
    createdAt: r.createdAt,
    file: {
      id: r.fileId,
      ownerId: r.ownerId,
      folderId: r.folderId,
      name: r.name,
      sortName: r.sortName,
      originalName: r.originalName,
      mimeType: r.mimeType,
      size: BigInt(r.size),
      objectUrl: r.objectUrl,
      objectPath: r.objectPath,
      checksum: r.checksum,
      isPublic: r.isPublic,
      tags: r.tags,
      metadata: r.metadata,
      createdAt: r.fileCreatedAt,
      updatedAt: r.fileUpdatedAt,
    },
  };
}

function pageParams(ctx: ViewerContext, search: string, options: { take: number; after?: string }) {
  return [ctx.viewer.id, search ? `%${escapeLike(search)}%` : null, options.after ?? null, options.take];
}

/** The ids of a page of the list, in list order: what orders the label sorts, which Prisma cannot. */
export async function galleryPageIds(
  ctx: ViewerContext,
  options: GalleryListOptions & { take: number; after?: string },
) {
  const { sort, search } = listOptions(options);
  const rows = await ctx.db.$sql<{ id: string }>(
    `${pageSql(sort)} SELECT id FROM page ORDER BY n`,
    pageParams(ctx, search, options),
  );
  return rows.map((r) => r.id);
}

/** Rows fetched by id (`where: { id: { in: ids } }`) put back in the order of `ids`. */
export function inOrderOf<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The galleries the viewer may see, searched and sorted, with cover, tags and photo count. */
export async function listGalleries(ctx: ViewerContext, options: GalleryListOptions = {}) {
  const { where, orderBy } = await galleryListQuery(ctx, options);
  const include = galleryCardInclude(ctx.viewer.id);
  if (orderBy) return ctx.db.gallery.findMany({ where, orderBy, include, take: 1000 });
  const ids = await galleryPageIds(ctx, { ...options, take: 1000 });
  return inOrderOf(ids, await ctx.db.gallery.findMany({ where: { AND: [where, { id: { in: ids } }] }, include }));
}

// ───────────── gallery items ─────────────

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
  const { items, notification } = await ctx.db.$transaction(async (tx) => {
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
    if (toAdd.length === 0) return { items: [], notification: null };
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
    await recordActivity(tx, {
      userId: ctx.viewer.id,
      action: 'file_added_to_gallery',
      resourceType: 'gallery',
      resourceId: galleryId,
      resourceName: gallery.name,
      metadata: { fileCount: toAdd.length, fileNames: toAdd.slice(0, 10).map((id) => names.get(id) ?? '') },
    });
    let notification = null;
    if (gallery.ownerId !== ctx.viewer.id) {
      const adder = await tx.user.findUniqueOrThrow({ where: { id: ctx.viewer.id }, select: userNameSelect });
      const what = toAdd.length === 1 ? `"${names.get(toAdd[0] as string)}"` : `${toAdd.length} files`;
      notification = await writeNotification(tx, {
        userId: gallery.ownerId,
        type: 'file',
        title: 'Files added to your gallery',
        message: `${nameOf(adder)} added ${what} to "${gallery.name}".`,
        link: appLink.gallery(galleryId),
      });
    }
    const items = await tx.galleryItem.findMany({
      where: { galleryId, fileId: { in: toAdd } },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      include: galleryItemInclude,
    });
    return { items, notification };
  });
  if (notification) publishNotifications(ctx, [notification]);
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

// ───────────── sharing with projects ─────────────

export const shareInclude = {
  project: { select: { id: true, name: true, type: true } },
} satisfies Prisma.GalleryShareInclude;
export type ShareRow = Prisma.GalleryShareGetPayload<{ include: typeof shareInclude }>;

export function shareJson(share: ShareRow) {
  return {
    id: share.id,
    galleryId: share.galleryId,
    projectId: share.projectId,
    project: share.project,
    permission: share.permission,
    status: share.status,
    sharedById: share.sharedById,
    createdAt: share.createdAt,
    updatedAt: share.updatedAt,
  };
}

/**
 * The owner shares a gallery with one of their projects. Sharing again with the same project
 * changes the permission of the existing share. The project's other members are told.
 */
export async function shareGallery(ctx: ViewerContext, galleryId: string, input: unknown) {
  const data = parse(shareInput, input ?? {});
  const { share, notifications, memberIds } = await ctx.db.$transaction(async (tx) => {
    const gallery = await galleryFor(ctx, galleryId, 'owner', tx, 'Only the gallery owner can share it.');
    const project = await projectForViewer(ctx, data.projectId, tx);
    const existing = await tx.galleryShare.findUnique({
      where: { galleryId_projectId: { galleryId, projectId: project.id } },
    });
    if (existing) {
      const share = await tx.galleryShare.update({
        where: { id: existing.id },
        data: { permission: data.permission, status: 'active' },
        include: shareInclude,
      });
      return { share, notifications: [], memberIds: await memberIdsOf(tx, project.id) };
    }
    const share = await tx.galleryShare.create({
      data: { galleryId, projectId: project.id, permission: data.permission, sharedById: ctx.viewer.id },
      include: shareInclude,
    });
    const members = await tx.projectMember.findMany({ where: { projectId: project.id }, select: { userId: true } });
    await recordActivity(tx, {
      userId: ctx.viewer.id,
      action: 'gallery_shared',
      resourceType: 'gallery',
      resourceId: galleryId,
      resourceName: gallery.name,
      metadata: {
        sharedWith: members.length,
        projectId: project.id,
        projectName: project.name,
        permission: data.permission,
      },
    });
    const sharer = await tx.user.findUniqueOrThrow({ where: { id: ctx.viewer.id }, select: userNameSelect });
    const notifications = [];
    for (const member of members) {
      if (member.userId === ctx.viewer.id) continue;
      notifications.push(
        await writeNotification(tx, {
          userId: member.userId,
          type: 'team',
          title: 'Gallery shared with your project',
          message: `${nameOf(sharer)} shared "${gallery.name}" with "${project.name}"${data.permission === 'write' ? ' with edit access' : ''}.`,
          link: appLink.gallery(galleryId),
        }),
      );
    }
    return { share, notifications, memberIds: members.map((m) => m.userId) };
  });
  publishNotifications(ctx, notifications);
  await announceAccessChange(ctx, memberIds, { kind: 'galleries', projectId: share.projectId, galleryId });
  return share;
}

/** The owner sees every share of the gallery; a member sees only the shares of their own projects. */
export async function listShares(ctx: ViewerContext, galleryId: string) {
  const gallery = await galleryFor(ctx, galleryId);
  return ctx.db.galleryShare.findMany({
    where: { galleryId, ...(gallery.access !== 'owner' && { project: projectMemberWhere(ctx.viewer.id) }) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: shareInclude,
  });
}

/** Ends a share: the project's members lose access with the next request. */
export async function revokeShare(ctx: ViewerContext, shareId: string) {
  if (!isUuid(shareId)) throw new NotFoundError('Share');
  const { share, memberIds } = await ctx.db.$transaction(async (tx) => {
    const share = await tx.galleryShare.findFirst({
      where: {
        id: shareId,
        OR: [{ gallery: { ownerId: ctx.viewer.id } }, { project: projectMemberWhere(ctx.viewer.id) }],
      },
      include: { ...shareInclude, gallery: { select: { ownerId: true } } },
    });
    if (!share) throw new NotFoundError('Share');
    if (share.gallery.ownerId !== ctx.viewer.id) throw new ForbiddenError('Only the gallery owner can revoke a share.');
    await tx.galleryShare.delete({ where: { id: shareId } });
    return { share, memberIds: await memberIdsOf(tx, share.projectId) };
  });
  // Members' open gallery screens and lists drop it without a reload.
  await announceAccessChange(ctx, memberIds, {
    kind: 'galleries',
    projectId: share.projectId,
    galleryId: share.galleryId,
  });
  return share;
}
