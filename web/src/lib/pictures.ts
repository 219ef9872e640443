// A stored picture's variants as the server serves them (the grid thumbnails, the preview) and
// what its metadata says of them: the same for a gallery's photos and the file manager's files.

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

export function gridUrl(objectPath: string) {
  return `${objectPath}?variant=grid`;
}

/**
 * The grid thumbnail of a picture: the 400-pixel one, and the 800-pixel one where a CSS pixel is
 * more than one device pixel (a cell is 170–360 CSS pixels wide, so a phone's needs about 800).
 * Densities rather than widths: the page's preload (routes/screenQueries.ts) makes the same choice
 * before the grid is laid out, so the browser fetches one thumbnail per cell, not two.
 */
export function gridImage(photo: { objectPath: string; grid2x?: boolean }) {
  const src = gridUrl(photo.objectPath);
  return photo.grid2x ? { src, srcSet: densitySrcSet(src, gridUrl2x(photo.objectPath)) } : { src };
}

/** A `srcset` offering `twice` (an image of twice the pixels) to high-density screens, if there is one. */
export function densitySrcSet(once: string, twice: string | null | undefined) {
  return twice ? `${once} 1x, ${twice} 2x` : undefined;
}

export function gridUrl2x(objectPath: string) {
  return `${objectPath}?variant=grid2x`;
}

export function previewUrl(objectPath: string) {
  return `${objectPath}?variant=preview`;
}

/** Whether the server has made a picture's grid thumbnail for high-density screens. */
export function hasGrid2x(metadata: unknown) {
  return (metadata as { thumbnails?: { grid2x?: unknown } } | null)?.thumbnails?.grid2x === true;
}

export function formatCoordinates({ latitude, longitude }: GeoPoint) {
  const lat = `${Math.abs(latitude).toFixed(5)}° ${latitude >= 0 ? 'N' : 'S'}`;
  const lon = `${Math.abs(longitude).toFixed(5)}° ${longitude >= 0 ? 'E' : 'W'}`;
  return `${lat}, ${lon}`;
}
