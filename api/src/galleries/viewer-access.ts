import type { Prisma } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { ForbiddenError, NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { type AccessMode, accessShareWhere, galleryAccessWhere } from '../access/rules.ts';

// What the viewer may do with a gallery: see it, edit it, or (its owner) share and delete it.

type Tx = Prisma.TransactionClient;

export type GalleryAccess = 'owner' | 'write' | 'read';

/** What the viewer may do with a gallery, given its owner and the viewer's active shares of it. */
export function accessOf(viewerId: string, gallery: { ownerId: string; shares?: { permission: string }[] }) {
  return accessFrom(viewerId, gallery.ownerId, gallery.shares?.some((s) => s.permission === 'write') ?? false);
}

/** accessOf, from whether the viewer holds a write share (lists count those instead of loading them). */
export function accessFrom(viewerId: string, ownerId: string, hasWriteShare: boolean): GalleryAccess {
  if (ownerId === viewerId) return 'owner';
  return hasWriteShare ? 'write' : 'read';
}

/**
 * Who may take each action: edit (details, photos, notes) with edit access; share with projects,
 * revoke shares and delete belong to the owner alone, so a crew member cannot pass on or end
 * access the owner gave. galleryFor enforces the same table; the screens read it to leave out
 * what the viewer may not do.
 */
export const GALLERY_ACTIONS = {
  edit: ['owner', 'write'],
  share: ['owner'],
  delete: ['owner'],
} as const satisfies Record<string, readonly GalleryAccess[]>;

export function mayDo(access: GalleryAccess, action: keyof typeof GALLERY_ACTIONS) {
  return (GALLERY_ACTIONS[action] as readonly GalleryAccess[]).includes(access);
}

/** The active shares that give this viewer access: load them with any gallery you hand to accessOf. */
export const viewerSharesSelect = (viewerId: string) =>
  ({
    where: accessShareWhere(viewerId),
    select: { permission: true },
  }) satisfies Prisma.Gallery$sharesArgs;

/**
 * The gallery if the viewer may act on it: 404 if they cannot even see it, 403 if they see it but
 * may not do this ('write': owner or write share; 'owner': the owner alone).
 */
export async function galleryFor(
  ctx: ViewerContext,
  galleryId: string,
  need: AccessMode | 'owner' = 'read',
  db: Tx = ctx.db,
  refusal = 'You can only view this gallery.',
) {
  if (!isUuid(galleryId)) throw new NotFoundError('Gallery');
  const gallery = await db.gallery.findFirst({
    where: { id: galleryId, ...galleryAccessWhere(ctx.viewer.id) },
    include: { shares: viewerSharesSelect(ctx.viewer.id) },
  });
  if (!gallery) throw new NotFoundError('Gallery');
  const access = accessOf(ctx.viewer.id, gallery);
  if (need !== 'read' && !mayDo(access, need === 'owner' ? 'share' : 'edit')) throw new ForbiddenError(refusal);
  return { ...gallery, access };
}
