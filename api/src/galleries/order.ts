import { z } from 'zod';

/**
 * The order of a gallery's photos, kept on the gallery (Gallery.photoOrder) so that every member
 * and every review link sees the same one. `manual` is GalleryItem.position (editors drag photos);
 * the others sort by the date the camera recorded (EXIF, metadata.image.takenAt), the file name
 * (its sortName: case-insensitive, numbers in number order) or the date the photo was added to the
 * gallery, ascending or descending. Every order ends with the item's id, so pages keyed on
 * (key, id) are stable whatever is added or moved meanwhile. Photos without a recorded date sort
 * as the oldest.
 */
export const PHOTO_ORDERS = [
  'manual',
  'taken_asc',
  'taken_desc',
  'name_asc',
  'name_desc',
  'added_asc',
  'added_desc',
] as const;
export type PhotoOrder = (typeof PHOTO_ORDERS)[number];

export const photoOrderInput = z.enum(PHOTO_ORDERS, {
  error: `photoOrder must be one of ${PHOTO_ORDERS.join(', ')}.`,
});

export function asPhotoOrder(value: string | null | undefined): PhotoOrder {
  return (PHOTO_ORDERS as readonly string[]).includes(value ?? '') ? (value as PhotoOrder) : 'manual';
}

/** The sort key of an item (alias `item`) and its file (alias `file`) in SQL, and its direction. */
export function orderKeySql(order: PhotoOrder, item: string, file: string): { key: string; desc: boolean } {
  const desc = order.endsWith('_desc');
  switch (order) {
    case 'taken_asc':
    case 'taken_desc':
      return { key: `coalesce(${file}.metadata #>> '{image,takenAt}', '')`, desc };
    case 'name_asc':
    case 'name_desc':
      return { key: `${file}."sortName"`, desc };
    case 'added_asc':
    case 'added_desc':
      return { key: `${item}."createdAt"`, desc };
    default:
      return { key: `${item}.position`, desc: false };
  }
}

/** ORDER BY text for an order: the key, then the id, both in the order's direction. */
export function orderBySql(order: PhotoOrder, item: string, file: string) {
  const { key, desc } = orderKeySql(order, item, file);
  const dir = desc ? 'DESC' : 'ASC';
  return `${key} ${dir}, ${item}.id ${dir}`;
}

/**
 * The condition "after the item with id `after`" (a SQL expression, NULL for the first page) for
 * items `i` with files `f` of gallery `gallery`, in `order`.
 */
export function afterSql(order: PhotoOrder, gallery: string, after: string) {
  const mine = orderKeySql(order, 'i', 'f');
  const theirs = orderKeySql(order, 'c', 'cf');
  return `(${after}::uuid IS NULL OR (${mine.key}, i.id) ${mine.desc ? '<' : '>'} (
    SELECT ${theirs.key}, c.id FROM "GalleryItem" c JOIN "File" cf ON cf.id = c."fileId"
    WHERE c.id = ${after} AND c."galleryId" = ${gallery}))`;
}

/** The room left between two manual positions; a move into a full gap spaces the gallery out again. */
export const POSITION_GAP = 1024;

/**
 * Where a moved item goes: between the item before its target (`previous`, or none) and the
 * target (`next`, or none for the end). Null when no whole number is left between them.
 */
export function positionBetween(previous: number | null, next: number | null): number | null {
  if (next === null) return (previous ?? -POSITION_GAP) + POSITION_GAP;
  if (previous === null) return next - POSITION_GAP;
  if (next - previous < 2) return null;
  return Math.floor((previous + next) / 2);
}

/**
 * One statement that spaces the gallery's positions POSITION_GAP apart in `order` (the order the
 * people see: a drag in a sorted gallery keeps what they saw and makes it the manual order).
 */
export function respaceSql(order: PhotoOrder): string {
  return `UPDATE "GalleryItem" t SET position = s.n * ${POSITION_GAP}
    FROM (SELECT i.id, (row_number() OVER (ORDER BY ${orderBySql(order, 'i', 'f')}) - 1) AS n
          FROM "GalleryItem" i JOIN "File" f ON f.id = i."fileId" WHERE i."galleryId" = $1::uuid) s
    WHERE t.id = s.id`;
}

/** The takenAt text the SQL orders by (orderKeySql), for lists sorted in memory. */
function takenKey(metadata: unknown) {
  const image = (metadata as { image?: { takenAt?: unknown } } | null)?.image;
  return typeof image?.takenAt === 'string' ? image.takenAt : '';
}

/**
 * A whole gallery's items (read in manual order) put in `order`, as the grid's pages show them:
 * for lists read at once (the review page, the exports). Collation aside (sortName is made to
 * sort the same byte-wise and in JavaScript), this is orderBySql's order.
 */
export function inPhotoOrder<T extends { id: string; createdAt: Date; file: { sortName: string; metadata: unknown } }>(
  items: T[],
  order: PhotoOrder,
): T[] {
  if (order === 'manual') return items;
  const { desc } = orderKeySql(order, 'i', 'f');
  const key = (item: T): string | number =>
    order.startsWith('taken')
      ? takenKey(item.file.metadata)
      : order.startsWith('name')
        ? item.file.sortName
        : item.createdAt.getTime();
  const compare = (a: T, b: T) => {
    const [ka, kb] = [key(a), key(b)];
    const byKey = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return desc ? -byKey : byKey;
  };
  return [...items].sort(compare);
}
