import type { File } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { recordActivity } from '../activity/rules.ts';
import { releaseObjects } from '../storage/uploads.ts';
import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.ts';
import { NotFoundError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { isUuid } from '../shared/ids.ts';
import { nameProblem } from '../shared/names.ts';

// What folders, files and search share: transactions and their locks, ids, and the inputs they
// validate.

export type Tx = Prisma.TransactionClient;

// Interactive transactions default to 5 s; an embedded database on a busy machine needs more room.
export const TX = { timeout: 20_000, maxWait: 10_000 } as const;

/**
 * Serializes the transactions that check-then-write the same thing (a sibling name), until the
 * transaction ends. Two uploads of "a.jpg" at once must not both decide they are the first.
 */
export async function lockFor(tx: Tx, key: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
}

/** Uploads, renames, restores and deletes of one file name in one folder take turns. */
export function lockFileName(tx: Tx, ownerId: string, folderId: string | null, name: string) {
  return lockFor(tx, `file-name:${ownerId}:${folderId ?? 'root'}:${name}`);
}

/** An id from a URL or an argument: anything that is not a uuid cannot name a record (404, not a 500). */
export function recordId(id: string, what: string): string {
  if (!isUuid(id)) throw new NotFoundError(what);
  return id.toLowerCase();
}

// ───────────────────────────── inputs ─────────────────────────────

/** A folder reference from a client: null, '' or 'root' mean the top level (the spec's 'root' maps to null). */
export const folderRef = z
  .union([z.string(), z.null()], { error: 'folderId must be a folder id, "root" or null.' })
  .transform((v) => (v === null || v === '' || v === 'root' ? null : v));

/** A missing required text reads as empty, so it gets the same message as an empty one. */
export const requiredText = <T extends z.ZodType>(schema: T) => z.preprocess((v) => v ?? '', schema);

/** The one name rule (shared/names.ts) as a zod check: files and folders refuse the same names. */
function nameRule(what: 'File' | 'Folder') {
  return (name: string, ctx: z.RefinementCtx) => {
    const problem = nameProblem(name, what);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
}

export const folderName = requiredText(
  z
    .string({ error: 'Folder name must be text.' })
    .trim()
    .min(1, 'Folder name is required.')
    .max(255, 'Folder name is too long (255 characters at most).')
    .superRefine(nameRule('Folder')),
);

export const fileName = requiredText(
  z
    .string({ error: 'File name must be text.' })
    .trim()
    .min(1, 'File name is required.')
    .max(255, 'File name is too long (255 characters at most).')
    .superRefine(nameRule('File')),
);

/**
 * Tags arrive as a list or as the spec's comma-separated text: trimmed, empties dropped, repeats
 * removed. They are kept in lower case so that a tag search finds "Exterior" and "exterior" alike
 * through the tags index.
 */
export const tagsInput = z
  .union([z.array(z.string({ error: 'tags must be text.' })), z.string()], {
    error: 'tags must be a list of text or comma-separated text.',
  })
  .transform((v) => {
    const list = (typeof v === 'string' ? v.split(',') : v.flatMap((t) => t.split(',')))
      .map((t) => t.trim().toLowerCase())
      .filter((t) => t !== '');
    return [...new Set(list)];
  })
  .refine((tags) => tags.length <= 100, 'A file can have at most 100 tags.')
  .refine((tags) => tags.every((t) => t.length <= 100), 'A tag can be at most 100 characters.');

export const metadataInput = z.record(z.string(), z.unknown(), { error: 'metadata must be an object.' });

// Facts the server derived from the bytes (storage writes them); a client cannot overwrite them.
export const SERVER_METADATA_KEYS = ['image', 'thumbnails', 'processing'];

export function clientMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const copy = { ...(metadata ?? {}) };
  for (const key of SERVER_METADATA_KEYS) delete copy[key];
  return copy;
}

export function asObject(value: Prisma.JsonValue | null | undefined): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export const FILE_SORTS = ['recent', 'name', 'size', 'type'] as const;
export type FileSort = (typeof FILE_SORTS)[number];

export const sortInput = z
  .enum(FILE_SORTS, { error: 'sort must be one of recent, name, size, type.' })
  .default('recent');

/**
 * The file manager's sort orders; the id breaks ties so cursors stay stable.
 * Names sort by sortName (kept by a trigger: case-insensitive, numbers in number order), because
 * the database's collation is byte-wise and would put 'b.jpg' after 'Z.jpg'.
 */
export function fileOrderBy(sort: FileSort): Prisma.FileOrderByWithRelationInput[] {
  switch (sort) {
    case 'name':
      return [{ sortName: 'asc' }, { name: 'asc' }, { id: 'asc' }];
    case 'size':
      return [{ size: 'desc' }, { id: 'asc' }];
    case 'type':
      return [{ mimeType: 'asc' }, { sortName: 'asc' }, { name: 'asc' }, { id: 'asc' }];
    default:
      return [{ createdAt: 'desc' }, { id: 'asc' }];
  }
}

export function parseSort(sort: unknown): FileSort {
  return parse(sortInput, sort ?? undefined);
}

/** Puts records back into the order of `ids` (a findMany by ids does not keep it). */
export function inOrder<T extends { id: string }>(ids: string[], records: T[]): T[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is T => r !== undefined);
}

export type RemovableFile = Pick<File, 'id' | 'name' | 'size' | 'objectPath'> & { versions: { objectPath: string }[] };

/** Deletes file records with their versions and gallery places, and releases their bytes. */
export async function removeFiles(ctx: ViewerContext, tx: Tx, files: RemovableFile[]) {
  if (files.length === 0) return;
  const ids = files.map((f) => f.id);
  const objectPaths = [...new Set(files.flatMap((f) => [f.objectPath, ...f.versions.map((v) => v.objectPath)]))];
  await tx.gallery.updateMany({ where: { coverImageId: { in: ids } }, data: { coverImageId: null } });
  await tx.galleryItem.deleteMany({ where: { fileId: { in: ids } } });
  await tx.fileVersion.deleteMany({ where: { fileId: { in: ids } } });
  await tx.file.deleteMany({ where: { id: { in: ids } } });
  await releaseObjects(tx, objectPaths);
  for (const f of files) {
    await recordActivity(tx, {
      userId: ctx.viewer.id,
      action: 'file_deleted',
      resourceType: 'file',
      resourceId: f.id,
      resourceName: f.name,
      metadata: { size: Number(f.size) },
    });
  }
}
