import { z } from 'zod';
import type { File, Prisma } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { fileAccessWhere, seesFolderOf } from '../access/rules.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import {
  type Tx,
  TX,
  lockFileName,
  recordId,
  folderRef,
  fileName,
  tagsInput,
  metadataInput,
  clientMetadata,
  asObject,
  sortInput,
  fileOrderBy,
  removeFiles,
} from './shared.ts';
import { targetFolderId } from './folders.ts';

// One file: as REST answers it, read, listed in a folder or among the recent ones, changed and
// deleted. Filing uploads is uploads.ts, versions versions.ts, several files at once bulk.ts.

/** The JSON shape of a file record in REST answers: sizes are plain numbers of bytes. */
/**
 * The folder a file is in, as `viewerId` may know it: folders are their owner's own, so someone
 * who sees the file through a shared gallery gets null (GraphQL's File.folder answers the same).
 */
export function folderIdSeenBy(viewerId: string, file: Pick<File, 'ownerId' | 'folderId'>) {
  return seesFolderOf(viewerId, file) ? file.folderId : null;
}

/** A file as REST answers it to `viewerId`. */
export function fileJson(file: File, viewerId: string) {
  const { sortName: _sortName, ...rest } = file;
  return { ...rest, folderId: folderIdSeenBy(viewerId, file), size: Number(file.size) };
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
export async function ownFile(ctx: ViewerContext, id: string, db: Tx | ViewerContext['db'] = ctx.db): Promise<File> {
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
