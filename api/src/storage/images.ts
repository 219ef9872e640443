import exifr from 'exifr';
import sharp from 'sharp';

/**
 * The thumbnail sizes (longer side, pixels): grid cards, the same cards on a high-density screen
 * (a phone's two columns need about 500 pixels across at three device pixels per CSS pixel), and
 * the full-screen preview.
 */
export const VARIANTS = { grid: 400, grid2x: 800, preview: 1600 } as const;
export type Variant = keyof typeof VARIANTS;

export function variantKey(objectKey: string, variant: Variant) {
  return `${objectKey}.${variant}.webp`;
}

/** What Upload.metadata.image holds (see contracts: galleries map photos by gps). */
export interface ImageInfo {
  width: number;
  height: number;
  takenAt?: string;
  camera?: string;
  lens?: string;
  orientation?: number;
  gps?: { latitude: number; longitude: number };
}

// A 50 MB PNG can still claim a billion pixels; libvips refuses anything past this.
const PIXEL_LIMIT = 200_000_000;

function text(value: unknown) {
  return typeof value === 'string' && value.trim() ? value.replace(/\0/g, '').trim() : undefined;
}

/** Dimensions as the photo is meant to be seen (EXIF orientations 5–8 swap width and height). */
export async function readImageInfo(file: string): Promise<ImageInfo> {
  const meta = await sharp(file, { limitInputPixels: PIXEL_LIMIT }).metadata();
  const orientation = meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : undefined;
  const swapped = orientation !== undefined && orientation >= 5;
  const info: ImageInfo = {
    width: (swapped ? meta.height : meta.width) ?? 0,
    height: (swapped ? meta.width : meta.height) ?? 0,
  };
  if (orientation) info.orientation = orientation;
  const exif = await exifr
    .parse(file, { tiff: true, exif: true, gps: true, ifd1: false, xmp: false, icc: false, iptc: false })
    .catch(() => undefined);
  if (!exif) return info;
  const taken = exif.DateTimeOriginal ?? exif.CreateDate ?? exif.ModifyDate;
  if (taken instanceof Date && !Number.isNaN(taken.getTime())) {
    info.takenAt = wallClock(taken) + (text(exif.OffsetTimeOriginal) ?? '');
  }
  const make = text(exif.Make);
  const model = text(exif.Model);
  // Many cameras repeat the make in the model ("Canon" + "Canon EOS R5").
  const camera =
    make && model && !model.toLowerCase().startsWith(make.toLowerCase()) ? `${make} ${model}` : (model ?? make);
  if (camera) info.camera = camera;
  const lens = text(exif.LensModel) ?? text(exif.LensMake);
  if (lens) info.lens = lens;
  const { latitude, longitude } = exif as { latitude?: unknown; longitude?: unknown };
  if (
    typeof latitude === 'number' &&
    typeof longitude === 'number' &&
    Number.isFinite(latitude) &&
    Number.isFinite(longitude) &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180
  ) {
    info.gps = { latitude, longitude };
  }
  return info;
}

/**
 * EXIF times are the camera's wall clock with no zone (exifr reads them as local time): keep them
 * as written, e.g. 2024-05-01T10:20:30, plus the offset when the camera recorded one.
 */
function wallClock(date: Date) {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A WebP thumbnail at most `size` pixels on its longer side, turned upright. */
export function thumbnail(file: string | Buffer, variant: Variant) {
  const size = VARIANTS[variant];
  return sharp(file, { limitInputPixels: PIXEL_LIMIT })
    .rotate()
    .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: variant === 'preview' ? 80 : 72 })
    .toBuffer();
}

/**
 * Every thumbnail of a picture. Only the preview is made from the original, each smaller one from
 * the one above it: a 12-megapixel photo is decoded once, and each step decodes the least it can.
 * The preview is already upright (rotate() applied and the orientation tag dropped).
 */
export async function thumbnails(file: string): Promise<Record<Variant, Buffer>> {
  const preview = await thumbnail(file, 'preview');
  const grid2x = await thumbnail(preview, 'grid2x');
  return { preview, grid2x, grid: await thumbnail(grid2x, 'grid') };
}
