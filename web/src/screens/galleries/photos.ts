import type { GeoPoint } from '../../lib/pictures.ts';
import type { FeedbackCounts } from './feedbackFilter.ts';
// What the gallery screen knows about a photo, derived from a file record and the metadata the
// storage layer read from its bytes (contracts: File.metadata.image {width, height, takenAt,
// camera, lens, gps {latitude, longitude}}).

export interface Photo {
  /** The file's global id. */
  id: string;
  /** The gallery item's global id (its comments and picks hang there); absent outside a gallery. */
  itemId?: string;
  name: string;
  mimeType: string;
  size: number;
  objectPath: string;
  width?: number;
  height?: number;
  takenAt?: string;
  camera?: string;
  lens?: string;
  gps?: GeoPoint;
  tags: readonly string[];
  /** The server is still making its thumbnails (they arrive live when done). */
  processing?: boolean;
  /** It has the grid thumbnail for high-density screens (`?variant=grid2x`, 800 px). */
  grid2x?: boolean;
  /** Reviewers' picks and comments on it in this gallery. */
  feedback?: FeedbackCounts;
}

/**
 * Pictures in the first row at phone width (two cards, two grid columns): in view as a screen
 * opens, whatever the width, so they are asked for first.
 */
export const FIRST_ROW = 2;

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/** Reads the image facts out of a file's metadata JSON, ignoring anything malformed. */
export function imageFacts(metadata: unknown): Pick<Photo, 'width' | 'height' | 'takenAt' | 'camera' | 'lens' | 'gps'> {
  const image = (metadata as { image?: Record<string, unknown> } | null)?.image;
  if (!image || typeof image !== 'object') return {};
  const gps = image.gps as Record<string, unknown> | undefined;
  const latitude = finite(gps?.latitude);
  const longitude = finite(gps?.longitude);
  return {
    width: finite(image.width),
    height: finite(image.height),
    takenAt: text(image.takenAt),
    camera: text(image.camera),
    lens: text(image.lens),
    gps:
      latitude !== undefined && longitude !== undefined && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180
        ? { latitude, longitude }
        : undefined,
  };
}

/** True while the server is still making a picture's thumbnails and reading its EXIF facts. */
export function isProcessing(metadata: unknown) {
  return (metadata as { processing?: unknown } | null)?.processing === true;
}

export function isPhoto(mimeType: string) {
  return mimeType.startsWith('image/');
}

/** How many grid columns fit a width: at least 2 on a phone, tiles of about 180 px on desktops. */
export function columnsFor(width: number) {
  if (width <= 0) return 2;
  return Math.max(2, Math.min(8, Math.floor(width / 180)));
}
