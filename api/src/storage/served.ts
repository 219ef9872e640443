import type { Upload } from '../generated/prisma/client.ts';
import type { ServedBytes } from '../http/serve-bytes.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import { type Variant, variantKey } from './images.ts';

/**
 * An upload's bytes, or one of its thumbnails', as http/serve-bytes.ts serves them (the file
 * routes and review links alike). `missing` is the error when the store has no such bytes.
 */
export async function uploadBytes(
  store: ObjectStore,
  upload: Pick<Upload, 'id' | 'objectKey' | 'checksum' | 'completedAt' | 'createdAt'>,
  variant: Variant | undefined,
  missing: () => Error,
): Promise<ServedBytes> {
  const key = variant ? variantKey(upload.objectKey, variant) : upload.objectKey;
  const info = await store.stat(key);
  if (!info) throw missing();
  return {
    size: info.size,
    // The bytes behind one upload id never change (a new version is a new upload).
    etag: `"${upload.checksum ?? upload.id}${variant ? `-${variant}` : ''}"`,
    modified: upload.completedAt ?? upload.createdAt,
    open: async (range) => {
      const stream = await store.get(key, range);
      if (!stream) throw missing();
      return stream;
    },
  };
}
