import type { Services } from '../context.ts';
import type { Db } from '../infra/db/database.ts';

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

/**
 * Tells everyone who may read the gallery that its photos changed (live: 'gallery:items'), so an
 * open gallery, its photo count and the gallery list's card read them again. Each reader hears it
 * on their own topic, so nobody learns of a gallery they cannot see.
 */
export async function announceGalleryItems(services: Pick<Services, 'db' | 'events'>, galleryId: string) {
  for (const userId of await galleryReaders(services.db, galleryId)) {
    services.events.publish('gallery:items', userId, { galleryId });
  }
}
