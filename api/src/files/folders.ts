import { z } from 'zod';
import { Prisma } from '../generated/prisma/client.ts';
import type { Folder } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { record } from '../domain-events/events.ts';
import { folderAccessSql, folderAccessWhere, viewerValue } from '../access/rules.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { type Tx, TX, lockFor, recordId, folderRef, folderName, inOrder, removeFiles } from './shared.ts';

// Folders: each person's own tree, created, renamed, moved and deleted (with what is inside).

/** Folders are listed by name, the same case-insensitive, number-aware way as files. */
export const FOLDER_ORDER = [
  { sortName: 'asc' },
  { name: 'asc' },
  { id: 'asc' },
] as const satisfies Prisma.FolderOrderByWithRelationInput[];

/** One of the viewer's folders, or a 404 (someone else's folder looks exactly like a missing one). */
export async function folderOfViewer(ctx: ViewerContext, id: string, db: Tx | ViewerContext['db'] = ctx.db) {
  const folder = await db.folder.findFirst({
    where: { id: recordId(id, 'Folder'), ...folderAccessWhere(ctx.viewer.id) },
  });
  if (!folder) throw new NotFoundError('Folder');
  return folder;
}

/** Resolves a client's folder reference (null/'root' = top level) to one of the viewer's folder ids. */
export async function targetFolderId(ctx: ViewerContext, ref: string | null, db: Tx | ViewerContext['db'] = ctx.db) {
  if (ref === null) return null;
  return (await folderOfViewer(ctx, ref, db)).id;
}

export async function assertFolderNameFree(
  tx: Tx,
  ownerId: string,
  parentId: string | null,
  name: string,
  exceptId?: string,
) {
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
  const { folder, afterCommit } = await ctx.db.$transaction(async (tx) => {
    await lockFor(tx, `folders:${ctx.viewer.id}`);
    const parentId = await targetFolderId(ctx, data.parentId ?? null, tx);
    await assertFolderNameFree(tx, ctx.viewer.id, parentId, data.name);
    const folder = await tx.folder.create({ data: { ownerId: ctx.viewer.id, parentId, name: data.name } });
    const afterCommit = await record(tx, ctx, {
      type: 'folder.created',
      actorId: ctx.viewer.id,
      folderId: folder.id,
      folderName: folder.name,
    });
    return { folder, afterCommit };
  }, TX);
  await afterCommit();
  return folder;
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
    where: { ...folderAccessWhere(ctx.viewer.id), parentId },
    orderBy: [...FOLDER_ORDER],
    include: folderCounts,
  });
}

/** One of the viewer's folders with its counts and its ancestors, top level first (for breadcrumbs). */
export async function getFolder(ctx: ViewerContext, id: string) {
  const folder = await ctx.db.folder.findFirst({
    where: { id: recordId(id, 'Folder'), ...folderAccessWhere(ctx.viewer.id) },
    include: folderCounts,
  });
  if (!folder) throw new NotFoundError('Folder');
  return { ...folderJson(folder), path: await folderAncestors(ctx, folder.id) };
}

/** The folders above `folderId`, top level first, in one recursive query. */
export async function folderAncestors(ctx: ViewerContext, folderId: string): Promise<Folder[]> {
  const rows = await ctx.db.$queryRaw<{ id: string; depth: number }[]>(Prisma.sql`
    WITH RECURSIVE up(id, "parentId", depth) AS (
      SELECT id, "parentId", 0 FROM "Folder" r WHERE id = ${folderId}::uuid AND ${folderAccessSql('r', viewerValue(ctx.viewer.id))}
      UNION ALL
      SELECT f.id, f."parentId", up.depth + 1 FROM "Folder" f JOIN up ON f.id = up."parentId" WHERE up.depth < 1000
    )
    SELECT id::text AS id, depth FROM up WHERE depth > 0 ORDER BY depth DESC`);
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  return inOrder(
    ids,
    await ctx.db.folder.findMany({ where: { id: { in: ids }, ...folderAccessWhere(ctx.viewer.id) } }),
  );
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
export async function descendantLevels(tx: Tx, ownerId: string, rootId: string): Promise<string[][]> {
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
