import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.ts';
import type { File, FileVersion } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { recordActivity } from '../activity/rules.ts';
import { fileAccessWhere } from '../access/rules.ts';
import { noteUploadFinished, publishNotifications } from '../notifications/rules.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { type ClaimedObject, claimUpload, releaseObjects, uploadIdFrom } from '../storage/uploads.ts';
import { withAnalysisOfBytes, withoutAnalysisTags } from '../assistant/bytes-analysis.ts';
import { enqueuePhotoTagging } from '../assistant/photo-tagging-job.ts';
import {
  type Tx,
  TX,
  lockFor,
  lockFileName,
  recordId,
  folderRef,
  requiredText,
  fileName,
  tagsInput,
  metadataInput,
  clientMetadata,
  asObject,
  sortInput,
  fileOrderBy,
  inOrder,
  removeFiles,
} from './shared.ts';
import { targetFolderId } from './folders.ts';

// Files and their versions: filing an upload (name conflicts, versions, the upload notice),
// reading, changing, moving and deleting one or several files, and restoring a version.

/** The JSON shape of a file record in REST answers: sizes are plain numbers of bytes. */
/**
 * The folder a file is in, as `viewerId` may know it: folders are their owner's own, so someone
 * who sees the file through a shared gallery gets null (GraphQL's File.folder answers the same).
 */
export function folderIdSeenBy(viewerId: string, file: Pick<File, 'ownerId' | 'folderId'>) {
  return file.ownerId === viewerId ? file.folderId : null;
}

/** A file as REST answers it to `viewerId`. */
export function fileJson(file: File, viewerId: string) {
  const { sortName: _sortName, ...rest } = file;
  return { ...rest, folderId: folderIdSeenBy(viewerId, file), size: Number(file.size) };
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
          ...currentContent({ ...claim, mimeType }),
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
  if (filed.file.mimeType.startsWith('image/')) await enqueuePhotoTagging(ctx, filed.file.id);
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

/** Bytes in storage: a file's current content, or one of its versions. */
type StoredBytes = Pick<FileVersion, 'objectPath' | 'size' | 'mimeType' | 'checksum'>;

/** Only the storage columns of `bytes`: a claimed upload or a version row carries more, which Prisma refuses. */
function storedBytes({ objectPath, size, mimeType, checksum }: StoredBytes): StoredBytes {
  return { objectPath, size, mimeType, checksum };
}

/** The file's columns that make `bytes` its current content. */
function currentContent(bytes: StoredBytes) {
  return { ...storedBytes(bytes), objectUrl: bytes.objectPath };
}

/** The row that keeps `bytes` as version `version` of a file, added by the viewer. */
function versionRow(ctx: ViewerContext, fileId: string, version: number, bytes: StoredBytes) {
  return { fileId, version, ...storedBytes(bytes), createdById: ctx.viewer.id };
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
  await tx.fileVersion.create({ data: versionRow(ctx, file.id, version, { ...claim, mimeType }) });
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
      ...currentContent({ ...claim, mimeType: change.mimeType }),
      metadata: change.metadata,
      // The earlier bytes' analysis does not describe these: its tags go, the typed ones stay.
      tags: withoutAnalysisTags(change.tags ?? existing.tags, existing.metadata),
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
  if (result.file.mimeType.startsWith('image/')) await enqueuePhotoTagging(ctx, result.file.id);
  return { file: result.file, version: result.version };
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

/** The entries of a ZIP of several files: a name each and where the bytes are. */
export interface ArchiveEntry {
  name: string;
  objectKey: string;
}

/** Where in the object store the bytes behind each file path are (files point at their upload). */
export async function objectKeysOf(db: ViewerContext['db'], objectPaths: string[]): Promise<Map<string, string>> {
  const uploadIds = objectPaths.map(uploadIdFrom).filter((id): id is string => id !== null);
  const uploads = await db.upload.findMany({ where: { id: { in: uploadIds } }, select: { id: true, objectKey: true } });
  const keys = new Map(uploads.map((u) => [u.id, u.objectKey]));
  const found = new Map<string, string>();
  for (const objectPath of objectPaths) {
    const key = keys.get(uploadIdFrom(objectPath) ?? '');
    if (key) found.set(objectPath, key);
  }
  return found;
}

/**
 * What a download of several files holds: every file must be readable by the viewer (else a 404
 * and no archive). Names are made unique when the archive is written (files/archive.ts).
 */
export async function archiveEntries(ctx: ViewerContext, ids: unknown): Promise<ArchiveEntry[]> {
  const files = await filesByIds(ctx, parse(fileIdsInput, ids), 'read', ctx.db);
  const keys = await objectKeysOf(
    ctx.db,
    files.map((f) => f.objectPath),
  );
  return files.map((file) => {
    const objectKey = keys.get(file.objectPath);
    if (!objectKey) throw new NotFoundError('File');
    return { name: file.name, objectKey };
  });
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
  const result = await ctx.db.$transaction(async (tx) => {
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
    // So does their analysis (assistant/bytes-analysis.ts): the newer bytes' tags and description go.
    const next = withAnalysisOfBytes(
      { tags: file.tags, metadata: clientMetadata(asObject(file.metadata)) },
      asObject(upload?.metadata),
    );
    const restored = await tx.fileVersion.create({ data: versionRow(ctx, file.id, current + 1, chosen) });
    const updated = await tx.file.update({
      where: { id: file.id },
      data: { ...currentContent(chosen), tags: next.tags, metadata: next.metadata as Prisma.InputJsonObject },
    });
    return { file: updated, version: restored, needsAnalysis: next.needsAnalysis };
  }, TX);
  // Bytes never analysed (uploaded before analyses were kept with them): the tagging job looks at them.
  if (result.needsAnalysis && result.file.mimeType.startsWith('image/')) await enqueuePhotoTagging(ctx, result.file.id);
  return { file: result.file, version: result.version };
}
