import type { Services } from '../context.ts';
import { galleryReaders } from '../access/rules.ts';

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
