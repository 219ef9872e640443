import { Prisma } from '../generated/prisma/client.ts';

// Who may see and change what. Every list and every lookup goes through these, so a rule changes
// in one place. Project owners are members too (role 'owner'), so membership is the one test.
// Each rule is written twice, side by side: as Prisma's `where`, and as SQL for the statements
// Prisma cannot express (search, the gallery cards page). access.test.ts holds each pair to the
// same rows for every kind of viewer.

export type AccessMode = 'read' | 'write';

/** Projects the user belongs to (as owner or member). */
export function projectMemberWhere(userId: string): Prisma.ProjectWhereInput {
  return { members: { some: { userId } } };
}

/** Galleries the user may read (or write): their own, or shared with a project of theirs. */
export function galleryAccessWhere(userId: string, mode: AccessMode = 'read'): Prisma.GalleryWhereInput {
  return {
    OR: [
      { ownerId: userId },
      {
        shares: {
          some: {
            status: 'active',
            ...(mode === 'write' ? { permission: 'write' as const } : {}),
            project: projectMemberWhere(userId),
          },
        },
      },
    ],
  };
}

/**
 * Files the user may read: their own, public ones, and those in a gallery they may read.
 * Writing a file (rename, tags, delete) stays with its owner.
 */
export function fileAccessWhere(userId: string, mode: AccessMode = 'read'): Prisma.FileWhereInput {
  if (mode === 'write') return { ownerId: userId };
  return {
    OR: [
      { ownerId: userId },
      { isPublic: true },
      { galleryItems: { some: { gallery: galleryAccessWhere(userId, 'read') } } },
    ],
  };
}

/**
 * The galleries a user may read, as an SQL condition on the gallery row `alias`, with the user's
 * id as the positional parameter `user` (statements sent as text through Db.$sql).
 */
export function readableGallerySql(alias: string, user: string): string {
  return `(${alias}."ownerId" = ${user}::uuid OR EXISTS (
    SELECT 1 FROM "GalleryShare" s JOIN "ProjectMember" m ON m."projectId" = s."projectId"
    WHERE s."galleryId" = ${alias}.id AND s.status = 'active' AND m."userId" = ${user}::uuid))`;
}

/** The files a user may read (fileAccessWhere), as an SQL condition on the file row `alias`. */
export function readableFileSql(userId: string, alias = 'f') {
  const f = Prisma.raw(`"${alias}"`);
  return Prisma.sql`(
    ${f}."ownerId" = ${userId}::uuid
    OR ${f}."isPublic"
    OR EXISTS (
      SELECT 1 FROM "GalleryItem" gi JOIN "Gallery" g ON g.id = gi."galleryId"
      WHERE gi."fileId" = ${f}.id
        AND (g."ownerId" = ${userId}::uuid OR EXISTS (
          SELECT 1 FROM "GalleryShare" s JOIN "ProjectMember" m ON m."projectId" = s."projectId"
          WHERE s."galleryId" = g.id AND s.status = 'active' AND m."userId" = ${userId}::uuid))
    )
  )`;
}
