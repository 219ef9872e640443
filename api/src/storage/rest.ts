import { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import { Readable } from 'node:stream';
import type { AppEnv } from '../http/env.ts';
import { requireViewer } from '../http/helpers.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { safeFileName } from '../shared/names.ts';
import { variantKey, VARIANTS, type Variant } from './images.ts';
import {
  createUploadUrl,
  createUploadUrls,
  receiveUpload,
  servableObject,
  storageUsage,
  type StorageDeps,
} from './rules.ts';
import type { ByteRange } from '../infra/objects/store.ts';
import { createTusServer, TUS_PATH, tusEndpointFor } from './tus.ts';
import { UPLOAD_BATCH_MAX, type StorageConfig, type UploadTarget, type UploadTargets } from './contract.ts';
import { UPLOADTHING_PATH } from './uploadthing-routes.ts';
import {
  createPreviewCache,
  documentPreviewHtml,
  NotPreviewableError,
  noPreviewReason,
  readDocument,
} from './documents.ts';
import { S3_UPLOADS_URL } from './contract.ts';

/**
 * The routes whose bodies are a file's bytes: a PUT to an upload URL and tus (creation with upload,
 * PATCH). They stream to the object store and meter the bytes against the upload's own limit as they
 * arrive (rules.ts takeBytes, tus.ts), so the body gate checks only a declared length.
 */
export function isUploadRoute(method: string, path: string) {
  if (method === 'PUT') return /^\/objects\/uploads\/[^/]+$/.test(path);
  if (method === 'POST' || method === 'PATCH') return path === TUS_PATH || path.startsWith(`${TUS_PATH}/`);
  return false;
}

/** Where a batch of files asks for its upload URLs at once (storageRoutes). */
const BATCH_PATH = '/api/objects/uploads';

/**
 * A request for an upload URL: ours, or UploadThing's file route asked by a person (its own signed
 * callbacks, with the uploadthing-hook header, are not people asking). One rate budget for both.
 */
export function asksForUploadUrl(method: string, path: string, headers: Headers) {
  return (
    method === 'POST' &&
    (path === '/api/objects/upload' ||
      path === BATCH_PATH ||
      path === S3_UPLOADS_URL ||
      (path === UPLOADTHING_PATH && headers.get('uploadthing-hook') === null))
  );
}

/** How many upload URLs a request asks for: a batch's `count` (its budget is spent per URL), else one. */
export function uploadUrlsAskedFor(path: string, url: URL) {
  return path === BATCH_PATH ? (batchCount(url.searchParams.get('count')) ?? 1) : 1;
}

function batchCount(value: string | null) {
  const count = value !== null && /^\d{1,2}$/.test(value) ? Number(value) : null;
  return count !== null && count >= 1 && count <= UPLOAD_BATCH_MAX ? count : null;
}

/** The origin upload URLs are made for: PUBLIC_URL when set, else the one the request came to. */
function originOf(c: Context<AppEnv>, deps: StorageDeps) {
  return deps.config.publicUrl ?? new URL(c.req.url).origin;
}

function uploadTarget(
  deps: StorageDeps,
  origin: string,
  { uploadURL, maxSize, expiresAt }: { uploadURL: string; maxSize: number; expiresAt: Date },
): UploadTarget {
  return {
    uploadURL,
    // Large files may go resumably (tus) on the local store instead of one PUT.
    ...(deps.store.kind === 'local' ? { tusEndpoint: tusEndpointFor(origin, uploadURL) } : {}),
    maxSize,
    expiresAt: expiresAt.toISOString(),
  };
}

export function storageRoutes(deps: StorageDeps) {
  const routes = new Hono<AppEnv>();

  routes.post('/api/objects/upload', async (c) => {
    const viewer = requireViewer(c);
    const origin = originOf(c, deps);
    return c.json(uploadTarget(deps, origin, await createUploadUrl(deps, viewer, origin)));
  });

  // The upload panel sends files in batches: their URLs in one request (and one statement).
  routes.post(BATCH_PATH, async (c) => {
    const viewer = requireViewer(c);
    const count = batchCount(c.req.query('count') ?? null);
    if (count === null) {
      throw new ValidationError(`count must be a whole number from 1 to ${UPLOAD_BATCH_MAX}.`, 'count');
    }
    const origin = originOf(c, deps);
    const made = await createUploadUrls(deps, viewer, origin, count);
    return c.json({ uploads: made.map((one) => uploadTarget(deps, origin, one)) } satisfies UploadTargets);
  });

  // Tells the web app how uploads travel: to this server, or from the browser straight to UploadThing
  // or (backend 's3') to the bucket through presigned URLs from S3_UPLOADS_URL.
  routes.get('/api/storage/config', (c) => {
    requireViewer(c);
    const direct = deps.store.kind === 'uploadthing';
    return c.json({
      backend: deps.store.kind,
      uploadthingUrl: direct ? UPLOADTHING_PATH : null,
      maxUploadSize: deps.config.storage.maxUploadSize,
    } satisfies StorageConfig);
  });

  routes.get('/api/storage/usage', async (c) => {
    const viewer = requireViewer(c);
    return c.json(await storageUsage(deps, viewer.id));
  });

  // Resumable uploads (tus): create, then HEAD (GET routes take HEAD) / PATCH / DELETE by id.
  const tus = createTusServer(deps);
  routes.post(TUS_PATH, tus);
  routes.get(`${TUS_PATH}/:id`, tus);
  routes.patch(`${TUS_PATH}/:id`, tus);
  routes.delete(`${TUS_PATH}/:id`, tus);
  routes.options(TUS_PATH, tus);
  routes.options(`${TUS_PATH}/:id`, tus);

  routes.put('/objects/uploads/:id', async (c) => {
    const viewer = requireViewer(c);
    const length = c.req.header('content-length');
    const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
    // Straight from the socket on a Node server: a web stream over it is work per chunk the bytes do not need.
    const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
    const body = incoming instanceof IncomingMessage ? incoming : c.req.raw.body;
    const result = await receiveUpload(deps, viewer, c.req.param('id'), c.req.query('token'), body, declared);
    return c.json(result);
  });

  routes.on(['GET', 'HEAD'], '/objects/uploads/:id', async (c) => {
    const variantParam = c.req.query('variant');
    if (variantParam !== undefined && !(variantParam in VARIANTS)) {
      throw new ValidationError(`variant must be one of ${Object.keys(VARIANTS).join(', ')}.`, 'variant');
    }
    const variant = variantParam as Variant | undefined;
    const { upload, name } = await servableObject(deps.db, c.get('viewer'), c.req.param('id'));
    const metadata = (upload.metadata ?? {}) as { thumbnails?: Partial<Record<Variant, true>> };
    if (variant && !metadata.thumbnails?.[variant]) throw new NotFoundError('Thumbnail');
    const key = variant ? variantKey(upload.objectKey, variant) : upload.objectKey;
    const info = await deps.store.stat(key);
    if (!info) throw new NotFoundError('File');

    const mimeType = variant ? 'image/webp' : (upload.mimeType ?? 'application/octet-stream');
    const etag = `"${upload.checksum ?? upload.id}${variant ? `-${variant}` : ''}"`;
    const headers = new Headers({
      ETag: etag,
      // The bytes behind one upload id never change (a new version is a new upload).
      'Cache-Control': 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      'Accept-Ranges': 'bytes',
      'Content-Type': mimeType === 'text/plain' ? 'text/plain; charset=utf-8' : mimeType,
      'Content-Disposition': contentDisposition(
        mimeType,
        name ?? upload.id,
        variant,
        c.req.query('download') !== undefined,
      ),
    });
    // Served files never run as a page of ours (browsers' own PDF viewer cannot run sandboxed).
    // A PDF shown in place may be framed by the app's own pages (the File Manager's preview).
    if (mimeType === 'application/pdf' && !variant) headers.set('X-Frame-Options', 'SAMEORIGIN');
    if (mimeType !== 'application/pdf') {
      headers.set(
        'Content-Security-Policy',
        "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
      );
    }
    // HTTP dates have whole seconds; the comparisons below are made on what the client was sent.
    const modified = Math.floor((upload.completedAt ?? upload.createdAt).getTime() / 1000) * 1000;
    headers.set('Last-Modified', new Date(modified).toUTCString());
    const refuse = (status: 412 | 416, message: string) => {
      headers.set('Content-Type', 'application/json');
      headers.delete('Content-Disposition');
      const body = c.req.method === 'HEAD' ? null : JSON.stringify({ message });
      return new Response(body, { status, headers });
    };

    // RFC 9110 section 13.2.2: the preconditions in this order.
    const ifMatch = c.req.header('if-match');
    const ifUnmodifiedSince = httpDate(c.req.header('if-unmodified-since'));
    if (
      ifMatch !== undefined
        ? !matchesEtag(ifMatch, etag, true)
        : ifUnmodifiedSince !== null && modified > ifUnmodifiedSince
    ) {
      return refuse(412, 'The file is not the version the request was made for.');
    }
    const ifNoneMatch = c.req.header('if-none-match');
    const ifModifiedSince = httpDate(c.req.header('if-modified-since'));
    if (
      ifNoneMatch !== undefined
        ? matchesEtag(ifNoneMatch, etag)
        : ifModifiedSince !== null && modified <= ifModifiedSince
    ) {
      return new Response(null, { status: 304, headers });
    }

    const rangeHeader = ifRangeHolds(c.req.header('if-range'), etag, modified) ? c.req.header('range') : undefined;
    const range = rangeHeader ? parseRange(rangeHeader, info.size) : undefined;
    if (range === 'unsatisfiable') {
      headers.set('Content-Range', `bytes */${info.size}`);
      return refuse(416, 'The requested range is outside the file.');
    }
    const status = range ? 206 : 200;
    if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
    headers.set('Content-Length', String(range ? range.end - range.start + 1 : info.size));
    if (c.req.method === 'HEAD') return new Response(null, { status, headers });
    const stream = await deps.store.get(key, range ?? undefined);
    if (!stream) throw new NotFoundError('File');
    return new Response(Readable.toWeb(stream) as ReadableStream, { status, headers });
  });

  // A Word document as the File Manager's preview shows it: { html }, cleaned (documents.ts). JSON,
  // never a page: opened in a tab it cannot render. Whoever may read the bytes may read this.
  const previews = createPreviewCache();
  routes.get('/objects/uploads/:id/html', async (c) => {
    const { upload } = await servableObject(deps.db, c.get('viewer'), c.req.param('id'));
    const reason = noPreviewReason(upload.mimeType, Number(upload.size ?? 0));
    if (reason) throw new NotPreviewableError(reason);
    const etag = `"${upload.checksum ?? upload.id}-html1"`;
    const headers = { ETag: etag, 'Cache-Control': 'private, max-age=3600', 'X-Content-Type-Options': 'nosniff' };
    if (matchesEtag(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    const html = await previews.get(upload.id, async () =>
      documentPreviewHtml(await readDocument(deps.store, upload.objectKey)),
    );
    return c.json({ html }, 200, headers);
  });

  return routes;
}

/** If-None-Match compares weakly (W/"x" matches "x"); If-Match and If-Range strongly (a weak tag never matches). */
function matchesEtag(header: string | undefined, etag: string, strong = false) {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    if (strong) return tag === etag;
    return tag.replace(/^W\//, '') === etag;
  });
}

/** Milliseconds of an HTTP date, or null for anything else (an invalid date is ignored, RFC 9110 13.1.3). */
function httpDate(header: string | undefined) {
  if (!header || !/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(header.trim())) return null;
  const time = Date.parse(header);
  return Number.isNaN(time) ? null : time;
}

/** Whether a Range applies: no If-Range, or one naming exactly these bytes (a strong ETag, or the exact Last-Modified). */
function ifRangeHolds(header: string | undefined, etag: string, modified: number) {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  return httpDate(value) === modified;
}

/**
 * One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; undefined (serve it all) for forms we do
 * not serve as ranges, such as several ranges at once.
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return undefined;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

/** Inline for what browsers show safely (pictures, video, PDF); everything else downloads. */
export function contentDisposition(mimeType: string, name: string, variant?: Variant, download = false) {
  // ?download asks for a save dialog whatever the type (a Download button).
  const inline = !download && (/^(image|video)\//.test(mimeType) || mimeType === 'application/pdf');
  // The name a disk takes (shared/names.ts): no control or text-direction characters, quotes,
  // slashes or backslashes reach the header.
  let clean = safeFileName(name).slice(0, 200).trim();
  if (clean === '_' && name.trim() !== '_') clean = 'file';
  if (variant) clean = `${clean.replace(/\.[^.]*$/, '')}-${variant}.webp`;
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/[%;]/g, '_');
  const encoded = encodeURIComponent(clean).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
