import { Prisma } from '../generated/prisma/client.ts';
import { type SqlViewer, sqlAlias } from './sql.ts';

/**
 * Folders the user may see and change: folders are their owner's own, never shared (someone
 * else's folder looks exactly like a missing one).
 */
export function folderAccessWhere(userId: string): Prisma.FolderWhereInput {
  return { ownerId: userId };
}

/** folderAccessWhere as SQL, a condition on the folder row `alias`. */
export function folderAccessSql(alias: string, viewer: SqlViewer) {
  return Prisma.sql`${sqlAlias(alias)}."ownerId" = ${viewer}`;
}

/**
 * Whether the viewer may know where a file is filed: its folders are its owner's, so someone who
 * sees the file through a shared gallery or as a public file does not.
 */
export function seesFolderOf(viewerId: string, file: { ownerId: string }) {
  return file.ownerId === viewerId;
}
