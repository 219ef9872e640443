import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { Services } from '../context.ts';
import { zipResponse } from '../files/archive.ts';
import { objectKeysOf } from '../files/bulk.ts';
import type { AppEnv } from '../http/env.ts';
import { viewerContext } from '../http/helpers.ts';
import { contentDisposition } from '../http/serve-bytes.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import { NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { type ImageInfo, variantKey } from '../storage/images.ts';
import { asPhotoOrder, inPhotoOrder } from './order.ts';
import { landRings } from './world-outline.ts';
import { photoFeedback } from '../reviews/feedback.ts';
import { galleryFor } from './viewer-access.ts';

// A gallery as a "location package": a ZIP of its originals and a PDF lookbook. The stream*
// functions decide nothing about access: the member routes below check with galleryFor first, and
// a public review link must run its own check before calling them.

export interface ExportDeps {
  db: Services['db'];
  store: ObjectStore;
}

/** What people said about one photo (the reviews domain fills it in); printed under the photo. */
export interface PhotoAnnotations {
  picks: { name: string; pick: 'yes' | 'no' | 'maybe' }[];
  comments: { name: string; body: string; createdAt?: Date }[];
}

export type AnnotationLookup = (fileId: string) => PhotoAnnotations | undefined;

export interface PdfOptions {
  annotations?: AnnotationLookup;
}

/** GET /api/galleries/:id/export.zip and export.pdf, for whoever may read the gallery. */
export function galleryExportRoutes(deps: Services & { store: ObjectStore }) {
  const routes = new Hono<AppEnv>();
  routes.get('/api/galleries/:id/export.zip', async (c) => {
    const gallery = await galleryFor(viewerContext(c, deps), c.req.param('id'));
    return streamGalleryZip(deps, gallery.id);
  });
  routes.get('/api/galleries/:id/export.pdf', async (c) => {
    const gallery = await galleryFor(viewerContext(c, deps), c.req.param('id'));
    // Members see what reviewers and the crew said of each photo.
    return streamGalleryPdf(deps, gallery.id, { annotations: await photoFeedback(deps.db, gallery.id) });
  });
  return routes;
}

interface ExportPhoto {
  fileId: string;
  name: string;
  mimeType: string;
  /** Where the original's bytes are; absent if they are gone. */
  objectKey: string | undefined;
  image: Partial<ImageInfo>;
  hasPreview: boolean;
  caption: string | undefined;
  place: string | undefined;
}

/** The gallery and its photos in gallery order; 404 if the gallery is gone. */
async function exportContents(db: ExportDeps['db'], galleryId: string) {
  const gallery = isUuid(galleryId) ? await db.gallery.findUnique({ where: { id: galleryId } }) : null;
  if (!gallery) throw new NotFoundError('Gallery');
  const items = inPhotoOrder(
    await db.galleryItem.findMany({
      where: { galleryId },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      select: {
        id: true,
        createdAt: true,
        file: { select: { id: true, name: true, sortName: true, mimeType: true, objectPath: true, metadata: true } },
      },
    }),
    asPhotoOrder(gallery.photoOrder),
  );
  const keys = await objectKeysOf(
    db,
    items.map((i) => i.file.objectPath),
  );
  const photos = items.map(({ file }): ExportPhoto => {
    const metadata = (file.metadata ?? {}) as {
      image?: Partial<ImageInfo>;
      thumbnails?: { preview?: boolean };
      aiAnalysis?: { description?: unknown; place?: unknown };
    };
    const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
    return {
      fileId: file.id,
      name: file.name,
      mimeType: file.mimeType,
      objectKey: keys.get(file.objectPath),
      image: metadata.image ?? {},
      hasPreview: metadata.thumbnails?.preview === true,
      caption: text(metadata.aiAnalysis?.description),
      place: text(metadata.aiAnalysis?.place),
    };
  });
  return { gallery, photos };
}

/** The gallery's originals as one ZIP, streamed (see zipResponse); the caller has checked access. */
export async function streamGalleryZip(deps: ExportDeps, galleryId: string): Promise<Response> {
  const { gallery, photos } = await exportContents(deps.db, galleryId);
  const entries = photos.map((p) => {
    if (!p.objectKey) throw new NotFoundError('File');
    return { name: p.name, objectKey: p.objectKey };
  });
  return zipResponse(deps.store, entries, contentDisposition(`${gallery.name}.zip`));
}

// ───────────── the lookbook ─────────────

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const CONTENT_WIDTH = A4.width - 2 * MARGIN;
// DejaVu covers accents, Cyrillic, Greek and symbols; PDFKit's built-in Helvetica only Latin-1.
// Where the font is not installed (a bare CI image) names outside Latin-1 print as gaps.
const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
const FONTS = existsSync(`${FONT_DIR}/DejaVuSans.ttf`)
  ? { regular: `${FONT_DIR}/DejaVuSans.ttf`, bold: `${FONT_DIR}/DejaVuSans-Bold.ttf` }
  : { regular: 'Helvetica', bold: 'Helvetica-Bold' };
/** Pixels on the longer side of a printed photo: about 175 dpi across the page, a fraction of the preview's bytes. */
const PRINT_PIXELS = 1200;
/** How much finished PDF may wait for a slow reader before the next photo is drawn. */
const BUFFERED_BYTES = 1 << 20;
const INK = '#222222';
const MUTED = '#666666';
const ACCENT = '#c2410c';

/**
 * The lookbook as a PDF, streamed while it is drawn: a cover with the gallery's details and a map
 * of its geotagged photos, then the photos (preview thumbnails as JPEG), two to an A4 page, or one
 * with room for picks and comments when `annotations` gives some. The caller has checked access.
 */
export async function streamGalleryPdf(
  deps: ExportDeps,
  galleryId: string,
  options: PdfOptions = {},
): Promise<Response> {
  const { gallery, photos } = await exportContents(deps.db, galleryId);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: gallery.name, Creator: 'Scoutbase' },
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);

  // PDFKit pushes whatever it draws without waiting for the reader; waiting here between photos
  // keeps a slow download from holding the whole document in memory.
  let resume: (() => void) | undefined;
  const release = () => {
    resume?.();
    resume = undefined;
  };
  doc._read = release;
  doc.once('close', release);
  const drained = async () => {
    if (doc.readableLength > BUFFERED_BYTES && !doc.destroyed) await new Promise<void>((r) => (resume = r));
    return !doc.destroyed;
  };

  const draw = async () => {
    drawCover(doc, gallery, photos);
    const notesOf = (photo: ExportPhoto) => options.annotations?.(photo.fileId);
    // Room for what reviewers said only when somebody said something.
    const perPage = photos.some(notesOf) ? 1 : 2;
    for (const [i, photo] of photos.entries()) {
      if (!(await drained())) return;
      if (i % perPage === 0) doc.addPage();
      const slotHeight = (A4.height - 2 * MARGIN) / perPage;
      const top = MARGIN + (i % perPage) * slotHeight;
      await drawPhoto(doc, deps.store, photo, i + 1, top, slotHeight, notesOf(photo));
    }
  };
  draw().then(
    // A reader that went away destroyed the document; there is nothing left to finish.
    () => doc.destroyed || doc.end(),
    (error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))),
  );

  const headers = new Headers({
    'Content-Type': 'application/pdf',
    'Content-Disposition': contentDisposition(`${gallery.name}.pdf`),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  return new Response(Readable.toWeb(doc) as ReadableStream, { headers });
}

type Gallery = Awaited<ReturnType<typeof exportContents>>['gallery'];

function dateOf(value: Date) {
  return value.toISOString().slice(0, 10);
}

/** EXIF wall-clock time as written ("2024-05-01T10:20:30+02:00" → "2024-05-01 10:20"). */
function takenText(takenAt: string | undefined) {
  return takenAt ? takenAt.replace('T', ' ').slice(0, 16) : undefined;
}

function gpsText(gps: ImageInfo['gps']) {
  if (!gps) return undefined;
  const { latitude: lat, longitude: lon } = gps;
  return `${Math.abs(lat).toFixed(5)}° ${lat >= 0 ? 'N' : 'S'}, ${Math.abs(lon).toFixed(5)}° ${lon >= 0 ? 'E' : 'W'}`;
}

function drawCover(doc: PDFKit.PDFDocument, gallery: Gallery, photos: ExportPhoto[]) {
  doc.font('bold').fontSize(24).fillColor(INK).text(gallery.name, { width: CONTENT_WIDTH });
  if (gallery.description) {
    doc.moveDown(0.4).font('regular').fontSize(11).fillColor(MUTED).text(gallery.description, {
      width: CONTENT_WIDTH,
      height: 120,
      ellipsis: true,
    });
  }
  const taken = photos
    .map((p) => p.image.takenAt)
    .filter((t): t is string => !!t)
    .sort();
  const geotagged = photos.filter((p) => p.image.gps);
  const rows: [string, string | null | undefined][] = [
    ['Project', gallery.projectName],
    ['Movie / TV show', gallery.movieTvShow],
    ['Location', gallery.location],
    ['Property type', gallery.propertyType],
    ['Style', gallery.style],
    ['Status', gallery.status],
    ['Tags', gallery.tags.join(', ')],
    ['Photos', `${photos.length} (${geotagged.length} geotagged)`],
    [
      'Taken',
      taken.length ? [...new Set([taken[0], taken.at(-1)].map((t) => takenText(t)?.slice(0, 10)))].join(' to ') : null,
    ],
    ['Created', dateOf(gallery.createdAt)],
    ['Updated', dateOf(gallery.updatedAt)],
    ['Notes', gallery.notes],
  ];
  doc.moveDown(0.8);
  for (const [label, value] of rows) {
    if (!value) continue;
    const y = doc.y;
    doc.font('bold').fontSize(10).fillColor(MUTED).text(label, MARGIN, y, { width: 110 });
    doc
      .font('regular')
      .fillColor(INK)
      .text(value, MARGIN + 115, y, { width: CONTENT_WIDTH - 115, height: 60, ellipsis: true });
    doc.moveDown(0.3);
  }
  doc.x = MARGIN;
  const mapTop = doc.y + 16;
  const mapHeight = A4.height - MARGIN - mapTop;
  if (geotagged.length === 0 || mapHeight < 120) {
    doc.moveDown().font('regular').fontSize(10).fillColor(MUTED).text('No geotagged photos to map.');
    return;
  }
  drawMap(
    doc,
    photos.flatMap((p, i) => (p.image.gps ? [{ label: String(i + 1), ...p.image.gps }] : [])),
    { x: MARGIN, y: mapTop, width: CONTENT_WIDTH, height: mapHeight },
  );
}

const LAND = '#dde5d3';
const LAND_EDGE = '#9aa89a';

/** Web Mercator, as a unit square (0,0 top left): shapes look as on any web map. */
function mercator(latitude: number, longitude: number) {
  const lat = (Math.max(-85, Math.min(85, latitude)) * Math.PI) / 180;
  return { x: (longitude + 180) / 360, y: (1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2 };
}

/**
 * The geotagged photos as numbered points on a Web Mercator frame fitted to their bounds, drawn
 * as vectors (no tiles: the export works offline, and a map image would count as a photo).
 */
export function drawMap(
  doc: PDFKit.PDFDocument,
  points: { label: string; latitude: number; longitude: number }[],
  box: { x: number; y: number; width: number; height: number },
) {
  const projected = points.map((p) => ({ ...p, ...mercator(p.latitude, p.longitude) }));
  const xs = projected.map((p) => p.x);
  const ys = projected.map((p) => p.y);
  // At least ~2 km across, so one photo (or a few at one spot) is a point in a frame, not a zoom to infinity.
  const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 0.00005) * 1.25;
  const scale = Math.min(box.width, box.height) / span;
  const centre = { x: (Math.max(...xs) + Math.min(...xs)) / 2, y: (Math.max(...ys) + Math.min(...ys)) / 2 };
  const at = (p: { x: number; y: number }) => ({
    x: box.x + box.width / 2 + (p.x - centre.x) * scale,
    y: box.y + box.height / 2 + (p.y - centre.y) * scale,
  });

  doc.save();
  doc.rect(box.x, box.y, box.width, box.height).fillAndStroke('#eef2f5', '#9aa5b1');
  doc.rect(box.x, box.y, box.width, box.height).clip();
  // The land, as the web map shows it offline (world-outline.ts), under the points. Points far
  // outside the frame are held near it: close in, PDF viewers mishandle huge coordinates.
  const near = (v: number, from: number, size: number) => Math.max(from - size, Math.min(from + 2 * size, v));
  for (const ring of landRings()) {
    const points = ring.map(([longitude, latitude]) => at(mercator(latitude, longitude)));
    const outside =
      points.every((p) => p.x < box.x) ||
      points.every((p) => p.x > box.x + box.width) ||
      points.every((p) => p.y < box.y) ||
      points.every((p) => p.y > box.y + box.height);
    if (outside) continue;
    points.forEach((p, i) => {
      const x = near(p.x, box.x, box.width);
      const y = near(p.y, box.y, box.height);
      if (i === 0) doc.moveTo(x, y);
      else doc.lineTo(x, y);
    });
    doc.closePath();
  }
  doc.lineWidth(0.4).fillAndStroke(LAND, LAND_EDGE, 'even-odd');
  doc.font('regular').fontSize(8);
  for (const point of projected) {
    const { x, y } = at(point);
    doc.circle(x, y, 4).fillAndStroke(ACCENT, '#ffffff');
    doc.fillColor(INK).text(point.label, x + 6, y - 4, { lineBreak: false });
  }
  doc.restore();

  const lats = points.map((p) => p.latitude);
  const lons = points.map((p) => p.longitude);
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      `Map of ${points.length} geotagged photo${points.length === 1 ? '' : 's'}: latitude ${Math.min(...lats).toFixed(4)} to ${Math.max(...lats).toFixed(4)}, longitude ${Math.min(...lons).toFixed(4)} to ${Math.max(...lons).toFixed(4)}. Numbers are photo numbers.`,
      box.x,
      box.y + box.height + 4,
      { width: box.width, height: 20, ellipsis: true },
    );
}

/** The preview thumbnail as a JPEG PDFKit can embed, or null when there is none to print. */
async function printableImage(store: ObjectStore, photo: ExportPhoto) {
  if (!photo.hasPreview || !photo.objectKey) return null;
  const stream = await store.get(variantKey(photo.objectKey, 'preview'));
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const { data, info } = await sharp(Buffer.concat(chunks))
    .resize({ width: PRINT_PIXELS, height: PRINT_PIXELS, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

async function drawPhoto(
  doc: PDFKit.PDFDocument,
  store: ObjectStore,
  photo: ExportPhoto,
  number: number,
  top: number,
  slotHeight: number,
  notes: PhotoAnnotations | undefined,
) {
  // With notes the photo takes half its page; without, a two-per-page slot keeps ~90 pt for text.
  const textHeight = notes ? slotHeight * 0.45 : 92;
  const imageHeight = slotHeight - textHeight - 8;
  // One damaged thumbnail prints as "No preview" rather than breaking off the whole lookbook.
  const image = await printableImage(store, photo).catch(() => null);
  let imageBottom = top + imageHeight;
  if (image) {
    // Scaled by hand rather than with PDFKit's fit, so the caption sits right under the photo.
    const scale = Math.min(CONTENT_WIDTH / image.width, imageHeight / image.height);
    const [w, h] = [image.width * scale, image.height * scale];
    doc.image(image.data, MARGIN + (CONTENT_WIDTH - w) / 2, top, { width: w, height: h });
    imageBottom = top + h;
  } else {
    doc.rect(MARGIN, top, CONTENT_WIDTH, imageHeight).fill('#f1f1f1');
    doc
      .font('regular')
      .fontSize(10)
      .fillColor(MUTED)
      .text(photo.mimeType.startsWith('video/') ? 'Video (no preview)' : 'No preview', MARGIN, top + imageHeight / 2, {
        width: CONTENT_WIDTH,
        align: 'center',
      });
  }

  const width = CONTENT_WIDTH;
  const bottom = top + slotHeight - 8;
  doc.font('bold').fontSize(11).fillColor(INK);
  doc.text(`${number}. ${photo.name}`, MARGIN, imageBottom + 6, { width, height: 16, ellipsis: true });
  const line = (text: string, color = MUTED, size = 9) => {
    const room = bottom - doc.y;
    if (room < size * 1.3) return;
    doc
      .font('regular')
      .fontSize(size)
      .fillColor(color)
      .text(text, MARGIN, doc.y, { width, height: room, ellipsis: true });
  };
  if (photo.caption) line(photo.caption, INK, 9.5);
  const facts = [
    takenText(photo.image.takenAt) && `Taken ${takenText(photo.image.takenAt)}`,
    [gpsText(photo.image.gps), photo.place].filter(Boolean).join(' · '),
    photo.image.camera,
  ].filter((f): f is string => !!f);
  if (facts.length) line(facts.join('   |   '));
  if (!notes) return;
  const picks = (['yes', 'maybe', 'no'] as const)
    .map((pick) => {
      const names = notes.picks.filter((p) => p.pick === pick).map((p) => p.name);
      return names.length ? `${pick[0]?.toUpperCase()}${pick.slice(1)}: ${names.join(', ')}` : null;
    })
    .filter((p): p is string => p !== null);
  if (picks.length) line(`Picks: ${picks.join('   ')}`, INK);
  for (const comment of notes.comments) {
    const when = comment.createdAt ? ` (${dateOf(comment.createdAt)})` : '';
    line(`${comment.name}${when}: ${comment.body}`, INK);
  }
}
