import { z } from 'zod';
import type { File } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { fileAccessWhere } from '../access/rules.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { uploadIdFrom } from '../storage/uploads.ts';
import { type Tx, TX, lockFor, recordId, folderRef, inOrder, removeFiles } from './shared.ts';
import { targetFolderId } from './folders.ts';

// Several files at once: moved or deleted all or none, or downloaded as one ZIP (archive.ts).

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
