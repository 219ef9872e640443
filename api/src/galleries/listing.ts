import DataLoader from 'dataloader';
import type { File, Gallery, GalleryItem, Prisma } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import {
  galleryAccessSql,
  galleryAccessWhere,
  readableGallerySql,
  sharedGallerySql,
  viewerMark,
  viewerValue,
} from '../access/rules.ts';
import { GALLERY_SORTS, type GallerySort } from './input.ts';
import { afterSql, orderBySql, PHOTO_ORDERS, type PhotoOrder } from './order.ts';
import { galleryCardInclude } from './rules.ts';

// The gallery list (searched, sorted, a page at a time, with each card's facts) and a gallery's
// photos a page at a time: the SQL that reads them.

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
    // (galleryAccessWhere) is what decides access.
    const tagged = await ctx.db.$queryRaw<{ id: string }[]>`
      SELECT g.id::text AS id FROM "Gallery" g
      WHERE ${galleryAccessSql('g', viewerValue(viewerId))}
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
    'writeShared', ${sharedGallerySql('g', viewerMark('$1'), 'write').sql})`;

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
