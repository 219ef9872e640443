import { Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../infra/db/database.ts';
import { projectMemberWhere } from './projects.ts';
import { type SqlViewer, sqlAlias, viewerMark } from './sql.ts';

export type AccessMode = 'read' | 'write';

/**
 * The shares of a gallery that give the user access to it: active, with a project of theirs, and
 * (to write) with the write permission.
 */
export function accessShareWhere(userId: string, mode: AccessMode = 'read'): Prisma.GalleryShareWhereInput {
  return {
    status: 'active',
    ...(mode === 'write' ? { permission: 'write' as const } : {}),
    project: projectMemberWhere(userId),
  };
}

/** Galleries the user may read (or write): their own, or shared with a project of theirs. */
export function galleryAccessWhere(userId: string, mode: AccessMode = 'read'): Prisma.GalleryWhereInput {
  return { OR: [{ ownerId: userId }, { shares: { some: accessShareWhere(userId, mode) } }] };
}

/**
 * The shares of a gallery the user may see: its owner sees every one; a member sees only those of
 * their own projects, so a crew does not learn which other crews hold the gallery.
 */
export function visibleShareWhere(userId: string): Prisma.GalleryShareWhereInput {
  return { OR: [{ gallery: { ownerId: userId } }, { project: projectMemberWhere(userId) }] };
}

/** Galleries with an active share the user may see: shared with them, or theirs and shared by them. */
export function sharedGalleryWhere(userId: string): Prisma.GalleryWhereInput {
  return { shares: { some: { AND: [{ status: 'active' }, visibleShareWhere(userId)] } } };
}

/**
 * accessShareWhere as SQL: whether the gallery row `alias` holds a share that gives the viewer
 * access. It stays a per-row EXISTS: the shape the gallery list and search plans were measured with.
 */
export function sharedGallerySql(alias: string, viewer: SqlViewer, mode: AccessMode = 'read') {
  const write = mode === 'write' ? Prisma.sql`AND access_share.permission = 'write'` : Prisma.empty;
  return Prisma.sql`EXISTS (
    SELECT 1 FROM "GalleryShare" access_share
    JOIN "ProjectMember" access_member ON access_member."projectId" = access_share."projectId"
    WHERE access_share."galleryId" = ${sqlAlias(alias)}.id AND access_share.status = 'active' ${write}
      AND access_member."userId" = ${viewer})`;
}

/** galleryAccessWhere as SQL, a condition on the gallery row `alias`. */
export function galleryAccessSql(alias: string, viewer: SqlViewer, mode: AccessMode = 'read') {
  return Prisma.sql`(${sqlAlias(alias)}."ownerId" = ${viewer} OR ${sharedGallerySql(alias, viewer, mode)})`;
}

/** The galleries a user may read, as SQL text with the user's id as the positional parameter `mark`. */
export function readableGallerySql(alias: string, mark: string): string {
  return galleryAccessSql(alias, viewerMark(mark)).sql;
}

/** Everyone who may read a gallery now: its owner and the members of the projects it is actively shared with. */
export async function galleryReaders(db: Db, galleryId: string): Promise<string[]> {
  const gallery = await db.gallery.findUnique({
    where: { id: galleryId },
    select: {
      ownerId: true,
      shares: {
        where: { status: 'active' },
        select: { project: { select: { members: { select: { userId: true } } } } },
      },
    },
  });
  if (!gallery) return [];
  const members = gallery.shares.flatMap((s) => s.project.members.map((m) => m.userId));
  return [...new Set([gallery.ownerId, ...members])];
}
