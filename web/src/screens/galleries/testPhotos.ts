import type { Photo } from './photos.ts';

/** `count` plain photos for component tests: photo-0.jpg, photo-1.jpg… (not part of the app). */
export function testPhotos(count: number): Photo[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `f${i}`,
    name: `photo-${i}.jpg`,
    mimeType: 'image/jpeg',
    size: 1000,
    objectPath: `/objects/uploads/${i}`,
    tags: [],
  }));
}
