import { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { requireViewer } from '../http/helpers.ts';
import { contentDisposition, notModified, serveBytes } from '../http/serve-bytes.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { VARIANTS, type Variant } from './images.ts';
import {
  createUploadUrl,
  createUploadUrls,
  receiveUpload,
  servableObject,
  storageUsage,
  type StorageDeps,
} from './rules.ts';
import { uploadBytes } from './served.ts';
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
    const bytes = await uploadBytes(deps.store, upload, variant, () => new NotFoundError('File'));

    const mimeType = variant ? 'image/webp' : (upload.mimeType ?? 'application/octet-stream');
    // ?download asks for a save dialog whatever the type (a Download button); otherwise what
    // browsers show safely (pictures, video, PDF) is shown in place and everything else downloads.
    const inline =
      c.req.query('download') === undefined && (/^(image|video)\//.test(mimeType) || mimeType === 'application/pdf');
    const headers = new Headers({
      'Cache-Control': 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': mimeType === 'text/plain' ? 'text/plain; charset=utf-8' : mimeType,
      'Content-Disposition': contentDisposition(name ?? upload.id, {
        inline,
        rename: variant ? (safe) => `${safe.replace(/\.[^.]*$/, '')}-${variant}.webp` : undefined,
      }),
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
    return serveBytes(c.req.raw, bytes, headers);
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
    if (notModified(c.req.raw, etag)) return new Response(null, { status: 304, headers });
    const html = await previews.get(upload.id, async () =>
      documentPreviewHtml(await readDocument(deps.store, upload.objectKey)),
    );
    return c.json({ html }, 200, headers);
  });

  return routes;
}
