import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { record } from '../domain-events/events.ts';
import { announceAccessChange, memberIdsOf, nameOf, projectForViewer, userNameSelect } from '../projects/rules.ts';
import { ForbiddenError, NotFoundError } from '../shared/errors.ts';
import { parse, requiredText } from '../shared/validation.ts';
import { isUuid } from '../shared/ids.ts';
import { visibleShareWhere } from '../access/rules.ts';
import { galleryFor } from './viewer-access.ts';

// Sharing a gallery with projects: the owner shares and revokes; members see their projects' shares.

const shareInput = z.strictObject({
  projectId: requiredText('Please select a project to share with.', 100, 'Project not found.'),
  permission: z
    .enum(['read', 'write'], { error: 'Permission must be read or write.' })
    .nullish()
    .transform((v) => v ?? 'read'),
});

export const shareInclude = {
  project: { select: { id: true, name: true, type: true } },
} satisfies Prisma.GalleryShareInclude;
export type ShareRow = Prisma.GalleryShareGetPayload<{ include: typeof shareInclude }>;

export function shareJson(share: ShareRow) {
  return {
    id: share.id,
    galleryId: share.galleryId,
    projectId: share.projectId,
    project: share.project,
    permission: share.permission,
    status: share.status,
    sharedById: share.sharedById,
    createdAt: share.createdAt,
    updatedAt: share.updatedAt,
  };
}

/**
 * The owner shares a gallery with one of their projects. Sharing again with the same project
 * changes the permission of the existing share. The project's other members are told.
 */
export async function shareGallery(ctx: ViewerContext, galleryId: string, input: unknown) {
  const data = parse(shareInput, input ?? {});
  const { share, afterCommit, memberIds } = await ctx.db.$transaction(async (tx) => {
    const gallery = await galleryFor(ctx, galleryId, 'owner', tx, 'Only the gallery owner can share it.');
    const project = await projectForViewer(ctx, data.projectId, tx);
    const existing = await tx.galleryShare.findUnique({
      where: { galleryId_projectId: { galleryId, projectId: project.id } },
    });
    if (existing) {
      const share = await tx.galleryShare.update({
        where: { id: existing.id },
        data: { permission: data.permission, status: 'active' },
        include: shareInclude,
      });
      return { share, afterCommit: undefined, memberIds: await memberIdsOf(tx, project.id) };
    }
    const share = await tx.galleryShare.create({
      data: { galleryId, projectId: project.id, permission: data.permission, sharedById: ctx.viewer.id },
      include: shareInclude,
    });
    const memberIds = await memberIdsOf(tx, project.id);
    const sharer = await tx.user.findUniqueOrThrow({ where: { id: ctx.viewer.id }, select: userNameSelect });
    const afterCommit = await record(tx, ctx, {
      type: 'gallery.shared',
      actorId: ctx.viewer.id,
      actorName: nameOf(sharer),
      galleryId,
      galleryName: gallery.name,
      projectId: project.id,
      projectName: project.name,
      permission: data.permission,
      memberIds,
    });
    return { share, afterCommit, memberIds };
  });
  await afterCommit?.();
  await announceAccessChange(ctx, memberIds, { kind: 'galleries', projectId: share.projectId, galleryId });
  return share;
}

/** The owner sees every share of the gallery; a member sees only the shares of their own projects. */
export async function listShares(ctx: ViewerContext, galleryId: string) {
  await galleryFor(ctx, galleryId);
  return ctx.db.galleryShare.findMany({
    where: { galleryId, ...visibleShareWhere(ctx.viewer.id) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: shareInclude,
  });
}

/** Ends a share: the project's members lose access with the next request. */
export async function revokeShare(ctx: ViewerContext, shareId: string) {
  if (!isUuid(shareId)) throw new NotFoundError('Share');
  const { share, memberIds } = await ctx.db.$transaction(async (tx) => {
    const share = await tx.galleryShare.findFirst({
      where: { id: shareId, ...visibleShareWhere(ctx.viewer.id) },
      include: { ...shareInclude, gallery: { select: { ownerId: true } } },
    });
    if (!share) throw new NotFoundError('Share');
    if (share.gallery.ownerId !== ctx.viewer.id) throw new ForbiddenError('Only the gallery owner can revoke a share.');
    await tx.galleryShare.delete({ where: { id: shareId } });
    return { share, memberIds: await memberIdsOf(tx, share.projectId) };
  });
  // Members' open gallery screens and lists drop it without a reload.
  await announceAccessChange(ctx, memberIds, {
    kind: 'galleries',
    projectId: share.projectId,
    galleryId: share.galleryId,
  });
  return share;
}
