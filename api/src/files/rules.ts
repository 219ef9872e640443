import { z } from 'zod';
import { Prisma } from '../generated/prisma/client.ts';
import type { File, FileVersion, Folder } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { recordActivity } from '../activity/rules.ts';
import { fileAccessWhere } from '../access/rules.ts';
import { publishNotifications } from '../notifications/rules.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { type ClaimedObject, claimUpload, releaseObjects, uploadIdFrom } from '../storage/uploads.ts';
import { enqueuePhotoTagging } from '../assistant/photo-tagging-job.ts';
import { isUuid } from '../access/ids.ts';

type Tx = Prisma.TransactionClient;

// Interactive transactions default to 5 s; an embedded database on a busy machine needs more room.
const TX = { timeout: 20_000, maxWait: 10_000 } as const;

/**
 * Serializes the transactions that check-then-write the same thing (a sibling name, a batch's
 * upload notice), until the transaction ends. Two uploads of "a.jpg" at once must not both decide
 * they are the first.
 */
async function lockFor(tx: Tx, key: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
}

/** Uploads, renames, restores and deletes of one file name in one folder take turns. */
function lockFileName(tx: Tx, ownerId: string, folderId: string | null, name: string) {
  return lockFor(tx, `file-name:${ownerId}:${folderId ?? 'root'}:${name}`);
}

/** An id from a URL or an argument: anything that is not a uuid cannot name a record (404, not a 500). */
function recordId(id: string, what: string): string {
  if (!isUuid(id)) throw new NotFoundError(what);
  return id.toLowerCase();
}

// ───────────────────────────── inputs ─────────────────────────────

/** A folder reference from a client: null, '' or 'root' mean the top level (the spec's 'root' maps to null). */
const folderRef = z
  .union([z.string(), z.null()], { error: 'folderId must be a folder id, "root" or null.' })
  .transform((v) => (v === null || v === '' || v === 'root' ? null : v));

/** A missing required text reads as empty, so it gets the same message as an empty one. */
const requiredText = <T extends z.ZodType>(schema: T) => z.preprocess((v) => v ?? '', schema);

const folderName = requiredText(
  z
    .string({ error: 'Folder name must be text.' })
    .trim()
    .min(1, 'Folder name is required.')
    .max(255, 'Folder name is too long (255 characters at most).')
    .refine((v) => !/[/\\]/.test(v), 'Folder names cannot contain / or \\.'),
);

const fileName = requiredText(
  z
    .string({ error: 'File name must be text.' })
    .trim()
    .min(1, 'File name is required.')
    .max(255, 'File name is too long (255 characters at most).'),
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

const metadataInput = z.record(z.string(), z.unknown(), { error: 'metadata must be an object.' });

// Facts the server derived from the bytes (storage writes them); a client cannot overwrite them.
const SERVER_METADATA_KEYS = ['image', 'thumbnails', 'processing'];

function clientMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const copy = { ...(metadata ?? {}) };
  for (const key of SERVER_METADATA_KEYS) delete copy[key];
  return copy;
}

function asObject(value: Prisma.JsonValue | null | undefined): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export const FILE_SORTS = ['recent', 'name', 'size', 'type'] as const;
export type FileSort = (typeof FILE_SORTS)[number];

const sortInput = z.enum(FILE_SORTS, { error: 'sort must be one of recent, name, size, type.' }).default('recent');

/**
 * The file manager's sort orders (SPEC.md section 9); the id breaks ties so cursors stay stable.
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

// ───────────────────────────── folders ─────────────────────────────

/** Folders are listed by name, the same case-insensitive, number-aware way as files. */
export const FOLDER_ORDER = [
  { sortName: 'asc' },
  { name: 'asc' },
  { id: 'asc' },
] as const satisfies Prisma.FolderOrderByWithRelationInput[];

/** One of the viewer's folders, or a 404 (someone else's folder looks exactly like a missing one). */
export async function folderOfViewer(ctx: ViewerContext, id: string, db: Tx | ViewerContext['db'] = ctx.db) {
  const folder = await db.folder.findFirst({ where: { id: recordId(id, 'Folder'), ownerId: ctx.viewer.id } });
  if (!folder) throw new NotFoundError('Folder');
  return folder;
}

/** Resolves a client's folder reference (null/'root' = top level) to one of the viewer's folder ids. */
async function targetFolderId(ctx: ViewerContext, ref: string | null, db: Tx | ViewerContext['db'] = ctx.db) {
  if (ref === null) return null;
  return (await folderOfViewer(ctx, ref, db)).id;
}

async function assertFolderNameFree(tx: Tx, ownerId: string, parentId: string | null, name: string, exceptId?: string) {
  const clash = await tx.folder.findFirst({
    where: {
      ownerId,
      parentId,
      name: { equals: name, mode: 'insensitive' },
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
    select: { id: true },
  });
  if (clash) {
    throw new ConflictError(
      `A folder named "${name}" already exists ${parentId ? 'in this folder' : 'at the top level'}.`,
    );
  }
}

export const createFolderInput = z.strictObject({
  name: folderName,
  parentId: folderRef.optional(),
});

export async function createFolder(ctx: ViewerContext, input: unknown): Promise<Folder> {
  const data = parse(createFolderInput, input);
  return ctx.db.$transaction(async (tx) => {
    await lockFor(tx, `folders:${ctx.viewer.id}`);
    const parentId = await targetFolderId(ctx, data.parentId ?? null, tx);
    await assertFolderNameFree(tx, ctx.viewer.id, parentId, data.name);
    const folder = await tx.folder.create({ data: { ownerId: ctx.viewer.id, parentId, name: data.name } });
    await recordActivity(tx, {
      userId: ctx.viewer.id,
      action: 'folder_created',
      resourceType: 'folder',
      resourceId: folder.id,
      resourceName: folder.name,
    });
    return folder;
  }, TX);
}

/** The JSON shape of a folder in REST answers, with how much is directly inside it. */
export function folderJson(folder: Folder & { _count?: { files: number; children: number } }) {
  const { _count, sortName: _sortName, ...rest } = folder;
  return { ...rest, ...(_count && { fileCount: _count.files, folderCount: _count.children }) };
}

const folderCounts = { _count: { select: { files: true, children: true } } } as const;

export async function listFolders(ctx: ViewerContext, parentRef: unknown) {
  const ref = parse(folderRef.optional(), parentRef ?? undefined) ?? null;
  const parentId = await targetFolderId(ctx, ref);
  return ctx.db.folder.findMany({
    where: { ownerId: ctx.viewer.id, parentId },
    orderBy: [...FOLDER_ORDER],
    include: folderCounts,
  });
}

/** One of the viewer's folders with its counts and its ancestors, top level first (for breadcrumbs). */
export async function getFolder(ctx: ViewerContext, id: string) {
  const folder = await ctx.db.folder.findFirst({
    where: { id: recordId(id, 'Folder'), ownerId: ctx.viewer.id },
    include: folderCounts,
  });
  if (!folder) throw new NotFoundError('Folder');
  return { ...folderJson(folder), path: await folderAncestors(ctx, folder.id) };
}

/** The folders above `folderId`, top level first, in one recursive query. */
export async function folderAncestors(ctx: ViewerContext, folderId: string): Promise<Folder[]> {
  const rows = await ctx.db.$queryRaw<{ id: string; depth: number }[]>(Prisma.sql`
    WITH RECURSIVE up(id, "parentId", depth) AS (
      SELECT id, "parentId", 0 FROM "Folder" WHERE id = ${folderId}::uuid AND "ownerId" = ${ctx.viewer.id}::uuid
      UNION ALL
      SELECT f.id, f."parentId", up.depth + 1 FROM "Folder" f JOIN up ON f.id = up."parentId" WHERE up.depth < 1000
    )
    SELECT id::text AS id, depth FROM up WHERE depth > 0 ORDER BY depth DESC`);
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  return inOrder(ids, await ctx.db.folder.findMany({ where: { id: { in: ids }, ownerId: ctx.viewer.id } }));
}

/** A limit from a query string: absent means the default; otherwise a whole number in range. */
export function parseLimit(value: unknown, fallback: number, max = 100): number {
  if (value === undefined || value === null || value === '') return fallback;
  return parse(
    z.coerce
      .number({ error: `limit must be a whole number from 1 to ${max}.` })
      .int(`limit must be a whole number from 1 to ${max}.`)
      .min(1, `limit must be a whole number from 1 to ${max}.`)
      .max(max, `limit must be a whole number from 1 to ${max}.`),
    value,
  );
}

export const updateFolderInput = z.strictObject({
  name: folderName.optional(),
  parentId: folderRef.optional(),
});

/** Renames and/or moves a folder. A folder cannot move into itself or anything below it. */
export async function updateFolder(ctx: ViewerContext, id: string, input: unknown): Promise<Folder> {
  const data = parse(updateFolderInput, input);
  return ctx.db.$transaction(async (tx) => {
    // One person's folder changes take turns: two crossing moves must not make a loop.
    await lockFor(tx, `folders:${ctx.viewer.id}`);
    const folder = await folderOfViewer(ctx, id, tx);
    const name = data.name ?? folder.name;
    let parentId = folder.parentId;
    if (data.parentId !== undefined) {
      parentId = await targetFolderId(ctx, data.parentId, tx);
      if (parentId !== null) await assertNotInside(tx, folder.id, parentId);
    }
    if (name !== folder.name || parentId !== folder.parentId) {
      await assertFolderNameFree(tx, ctx.viewer.id, parentId, name, folder.id);
    }
    return tx.folder.update({ where: { id: folder.id }, data: { name, parentId } });
  }, TX);
}

export function renameFolder(ctx: ViewerContext, id: string, name: unknown) {
  return updateFolder(ctx, id, { name });
}

export function moveFolder(ctx: ViewerContext, id: string, parentId: unknown) {
  return updateFolder(ctx, id, { parentId });
}

/** Refuses to put `folderId` under `newParentId` when that is the folder itself or one of its descendants. */
async function assertNotInside(tx: Tx, folderId: string, newParentId: string) {
  const seen = new Set<string>();
  let current: string | null = newParentId;
  while (current !== null && !seen.has(current)) {
    if (current === folderId)
      throw new ValidationError('A folder cannot be moved into itself or one of its subfolders.', 'parentId');
    seen.add(current);
    const parent: { parentId: string | null } | null = await tx.folder.findUnique({
      where: { id: current },
      select: { parentId: true },
    });
    current = parent?.parentId ?? null;
  }
}

/** Every folder below `rootId` (not including it), deepest level last. */
async function descendantLevels(tx: Tx, ownerId: string, rootId: string): Promise<string[][]> {
  const all = await tx.folder.findMany({ where: { ownerId }, select: { id: true, parentId: true } });
  const children = new Map<string, string[]>();
  for (const f of all) {
    if (!f.parentId) continue;
    children.set(f.parentId, [...(children.get(f.parentId) ?? []), f.id]);
  }
  const levels: string[][] = [];
  let frontier = [rootId];
  while (frontier.length > 0) {
    frontier = frontier.flatMap((id) => children.get(id) ?? []);
    if (frontier.length > 0) levels.push(frontier);
  }
  return levels;
}

export interface DeleteFolderResult {
  id: string;
  deletedFolders: number;
  deletedFiles: number;
}

/**
 * Deletes a folder. One with content is refused unless `recursive` is asked for explicitly; then
 * its subfolders and files go too, and the files' bytes are handed to the cleanup pass.
 */
export async function deleteFolder(
  ctx: ViewerContext,
  id: string,
  options: { recursive?: boolean } = {},
): Promise<DeleteFolderResult> {
  return ctx.db.$transaction(async (tx) => {
    const folder = await folderOfViewer(ctx, id, tx);
    const levels = await descendantLevels(tx, ctx.viewer.id, folder.id);
    const folderIds = [folder.id, ...levels.flat()];
    const files = await tx.file.findMany({
      where: { folderId: { in: folderIds } },
      select: { id: true, name: true, size: true, objectPath: true, versions: { select: { objectPath: true } } },
    });
    if (!options.recursive && (levels.length > 0 || files.length > 0)) {
      throw new ConflictError(
        `The folder "${folder.name}" is not empty. Move or delete what is in it first, or delete it together with its contents.`,
      );
    }
    await removeFiles(ctx, tx, files);
    // Children before parents: a folder's parent link refuses to dangle.
    for (const level of [...levels].reverse()) await tx.folder.deleteMany({ where: { id: { in: level } } });
    await tx.folder.delete({ where: { id: folder.id } });
    return { id: folder.id, deletedFolders: folderIds.length, deletedFiles: files.length };
  }, TX);
}

// ───────────────────────────── files ─────────────────────────────

/** The JSON shape of a file record in REST answers: sizes are plain numbers of bytes. */
export function fileJson(file: File) {
  const { sortName: _sortName, ...rest } = file;
  return { ...rest, size: Number(file.size) };
}

export function versionJson(version: FileVersion, currentVersion: number) {
  return { ...version, size: Number(version.size), isCurrent: version.version === currentVersion };
}

/**
 * What an upload whose name is already taken in its folder does: keepBoth files it beside the
 * other under the first free "name (n).ext", replace makes it the newest version of the other
 * (galleries showing that file then show the new bytes), skip files nothing.
 */
export const CONFLICT_CHOICES = ['keepBoth', 'replace', 'skip'] as const;
export type ConflictChoice = (typeof CONFLICT_CHOICES)[number];

export const onConflictInput = z.enum(CONFLICT_CHOICES, {
  error: 'onConflict must be one of keepBoth, replace, skip.',
});

export const createFileInput = z.strictObject({
  name: fileName,
  originalName: z.string({ error: 'originalName must be text.' }).trim().max(255).optional(),
  mimeType: z.string({ error: 'mimeType must be text.' }).trim().max(255).optional(),
  // The size the client reports is ignored: the stored size is what actually arrived.
  size: z.number({ error: 'size must be a number of bytes.' }).nonnegative().optional(),
  objectUrl: requiredText(z.string({ error: 'objectUrl must be text.' }).min(1, 'objectUrl is required.')),
  folderId: folderRef.optional(),
  isPublic: z.boolean({ error: 'isPublic must be true or false.' }).optional(),
  tags: tagsInput.optional(),
  metadata: metadataInput.optional(),
  onConflict: onConflictInput.optional(),
});

export type CreateFileInput = z.input<typeof createFileInput>;

export interface CreatedFile {
  file: File;
  /** 1 for a new file; higher when the upload became a new version of a file with the same name. */
  version: number;
}

/** The outcome of filing an upload: a file (new, kept beside a namesake, or a new version), or skipped. */
export type FiledUpload =
  | (CreatedFile & {
      skipped: false;
      /** The name asked for, when keepBoth had to number it. */
      renamedFrom: string | null;
    })
  | { skipped: true; existing: File };

/** "barn.jpg" → "barn (2).jpg"; a name without an extension (or a dot file) gets the number at the end. */
export function numberedName(name: string, n: number) {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = ` (${n})${ext}`;
  // Names stop at 255 characters: a long stem gives up its end, not the number or the extension.
  return `${stem.slice(0, Math.max(1, 255 - suffix.length))}${suffix}`;
}

/** The same-name rule of a folder: names match exactly (as renames and moves check them). */
function sameNameWhere(ownerId: string, folderId: string | null, names: string[]) {
  return { ownerId, folderId, name: { in: names } } satisfies Prisma.FileWhereInput;
}

/**
 * The first "name (n).ext" not taken in the folder. Filing takes each candidate's name lock
 * (held until the transaction ends) before looking, so two uploads of one name at once cannot
 * both take "(1)", nor can a rename to it.
 */
async function firstFreeName(
  db: Tx | ViewerContext['db'],
  ownerId: string,
  folderId: string | null,
  name: string,
  lock?: (candidate: string) => Promise<void>,
) {
  for (let n = 1; ; n++) {
    const candidate = numberedName(name, n);
    await lock?.(candidate);
    const taken = await db.file.findFirst({
      where: sameNameWhere(ownerId, folderId, [candidate]),
      select: { id: true },
    });
    if (!taken) return candidate;
  }
}

/**
 * Records an uploaded file (the spec's POST /api/files). The upload is claimed in the same
 * transaction, so the size, checksum and detected type are the server's, not the client's. When
 * the name is taken in the folder, onConflict decides (keepBoth unless asked otherwise): a photo
 * in a gallery changes only when someone chose to replace it.
 */
export async function createFileRecord(ctx: ViewerContext, input: unknown): Promise<FiledUpload> {
  const data = parse(createFileInput, input);
  const onConflict = data.onConflict ?? 'keepBoth';
  const result = await ctx.db.$transaction(async (tx) => {
    const folderId = await targetFolderId(ctx, data.folderId ?? null, tx);
    await lockFileName(tx, ctx.viewer.id, folderId, data.name);
    const claim = await claimUpload(tx, ctx.viewer, data.objectUrl);
    const mimeType = claim.mimeType || data.mimeType || 'application/octet-stream';
    const metadata = { ...clientMetadata(data.metadata), ...asObject(claim.metadata) } as Prisma.InputJsonObject;
    const existing = await tx.file.findFirst({
      where: sameNameWhere(ctx.viewer.id, folderId, [data.name]),
      orderBy: { createdAt: 'asc' },
    });
    if (existing && onConflict === 'skip') {
      // Claimed only to check it is this person's finished upload; its bytes go to the cleanup pass.
      await releaseObjects(tx, [claim.objectPath]);
      return { skipped: true as const, existing };
    }
    let file: File;
    let version = 1;
    let renamedFrom: string | null = null;
    if (existing && onConflict === 'replace') {
      // Tags the person gave the earlier versions still describe the file.
      ({ file, version } = await addVersionToFile(tx, ctx, existing, claim, {
        originalName: data.originalName || data.name,
        mimeType,
        metadata,
        tags: [...new Set([...existing.tags, ...(data.tags ?? [])])],
        ...(data.isPublic !== undefined && { isPublic: data.isPublic }),
      }));
    } else {
      const name = existing
        ? await firstFreeName(tx, ctx.viewer.id, folderId, data.name, (candidate) =>
            lockFileName(tx, ctx.viewer.id, folderId, candidate),
          )
        : data.name;
      if (name !== data.name) renamedFrom = data.name;
      file = await tx.file.create({
        data: {
          ownerId: ctx.viewer.id,
          folderId,
          name,
          originalName: data.originalName || data.name,
          mimeType,
          size: claim.size,
          checksum: claim.checksum,
          objectUrl: claim.objectPath,
          objectPath: claim.objectPath,
          isPublic: data.isPublic ?? false,
          tags: data.tags ?? [],
          metadata,
        },
      });
      await recordVersion(tx, ctx, file, claim, mimeType, 1);
    }
    const notification = await noteUploadFinished(tx, ctx.viewer.id, file.name);
    return { skipped: false as const, file, version, renamedFrom, notification };
  }, TX);
  if (result.skipped) return result;
  const { notification, ...filed } = result;
  publishNotifications(ctx, [notification]);
  if (filed.version === 1 && filed.file.mimeType.startsWith('image/')) await enqueuePhotoTagging(ctx, filed.file.id);
  return filed;
}

export const nameConflictsInput = z.strictObject({
  folderId: folderRef.optional(),
  names: z
    .array(fileName, { error: 'names must be a list of file names.' })
    .min(1, 'Name at least one file.')
    .max(100, 'Ask about at most 100 names at a time.'),
});

export interface NameConflict {
  /** The name asked about. */
  name: string;
  /** The viewer's file of that name in the folder. */
  existing: File;
  /** What keepBoth would call the upload if it were filed now. */
  keepBothName: string;
}

/**
 * Which of these names are already taken in one of the viewer's folders (null: the top level),
 * so the client can ask before uploading. Only the viewer's own folders: another's is a 404.
 */
export async function nameConflicts(ctx: ViewerContext, input: unknown): Promise<NameConflict[]> {
  const data = parse(nameConflictsInput, input);
  const folderId = await targetFolderId(ctx, data.folderId ?? null);
  const names = [...new Set(data.names)];
  const existing = await ctx.db.file.findMany({
    where: sameNameWhere(ctx.viewer.id, folderId, names),
    orderBy: { createdAt: 'asc' },
  });
  const conflicts: NameConflict[] = [];
  for (const name of names) {
    const file = existing.find((f) => f.name === name);
    if (!file) continue;
    conflicts.push({
      name,
      existing: file,
      keepBothName: await firstFreeName(ctx.db, ctx.viewer.id, folderId, name),
    });
  }
  return conflicts;
}

/** Writes the version row and the upload's activity for bytes that just became a file's current ones. */
async function recordVersion(
  tx: Tx,
  ctx: ViewerContext,
  file: File,
  claim: ClaimedObject,
  mimeType: string,
  version: number,
) {
  await tx.fileVersion.create({
    data: {
      fileId: file.id,
      version,
      objectPath: claim.objectPath,
      size: claim.size,
      mimeType,
      checksum: claim.checksum,
      createdById: ctx.viewer.id,
    },
  });
  await recordActivity(tx, {
    userId: ctx.viewer.id,
    action: 'file_uploaded',
    resourceType: 'file',
    resourceId: file.id,
    resourceName: file.name,
    metadata: { size: Number(claim.size), ...(version > 1 && { version }) },
  });
}

/**
 * Makes claimed bytes the newest version of an existing file. The file keeps its name, place and
 * id (galleries and shares keep pointing at it); the earlier versions stay listed and restorable.
 * Call it under the file's name lock.
 */
async function addVersionToFile(
  tx: Tx,
  ctx: ViewerContext,
  existing: File,
  claim: ClaimedObject,
  change: {
    originalName: string;
    mimeType: string;
    metadata: Prisma.InputJsonObject;
    tags?: string[];
    isPublic?: boolean;
  },
): Promise<{ file: File; version: number }> {
  const latest = await tx.fileVersion.aggregate({ where: { fileId: existing.id }, _max: { version: true } });
  const version = (latest._max.version ?? 0) + 1;
  const file = await tx.file.update({
    where: { id: existing.id },
    data: {
      originalName: change.originalName,
      mimeType: change.mimeType,
      size: claim.size,
      checksum: claim.checksum,
      objectUrl: claim.objectPath,
      objectPath: claim.objectPath,
      metadata: change.metadata,
      ...(change.tags !== undefined && { tags: change.tags }),
      ...(change.isPublic !== undefined && { isPublic: change.isPublic }),
    },
  });
  await recordVersion(tx, ctx, file, claim, change.mimeType, version);
  return { file, version };
}

export const createFileVersionInput = z.strictObject({
  objectUrl: requiredText(z.string({ error: 'objectUrl must be text.' }).min(1, 'objectUrl is required.')),
  originalName: z.string({ error: 'originalName must be text.' }).trim().max(255).optional(),
  mimeType: z.string({ error: 'mimeType must be text.' }).trim().max(255).optional(),
  // The client's report of the size is ignored, as for a new file.
  size: z.number({ error: 'size must be a number of bytes.' }).nonnegative().optional(),
  metadata: metadataInput.optional(),
});

/**
 * 'Upload new version' on a file: the finished upload at objectUrl becomes the file's newest
 * version, whatever the uploaded file was called. Only someone who may change the file may add a
 * version; to anyone else the file does not exist. Size, checksum, type and the size and quota
 * limits are those of the upload, exactly as for a new file.
 */
export async function createFileVersion(ctx: ViewerContext, fileId: string, input: unknown): Promise<CreatedFile> {
  const data = parse(createFileVersionInput, input);
  const result = await ctx.db.$transaction(async (tx) => {
    const found = await ownFile(ctx, fileId, tx);
    await lockFileName(tx, ctx.viewer.id, found.folderId, found.name);
    // Read again under the lock: a rename or delete may have won the race.
    const existing = await ownFile(ctx, fileId, tx);
    const claim = await claimUpload(tx, ctx.viewer, data.objectUrl);
    const mimeType = claim.mimeType || data.mimeType || 'application/octet-stream';
    const metadata = { ...clientMetadata(data.metadata), ...asObject(claim.metadata) } as Prisma.InputJsonObject;
    const { file, version } = await addVersionToFile(tx, ctx, existing, claim, {
      originalName: data.originalName || existing.name,
      mimeType,
      metadata,
    });
    const notification = await noteUploadFinished(tx, ctx.viewer.id, file.name);
    return { file, version, notification };
  }, TX);
  publishNotifications(ctx, [result.notification]);
  return { file: result.file, version: result.version };
}

const UPLOAD_NOTICE_TITLE = 'Upload complete';
const UPLOAD_NOTICE_WINDOW_MS = 10 * 60 * 1000;

/**
 * Tells the uploader their upload finished. A batch of uploads should not bury the bell under one
 * notice per file: an unread notice from the last ten minutes is updated ("3 files finished
 * uploading") instead of adding another.
 */
async function noteUploadFinished(tx: Tx, userId: string, fileName: string) {
  await lockFor(tx, `upload-notice:${userId}`);
  const recent = await tx.notification.findFirst({
    where: {
      userId,
      type: 'file',
      title: UPLOAD_NOTICE_TITLE,
      isRead: false,
      createdAt: { gte: new Date(Date.now() - UPLOAD_NOTICE_WINDOW_MS) },
    },
    orderBy: { createdAt: 'desc' },
  });
  if (recent) {
    const before = Number(/^(\d+) files /.exec(recent.message)?.[1] ?? 1);
    return tx.notification.update({
      where: { id: recent.id },
      data: { message: `${before + 1} files finished uploading.` },
    });
  }
  return tx.notification.create({
    data: {
      userId,
      type: 'file',
      title: UPLOAD_NOTICE_TITLE,
      message: `${fileName} finished uploading.`,
      link: '/files',
    },
  });
}

/** A file the viewer may read (own, public, or in a gallery they can see), or a 404. */
export async function fileForViewer(ctx: ViewerContext, id: string): Promise<File> {
  const file = await ctx.db.file.findFirst({
    where: { id: recordId(id, 'File'), AND: [fileAccessWhere(ctx.viewer.id, 'read')] },
  });
  if (!file) throw new NotFoundError('File');
  return file;
}

/** A file the viewer may change (their own). Others' files, even readable ones, are a 404 here. */
async function ownFile(ctx: ViewerContext, id: string, db: Tx | ViewerContext['db'] = ctx.db): Promise<File> {
  const file = await db.file.findFirst({
    where: { id: recordId(id, 'File'), AND: [fileAccessWhere(ctx.viewer.id, 'write')] },
  });
  if (!file) throw new NotFoundError('File');
  return file;
}

export const listFilesInput = z.strictObject({
  folderId: folderRef.optional(),
  sort: sortInput.optional(),
});

/** The viewer's files in one folder (the top level when folderId is absent, null or 'root'). */
export async function listFiles(ctx: ViewerContext, input: unknown = {}): Promise<File[]> {
  const { where, orderBy } = await listFilesQuery(ctx, input);
  return ctx.db.file.findMany({ where, orderBy });
}

/** The where/orderBy of a folder listing, for callers that page it themselves (GraphQL connections). */
export async function listFilesQuery(ctx: ViewerContext, input: unknown = {}) {
  const data = parse(listFilesInput, input);
  const folderId = await targetFolderId(ctx, data.folderId ?? null);
  return {
    where: { ownerId: ctx.viewer.id, folderId } satisfies Prisma.FileWhereInput,
    orderBy: fileOrderBy(data.sort ?? 'recent'),
  };
}

export const RECENT_FILES_LIMIT = 20;

/** The viewer's most recently uploaded files, in any folder. */
export function recentFilesQuery(ctx: ViewerContext) {
  return {
    where: { ownerId: ctx.viewer.id } satisfies Prisma.FileWhereInput,
    orderBy: fileOrderBy('recent'),
  };
}

export function recentFiles(ctx: ViewerContext, limit = RECENT_FILES_LIMIT): Promise<File[]> {
  return ctx.db.file.findMany({ ...recentFilesQuery(ctx), take: limit });
}

export const updateFileInput = z.strictObject({
  name: fileName.optional(),
  tags: tagsInput.optional(),
  // Merged into what is there: the AI analysis and the auto-tagged flag arrive after the upload.
  metadata: metadataInput.optional(),
  folderId: folderRef.optional(),
  isPublic: z.boolean({ error: 'isPublic must be true or false.' }).optional(),
});

export async function updateFile(ctx: ViewerContext, id: string, input: unknown): Promise<File> {
  const data = parse(updateFileInput, input);
  return ctx.db.$transaction(async (tx) => {
    const file = await ownFile(ctx, id, tx);
    const name = data.name ?? file.name;
    const folderId = data.folderId !== undefined ? await targetFolderId(ctx, data.folderId, tx) : file.folderId;
    if (name !== file.name || folderId !== file.folderId) {
      await lockFileName(tx, ctx.viewer.id, folderId, name);
      // Same name in the same folder means "the same file" (new uploads become versions of it).
      const clash = await tx.file.findFirst({
        where: { ownerId: ctx.viewer.id, folderId, name, id: { not: file.id } },
        select: { id: true },
      });
      if (clash) {
        throw new ConflictError(
          `A file named "${name}" already exists ${folderId ? 'in that folder' : 'at the top level'}.`,
        );
      }
    }
    return tx.file.update({
      where: { id: file.id },
      data: {
        name,
        folderId,
        ...(data.tags !== undefined && { tags: data.tags }),
        ...(data.isPublic !== undefined && { isPublic: data.isPublic }),
        ...(data.metadata !== undefined && {
          metadata: {
            ...(await lockedMetadata(tx, file.id)),
            ...clientMetadata(data.metadata),
          } as Prisma.InputJsonObject,
        }),
      },
    });
  }, TX);
}

/**
 * The file's metadata read under a row lock: the upload-processing job writes the server's keys
 * (image, thumbnails) into the same JSON, and a merge from an earlier read would undo them.
 */
async function lockedMetadata(tx: Tx, fileId: string) {
  const rows = await tx.$queryRaw<{ metadata: Prisma.JsonValue }[]>`
    SELECT metadata FROM "File" WHERE id = ${fileId}::uuid FOR UPDATE`;
  return asObject(rows[0]?.metadata);
}

type RemovableFile = Pick<File, 'id' | 'name' | 'size' | 'objectPath'> & { versions: { objectPath: string }[] };

/** Deletes file records with their versions and gallery places, and releases their bytes. */
async function removeFiles(ctx: ViewerContext, tx: Tx, files: RemovableFile[]) {
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

export async function deleteFile(ctx: ViewerContext, id: string): Promise<{ id: string }> {
  return ctx.db.$transaction(async (tx) => {
    const found = await ownFile(ctx, id, tx);
    await lockFileName(tx, ctx.viewer.id, found.folderId, found.name);
    // Read again under the lock: an upload that just made a new version may have changed it.
    const file = await ownFile(ctx, id, tx);
    const versions = await tx.fileVersion.findMany({ where: { fileId: file.id }, select: { objectPath: true } });
    await removeFiles(ctx, tx, [{ ...file, versions }]);
    return { id: file.id };
  }, TX);
}

// ───────────────────────────── several files at once ─────────────────────────────

/** How many files one bulk move, delete or download may name (a page of the file list is 60). */
export const MAX_BULK_FILES = 500;

export const fileIdsInput = z
  .array(z.string({ error: 'ids must be a list of file ids.' }), { error: 'ids must be a list of file ids.' })
  .min(1, 'Choose at least one file.')
  .max(MAX_BULK_FILES, `Choose at most ${MAX_BULK_FILES} files at once.`);

/**
 * Files by id that the viewer may read or change, in the order asked, repeats dropped. All of
 * them or a 404: a bulk action on a list with one file of someone else's does nothing at all.
 */
async function filesByIds(ctx: ViewerContext, ids: string[], access: 'read' | 'write', db: Tx | ViewerContext['db']) {
  const unique = [...new Set(ids.map((id) => recordId(id, 'File')))];
  const files = await db.file.findMany({
    where: { id: { in: unique }, AND: [fileAccessWhere(ctx.viewer.id, access)] },
  });
  if (files.length !== unique.length) throw new NotFoundError('File');
  return inOrder(unique, files);
}

/** Takes the name locks of several files in one order, so two bulk actions cannot wait on each other. */
async function lockFileNames(tx: Tx, ownerId: string, places: { folderId: string | null; name: string }[]) {
  const keys = [...new Set(places.map((p) => `${p.folderId ?? 'root'}:${p.name}`))].sort();
  for (const key of keys) await lockFor(tx, `file-name:${ownerId}:${key}`);
}

export const moveFilesInput = z.strictObject({
  ids: fileIdsInput,
  folderId: folderRef,
});

/**
 * Moves several of the viewer's files into one folder (null: the top level), all or none. A name
 * that is already taken there, or two chosen files of one name, refuses the whole move: the same
 * name in one folder would make them versions of one file.
 */
export async function moveFiles(ctx: ViewerContext, input: unknown): Promise<File[]> {
  const data = parse(moveFilesInput, input);
  return ctx.db.$transaction(async (tx) => {
    const folderId = await targetFolderId(ctx, data.folderId, tx);
    const found = await filesByIds(ctx, data.ids, 'write', tx);
    const moving = found.filter((f) => f.folderId !== folderId);
    if (moving.length === 0) return found;
    await lockFileNames(tx, ctx.viewer.id, [...moving, ...moving.map((f) => ({ folderId, name: f.name }))]);
    // Read again under the locks: a rename or delete may have won the race.
    const files = await filesByIds(ctx, data.ids, 'write', tx);
    const names = new Set<string>();
    for (const f of files.filter((file) => file.folderId !== folderId)) {
      if (names.has(f.name)) {
        throw new ConflictError(`Two of the chosen files are named "${f.name}"; rename one of them first.`);
      }
      names.add(f.name);
    }
    const clash = await tx.file.findFirst({
      where: { ownerId: ctx.viewer.id, folderId, name: { in: [...names] }, id: { notIn: files.map((f) => f.id) } },
      select: { name: true },
    });
    if (clash) {
      throw new ConflictError(
        `A file named "${clash.name}" already exists ${folderId ? 'in that folder' : 'at the top level'}.`,
      );
    }
    await tx.file.updateMany({ where: { id: { in: files.map((f) => f.id) } }, data: { folderId } });
    return inOrder(
      files.map((f) => f.id),
      await tx.file.findMany({ where: { id: { in: files.map((f) => f.id) } } }),
    );
  }, TX);
}

/** Deletes several of the viewer's files with all their versions, all or none. */
export const deleteFilesInput = z.strictObject({ ids: fileIdsInput });

export async function deleteFiles(ctx: ViewerContext, input: unknown): Promise<{ ids: string[] }> {
  const wanted = parse(deleteFilesInput, input).ids;
  return ctx.db.$transaction(async (tx) => {
    await lockFileNames(tx, ctx.viewer.id, await filesByIds(ctx, wanted, 'write', tx));
    // Read again under the locks: an upload that just made a new version may have changed one.
    const files = await filesByIds(ctx, wanted, 'write', tx);
    const versions = await tx.fileVersion.findMany({
      where: { fileId: { in: files.map((f) => f.id) } },
      select: { fileId: true, objectPath: true },
    });
    await removeFiles(
      ctx,
      tx,
      files.map((f) => ({ ...f, versions: versions.filter((v) => v.fileId === f.id) })),
    );
    return { ids: files.map((f) => f.id) };
  }, TX);
}

/** The entries of a ZIP of several files: a name each (unique within the archive) and where the bytes are. */
export interface ArchiveEntry {
  name: string;
  objectKey: string;
}

/**
 * What a download of several files holds: every file must be readable by the viewer (else a 404
 * and no archive). Two files of one name (from different folders) become "name.jpg" and
 * "name (1).jpg", as a computer's own download folder would do.
 */
export async function archiveEntries(ctx: ViewerContext, ids: unknown): Promise<ArchiveEntry[]> {
  const files = await filesByIds(ctx, parse(fileIdsInput, ids), 'read', ctx.db);
  const uploadIds = files.map((f) => uploadIdFrom(f.objectPath));
  const uploads = await ctx.db.upload.findMany({
    where: { id: { in: uploadIds.filter((id): id is string => id !== null) } },
    select: { id: true, objectKey: true },
  });
  const keys = new Map(uploads.map((u) => [u.id, u.objectKey]));
  const taken = new Set<string>();
  return files.map((file, i) => {
    const objectKey = keys.get(uploadIds[i] ?? '');
    if (!objectKey) throw new NotFoundError('File');
    return { name: uniqueEntryName(file.name, taken), objectKey };
  });
}

function uniqueEntryName(name: string, taken: Set<string>) {
  // A ZIP entry name with slashes would make folders (or climb out of them when unpacked).
  const safe = name.replace(/[/\\]/g, '_');
  const dot = safe.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
  let candidate = safe;
  for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

// ───────────────────────────── versions ─────────────────────────────

/** A readable file's versions, newest first, and which one is current. */
export async function listVersions(ctx: ViewerContext, fileId: string) {
  const file = await fileForViewer(ctx, fileId);
  const versions = await ctx.db.fileVersion.findMany({ where: { fileId: file.id }, orderBy: { version: 'desc' } });
  return { file, versions, currentVersion: versions[0]?.version ?? 1 };
}

/**
 * Makes an earlier version current again. History is kept: the restored bytes become a new,
 * newest version, so every earlier state stays reachable.
 */
export async function restoreVersion(ctx: ViewerContext, fileId: string, versionInput: unknown) {
  const version = parse(
    z.coerce
      .number({ error: 'version must be a version number.' })
      .int('version must be a whole number.')
      .positive('version must be a version number.'),
    versionInput,
  );
  return ctx.db.$transaction(async (tx) => {
    const found = await ownFile(ctx, fileId, tx);
    await lockFileName(tx, ctx.viewer.id, found.folderId, found.name);
    const file = await ownFile(ctx, fileId, tx);
    const chosen = await tx.fileVersion.findUnique({ where: { fileId_version: { fileId: file.id, version } } });
    if (!chosen) throw new NotFoundError('Version');
    const latest = await tx.fileVersion.aggregate({ where: { fileId: file.id }, _max: { version: true } });
    const current = latest._max.version ?? 1;
    if (chosen.version === current) {
      throw new ValidationError(`Version ${version} is already the current version.`, 'version');
    }
    // What storage learned about those bytes (dimensions, EXIF) stays with their upload.
    const uploadId = uploadIdFrom(chosen.objectPath);
    // Locked, so a processing job finishing right now either is seen here or sees this record.
    const upload = uploadId
      ? (
          await tx.$queryRaw<{ metadata: Prisma.JsonValue }[]>`
            SELECT metadata FROM "Upload" WHERE id = ${uploadId}::uuid FOR UPDATE`
        )[0]
      : null;
    const metadata = { ...clientMetadata(asObject(file.metadata)), ...asObject(upload?.metadata) };
    const restored = await tx.fileVersion.create({
      data: {
        fileId: file.id,
        version: current + 1,
        objectPath: chosen.objectPath,
        size: chosen.size,
        mimeType: chosen.mimeType,
        checksum: chosen.checksum,
        createdById: ctx.viewer.id,
      },
    });
    const updated = await tx.file.update({
      where: { id: file.id },
      data: {
        objectPath: chosen.objectPath,
        objectUrl: chosen.objectPath,
        size: chosen.size,
        mimeType: chosen.mimeType,
        checksum: chosen.checksum,
        metadata: metadata as Prisma.InputJsonObject,
      },
    });
    return { file: updated, version: restored };
  }, TX);
}

// ───────────────────────────── search ─────────────────────────────

export const searchQueryInput = z
  .string({ error: 'Search query must be longer than 2 characters.' })
  .trim()
  .min(3, 'Search query must be longer than 2 characters.')
  .max(200, 'Search query is too long (200 characters at most).');

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Ids of the files matching a search, best first: a name (or original name) that is the query or
 * starts with it, then a tag, then names containing every word, then names with a word like the
 * query (a typo). See searchSql for the order within each kind.
 */
export async function searchFileIds(
  ctx: ViewerContext,
  q: unknown,
  options: { limit?: number; offset?: number } = {},
): Promise<string[]> {
  const rows = await ctx.db.$queryRaw<{ id: string }[]>(searchSql(ctx.viewer.id, parse(searchQueryInput, q), options));
  return rows.map((r) => r.id);
}

/**
 * Files holding a query's longest run of letters and digits, below which the word table finds
 * the files with a word like DSC_0012345 (above it, the trigram indexes do: the other runs of a
 * name like diner_lisbon_0042.jpg may rule out every file, and their trigrams find that at once).
 */
const RARE_RUN = 1000;

/** How many of the newest files the search reads in order before it asks the indexes instead. */
export const SEARCH_RECENT_WINDOW = 2000;

/** What stands before each tag in "scoutbase_tags_text" (the tag_prefix_search migration). */
const TAG_START = '\x1f';

/**
 * The one search statement (exported so tests can check its plan and its tiers).
 *
 * Scoring every match and sorting would read all of them: on a large library that is tens of
 * thousands of rows for a common word. So the statement ranks in tiers, and each tier reads only
 * as far as the page needs (`offset + limit` files):
 *  1. the name or original name starts with the query, in name order (an exact name sorts
 *     first): read in that order from an index per way in (own files by owner and name, public
 *     files by name, files of shared galleries from the few the viewer has), so a prefix shared by
 *     thousands of other people's files costs nothing;
 *  2. a tag, 3. every word in the name or original name, 4. a word like the query in the name
 *     (a typo: only for queries of letters, and not in the original name, since camera names
 *     like DSC_0012345 all look alike). Newest first: the newest `window` files are read in
 *     order and sorted into these tiers; only a tier that found fewer than the page there asks
 *     for the older matches: its tags or trigram index, or for words of letters and digits the
 *     word table (FileWord), read newest first and stopped at the page. The typo test, the
 *     costliest per row, reads the newest files in a pass of its own, only when needed.
 * A tier runs only when the tiers above it found fewer files than the page needs, and a file in
 * several tiers counts in its best, so the page is exactly that of the full ranking. The viewer's
 * shared files are collected once, not checked per row.
 */
export function searchSql(
  userId: string,
  query: string,
  {
    limit = 50,
    offset = 0,
    window = SEARCH_RECENT_WINDOW,
    rareRun = RARE_RUN,
  }: { limit?: number; offset?: number; window?: number; rareRun?: number } = {},
) {
  const lower = query.toLowerCase();
  const prefix = `${escapeLike(lower)}%`;
  const words = lower.split(/[\s,]+/).filter((w) => w.length > 0);
  const tags = [...new Set([lower, ...words])];
  const wanted = offset + limit;
  const containsEvery = (column: string) =>
    Prisma.join(
      words.map((w) => Prisma.sql`${Prisma.raw(column)} ILIKE ${`%${escapeLike(w)}%`}`),
      ' AND ',
    );
  // The runs of letters and digits in the query (FileWord's words are those of file names).
  // Words made only of such runs ("warehouse detroit") are "walkable": the every-word tier reads
  // every file holding them from the word table. Otherwise (file names with _ or .) it can when
  // the query's longest run is rare (DSC_0012345); a common one leaves it to the trigram indexes.
  const parts = [...new Set(lower.split(/[^0-9a-z\u0080-\u{10ffff}]+/u).filter((p) => p.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  const walkable = words.every((w) => /^[0-9a-z\u0080-\u{10ffff}]+$/u.test(w)) && (parts[0]?.length ?? 0) >= 3;
  const match = {
    // A tag that is a word of the query, or that starts with the whole query ("canon" finds
    // "canon eos r5"). The prefix needs a run of three letters or digits: the trigram index finds
    // nothing to look up in less, and would read all of itself.
    tag:
      (parts[0]?.length ?? 0) >= 3
        ? Prisma.sql`(f.tags && ${tags}::text[] OR "scoutbase_tags_text"(f.tags) LIKE ${`%${TAG_START}${escapeLike(lower)}%`})`
        : Prisma.sql`f.tags && ${tags}::text[]`,
    words: Prisma.sql`((${containsEvery('f.name')}) OR (${containsEvery('f."originalName"')}))`,
    // A typo is in a word: a query with digits or punctuation (a file or camera name) names
    // files, and DSC_0012346 is not a misspelling of DSC_0012345.
    like: /^[\p{L}\s]+$/u.test(lower) ? Prisma.sql`f.name %> ${lower}` : Prisma.sql`false`,
  };
  const readable = Prisma.sql`(f."ownerId" = ${userId}::uuid OR f."isPublic" OR f.id IN (SELECT id FROM shared))`;
  /** Distinct files found by the given sets (each a "SELECT id FROM …"), for a tier's gate. */
  const found = (...sets: string[]) =>
    Prisma.sql`(SELECT count(*) FROM (${Prisma.raw(sets.join(' UNION '))}) found) < ${wanted}`;
  // Each of the three ways in has its own index in name order, so a common prefix (every
  // "kitchen_…") costs no more than the page, even when most such files are someone else's.
  const starting = (column: string) => {
    // In the indexes' byte order ("C"), the one in which a prefix is a contiguous range.
    const key = Prisma.raw(`(lower(f.${column}) COLLATE "C")`);
    const first = (from: Prisma.Sql, where: Prisma.Sql) => Prisma.sql`(SELECT f.id, f."createdAt", ${key} AS key
      FROM ${from} WHERE ${key} LIKE ${prefix} AND ${where} ORDER BY ${key}, f.id LIMIT ${wanted})`;
    return Prisma.join(
      [
        first(Prisma.sql`"File" f`, Prisma.sql`f."ownerId" = ${userId}::uuid`),
        first(Prisma.sql`"File" f`, Prisma.sql`f."isPublic" AND f."ownerId" <> ${userId}::uuid`),
        first(
          Prisma.sql`shared JOIN "File" f ON f.id = shared.id`,
          Prisma.sql`NOT f."isPublic" AND f."ownerId" <> ${userId}::uuid`,
        ),
      ],
      ' UNION ALL ',
    );
  };
  // Matches older than the window, all of them (MATERIALIZED keeps PostgreSQL from walking the
  // createdAt index for them, which its estimates sometimes favour: on a rare word it would read
  // the whole table); sorted and cut to the page below.
  const older = (name: string, condition: Prisma.Sql, gate: Prisma.Sql) =>
    Prisma.sql`${Prisma.raw(name)} AS MATERIALIZED (
      SELECT f.id, f."createdAt" FROM "File" f
      WHERE ${gate} AND ${condition} AND ${readable} AND f.id NOT IN (SELECT id FROM newest)
    )`;
  // Files with every word. A word of letters and digits is in a name exactly when it is in one
  // of the name's words (FileWord, kept by triggers), and each run of letters and digits of any
  // query word is in one of them, so the files holding the word that contain the longest run
  // include every match. They are read newest first, each checked for the other runs there
  // first (an index probe, not the file row), then against the file row, and the read stops at
  // the page: a common word costs the page, not its thousands of files.
  const containing = (gate: Prisma.Sql) => {
    const [driver = '', ...others] = parts;
    if (driver.length < 3) return older('containing', match.words, gate);
    const holding = (part: string) =>
      // lower() as ILIKE does it, so that the words found are exactly those ILIKE would match.
      Prisma.sql`(SELECT v.word FROM "Word" v WHERE v.word LIKE '%' || lower(${part}) || '%')`;
    // Runs under three characters have no trigram to find their words by; the check of the file
    // row covers them.
    const probes = others
      .filter((p) => p.length >= 3)
      .map(
        (p) => Prisma.sql`EXISTS (SELECT 1 FROM "FileWord" o WHERE o.word = ANY(array${holding(p)})
          AND o."createdAt" = fw."createdAt" AND o."fileId" = fw."fileId" OFFSET 0)`,
      );
    // The newest files' pass checks every word itself when the query is not walkable.
    const beyond = walkable ? Prisma.empty : Prisma.sql`AND fw."fileId" NOT IN (SELECT id FROM newest)`;
    // The checks are subqueries that stay per row (OFFSET 0 keeps PostgreSQL from turning them
    // into joins, which would read every file with the words and sort them); CASE runs the probes
    // first (PostgreSQL would order them by cost).
    const walk = (when: Prisma.Sql) => Prisma.sql`
      SELECT DISTINCT c.id, c."createdAt" FROM ${holding(driver)} t CROSS JOIN LATERAL (
        SELECT fw."fileId" AS id, fw."createdAt" FROM "FileWord" fw
        WHERE ${gate} AND ${when} AND fw.word = t.word ${beyond}
          AND CASE WHEN ${Prisma.join([Prisma.sql`true`, ...probes], ' AND ')}
            THEN EXISTS (SELECT 1 FROM "File" f WHERE f.id = fw."fileId" AND ${match.words} AND ${readable} OFFSET 0)
            ELSE false END
        ORDER BY fw."createdAt" DESC, fw."fileId" DESC
        LIMIT ${wanted}
      ) c`;
    if (walkable) return Prisma.sql`containing AS MATERIALIZED (${walk(Prisma.sql`true`)})`;
    const rare = Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM "FileWord" r
      WHERE r.word = ANY(array${holding(driver)}) LIMIT ${rareRun}) few) < ${rareRun}`;
    return Prisma.sql`containing AS MATERIALIZED (
      ${walk(rare)}
      UNION ALL
      SELECT f.id, f."createdAt" FROM "File" f
      WHERE ${gate} AND NOT ${rare} AND ${match.words} AND ${readable} AND f.id NOT IN (SELECT id FROM newest)
    )`;
  };
  return Prisma.sql`
    WITH shared AS MATERIALIZED ( -- the gallery part of readableFileSql, once per search
      SELECT DISTINCT gi."fileId" AS id FROM "GalleryItem" gi JOIN "Gallery" g ON g.id = gi."galleryId"
      WHERE g."ownerId" = ${userId}::uuid OR EXISTS (
        SELECT 1 FROM "GalleryShare" s JOIN "ProjectMember" m ON m."projectId" = s."projectId"
        WHERE s."galleryId" = g.id AND s.status = 'active' AND m."userId" = ${userId}::uuid)
    ),
    starts AS (${starting('name')} UNION ALL ${starting('"originalName"')}),
    newest AS MATERIALIZED (SELECT id FROM "File" ORDER BY "createdAt" DESC, id DESC LIMIT ${window}),
    recent AS (
      SELECT f.id, f."createdAt", CASE WHEN ${match.tag} THEN 3 ELSE 2 END AS rank
      FROM (SELECT * FROM "File" ORDER BY "createdAt" DESC, id DESC LIMIT ${window}) f
      WHERE ${found('SELECT id FROM starts')} AND ${walkable ? match.tag : Prisma.sql`(${match.tag} OR ${match.words})`}
        AND ${readable}
    ),
    ${older('tagged', match.tag, found('SELECT id FROM starts', 'SELECT id FROM recent WHERE rank = 3'))},
    ${containing(found('SELECT id FROM starts', 'SELECT id FROM recent', 'SELECT id FROM tagged'))},
    -- The typo test is the costliest per row, so it reads the newest files in a pass of its own
    -- that runs only when the tiers above are short of the page.
    recent_alike AS MATERIALIZED (
      SELECT f.id, f."createdAt"
      FROM (SELECT * FROM "File" ORDER BY "createdAt" DESC, id DESC LIMIT ${window}) f
      WHERE ${found('SELECT id FROM starts', 'SELECT id FROM recent', 'SELECT id FROM tagged', 'SELECT id FROM containing')}
        AND ${match.like} AND ${readable}
    ),
    ${older('alike', match.like, found('SELECT id FROM starts', 'SELECT id FROM recent', 'SELECT id FROM tagged', 'SELECT id FROM containing', 'SELECT id FROM recent_alike'))}
    SELECT id::text AS id
    FROM (
      SELECT id, "createdAt", 4 AS rank, key FROM starts
      UNION ALL SELECT id, "createdAt", rank, NULL FROM recent
      UNION ALL SELECT id, "createdAt", 1, NULL FROM recent_alike
      UNION ALL (SELECT id, "createdAt", 3, NULL FROM tagged ORDER BY "createdAt" DESC, id DESC LIMIT ${wanted})
      UNION ALL (SELECT id, "createdAt", 2, NULL FROM containing ORDER BY "createdAt" DESC, id DESC LIMIT ${wanted})
      UNION ALL (SELECT id, "createdAt", 1, NULL FROM alike ORDER BY "createdAt" DESC, id DESC LIMIT ${wanted})
    ) candidates
    GROUP BY id, "createdAt"
    ORDER BY max(rank) DESC, min(key), "createdAt" DESC, id DESC
    LIMIT ${limit} OFFSET ${offset}`;
}

/** Puts records back into the order of `ids` (a findMany by ids does not keep it). */
export function inOrder<T extends { id: string }>(ids: string[], records: T[]): T[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is T => r !== undefined);
}

/**
 * The names of the folders from the top level down to each of these folders (the viewer's own;
 * [] for none), in one query: a search result says where it is, so that two files of one name
 * in different folders do not look like the same file twice.
 */
export async function folderPaths(ctx: ViewerContext, folderIds: (string | null)[]): Promise<Map<string, string[]>> {
  const ids = [...new Set(folderIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.$queryRaw<{ id: string; names: string[] }[]>(Prisma.sql`
    WITH RECURSIVE up(start, id, "parentId", name, depth) AS (
      SELECT f.id, f.id, f."parentId", f.name, 0 FROM "Folder" f
      WHERE f.id = ANY(${ids}::uuid[]) AND f."ownerId" = ${ctx.viewer.id}::uuid
      UNION ALL
      SELECT up.start, f.id, f."parentId", f.name, up.depth + 1 FROM "Folder" f JOIN up ON f.id = up."parentId"
      WHERE up.depth < 1000
    )
    SELECT start::text AS id, array_agg(name ORDER BY depth DESC) AS names FROM up GROUP BY start`);
  return new Map(rows.map((r) => [r.id, r.names]));
}

/** A file's folder path for the viewer: null for other people's files, whose folders are theirs. */
export function folderPathOf(
  viewerId: string,
  file: { ownerId: string; folderId: string | null },
  paths: Map<string, string[]>,
): string[] | null {
  if (file.ownerId !== viewerId) return null;
  return file.folderId ? (paths.get(file.folderId) ?? []) : [];
}

/** Files matching a search that the viewer may read, best match first. */
export async function searchFiles(ctx: ViewerContext, q: unknown, options: { limit?: number; offset?: number } = {}) {
  const page = searchSql(ctx.viewer.id, parse(searchQueryInput, q), options);
  // The page's rows in the same statement, in its order: one round trip instead of ids, then rows.
  return ctx.db.$queryRaw<File[]>(Prisma.sql`
    SELECT f.* FROM unnest(ARRAY(${page})) WITH ORDINALITY AS page(id, n) JOIN "File" f ON f.id = page.id::uuid
    ORDER BY page.n`);
}
