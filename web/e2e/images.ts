import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from 'playwright-core';

// Real photos for browser tests, made with the API's own image library (sharp), with EXIF when a
// test needs a camera, a time and GPS coordinates.
const apiPackage = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../api/package.json');
interface SharpImage {
  jpeg(options: { quality: number }): SharpImage;
  withExif(exif: Record<string, Record<string, string>>): SharpImage;
  toBuffer(): Promise<Buffer>;
}
type Sharp = (input: {
  create: {
    width: number;
    height: number;
    channels: 3;
    background?: string;
    noise?: { type: 'gaussian'; mean: number; sigma: number };
  };
}) => SharpImage;
const sharp = createRequire(apiPackage)('sharp') as Sharp;

function toDms(value: number) {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutesFloat = (abs - degrees) * 60;
  const minutes = Math.floor(minutesFloat);
  const seconds = Math.round((minutesFloat - minutes) * 60 * 100);
  return `${degrees}/1 ${minutes}/1 ${seconds}/100`;
}

export async function makePhoto({
  width = 800,
  height = 600,
  colour = '#4f46e5',
  gps,
  noisy = false,
}: {
  width?: number;
  height?: number;
  colour?: string;
  gps?: { latitude: number; longitude: number };
  noisy?: boolean;
} = {}): Promise<Buffer> {
  // Noise does not compress: a noisy photo is large enough to go over the resumable path.
  const create = noisy
    ? { width, height, channels: 3 as const, noise: { type: 'gaussian' as const, mean: 128, sigma: 60 } }
    : { width, height, channels: 3 as const, background: colour };
  const image = sharp({ create }).jpeg({ quality: 90 });
  if (!gps) return image.toBuffer();
  return image
    .withExif({
      IFD0: { Make: 'Canon', Model: 'Canon EOS R5' },
      IFD2: { DateTimeOriginal: '2026:05:01 10:30:00' },
      IFD3: {
        GPSLatitudeRef: gps.latitude >= 0 ? 'N' : 'S',
        GPSLatitude: toDms(gps.latitude),
        GPSLongitudeRef: gps.longitude >= 0 ? 'E' : 'W',
        GPSLongitude: toDms(gps.longitude),
      },
    })
    .toBuffer();
}

/** Puts a file into the file manager the way the upload panel does (URL, PUT, record). */
export async function uploadThroughApi(
  request: APIRequestContext,
  name: string,
  bytes: Buffer,
  mimeType = 'image/jpeg',
  folderId: string | null = null,
  onConflict: 'keepBoth' | 'replace' | 'skip' = 'keepBoth',
) {
  const { uploadURL } = (await (await request.post('/api/objects/upload', { data: {} })).json()) as {
    uploadURL: string;
  };
  const put = await request.put(uploadURL, { data: bytes, headers: { 'content-type': mimeType } });
  if (!put.ok()) throw new Error(`PUT failed: ${put.status()}`);
  const record = await request.post('/api/files', {
    data: {
      name,
      originalName: name,
      mimeType,
      size: bytes.length,
      objectUrl: uploadURL,
      folderId,
      isPublic: false,
      tags: [],
      metadata: {},
      onConflict,
    },
  });
  if (record.status() !== 201) throw new Error(`POST /api/files failed: ${record.status()} ${await record.text()}`);
  return (await record.json()) as { id: string };
}
