import type { Prisma } from '../generated/prisma/client.ts';

// Who may see and change what. Every list and every lookup goes through these, so a rule changes
// in one place. Project owners are members too (role 'owner'), so membership is the one test.

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
