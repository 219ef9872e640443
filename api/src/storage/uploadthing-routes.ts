import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { createRouteHandler, createUploadthing, type FileRouter, UploadThingError, UTFiles } from 'uploadthing/server';
import type { Viewer } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { requireViewer } from '../http/helpers.ts';
import { ConflictError, DomainError } from '../shared/errors.ts';
import { type DirectUploadResult, UPLOADTHING_SLUG } from './contract.ts';
import { ACCEPTED_EXTENSIONS, describeAccepted } from './filetypes.ts';
import { reserveQuota, takeBytes, tooLarge, type StorageDeps } from './rules.ts';
import type { UploadThingObjectStore } from '../infra/objects/uploadthing.ts';
import { objectPathFor } from './uploads.ts';

/** Where the browser asks for UploadThing upload URLs and where UploadThing reports finished uploads. */
export const UPLOADTHING_PATH = '/api/uploadthing';

interface RouteOptions {
  token: string;
  endpoints?: { apiUrl: string; ingestUrl: string; ufsHost: string; ufsAppIdLocation: 'path' };
  /** The address UploadThing calls back; without PUBLIC_URL, the one the browser's request came to. */
  publicUrl: string | undefined;
  development: boolean;
}

/**
 * Where browsers send bytes in UploadThing mode (its ingest servers), for the content security
 * policy's connect-src; nothing when files stay on this server.
 */
export function uploadthingConnectSources(storage: {
  uploadthingToken: string | undefined;
  uploadthingEndpoints?: { ingestUrl: string };
}): string[] {
  if (!storage.uploadthingToken) return [];
  if (storage.uploadthingEndpoints) return [new URL(storage.uploadthingEndpoints.ingestUrl).origin];
  let ingestHost = 'ingest.uploadthing.com';
  try {
    const token = JSON.parse(Buffer.from(storage.uploadthingToken, 'base64').toString('utf8')) as {
      ingestHost?: unknown;
    };
    if (typeof token.ingestHost === 'string') ingestHost = token.ingestHost;
  } catch {
    // The configuration check already refused tokens that do not parse.
  }
  // One host per region (sea1.ingest.uploadthing.com …).
  return [`https://*.${ingestHost}`];
}

const refuse = (code: 'BAD_REQUEST' | 'FORBIDDEN' | 'TOO_LARGE', message: string) =>
  new UploadThingError({ code, message });

/** The file routes: one, for a workspace file. */
function fileRouter(
  deps: StorageDeps,
  store: UploadThingObjectStore,
  publicUrl: string | undefined,
  viewers: WeakMap<Request, Viewer>,
) {
  const f = createUploadthing();
  return {
    [UPLOADTHING_SLUG]: f(
      // The SDK's types know only round sizes; MAX_UPLOAD_SIZE is any byte count (the middleware
      // holds the exact limit before the SDK checks this one).
      { blob: { maxFileSize: `${deps.config.storage.maxUploadSize}B` as '1B', maxFileCount: 1 } },
      { awaitServerData: true },
    )
      .middleware(async ({ req, files }) => {
        const viewer = viewers.get(req);
        if (!viewer) throw refuse('FORBIDDEN', 'Unauthorized');
        const [file] = files;
        if (!file || files.length !== 1) throw refuse('BAD_REQUEST', 'Send one file per upload.');
        const maxSize = deps.config.storage.maxUploadSize;
        if (file.size > maxSize) throw refuse('TOO_LARGE', tooLarge(maxSize).message);
        if (file.size === 0) throw refuse('BAD_REQUEST', 'File is empty.');
        const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
        if (!ACCEPTED_EXTENSIONS.includes(extension)) {
          throw refuse('BAD_REQUEST', `File type must be one of ${describeAccepted()}.`);
        }
        const id = randomUUID();
        const objectKey = `uploads/${id}`;
        await deps.db.upload.create({
          data: {
            id,
            userId: viewer.id,
            objectKey,
            // UploadThing's URL is signed for exactly this size; the read-back holds it to that too.
            maxSize: BigInt(file.size),
            expiresAt: new Date(Date.now() + deps.config.storage.uploadUrlTtlSeconds * 1000),
          },
        });
        // The room is held before UploadThing hands out its URL, so files racing there cannot all fit.
        try {
          await reserveQuota(deps, { id, userId: viewer.id }, file.size);
        } catch (error) {
          await deps.db.upload.delete({ where: { id } });
          if (error instanceof DomainError) throw refuse('TOO_LARGE', error.message);
          throw error;
        }
        // The object lands under the custom id the store derives from our key, so reads, serving
        // and deletion find it like any object the server wrote itself.
        return { userId: viewer.id, uploadId: id, [UTFiles]: [{ ...file, customId: store.customId(objectKey) }] };
      })
      .onUploadComplete(async ({ metadata, file }): Promise<DirectUploadResult> => {
        return checkDirectUpload(deps, store, metadata.uploadId, metadata.userId, file.customId, publicUrl);
      }),
  } satisfies FileRouter;
}

export type WorkspaceFileRouter = ReturnType<typeof fileRouter>;

/**
 * Direct uploads to UploadThing (the same limits and the same Upload rows as PUT uploads):
 * the browser asks here for an UploadThing upload URL, sends the bytes there, and UploadThing calls
 * back here (signed with the API key). The bytes never passed through us, so the server then reads
 * them back through the store's signed read and runs the same checks, checksum, thumbnails and
 * EXIF as for a PUT; anything refused is deleted at UploadThing. Only then can POST /api/files
 * claim the upload, and only for the user who made it.
 */
export function uploadthingRoutes(deps: StorageDeps, store: UploadThingObjectStore, options: RouteOptions) {
  // The SDK hands the middleware the Request it was given; the session was read from it already.
  const viewers = new WeakMap<Request, Viewer>();
  const router = fileRouter(deps, store, options.publicUrl, viewers);

  const handler = createRouteHandler({
    router,
    config: {
      token: options.token,
      ...options.endpoints,
      isDev: options.development,
      logLevel: 'Error',
      ...(options.publicUrl ? { callbackUrl: `${options.publicUrl}${UPLOADTHING_PATH}` } : {}),
    },
  });

  const routes = new Hono<AppEnv>();
  routes.on(['GET', 'POST'], UPLOADTHING_PATH, async (c) => {
    // UploadThing's own calls carry no session; the SDK checks their signature instead.
    if (!c.req.header('uploadthing-hook')) viewers.set(c.req.raw, requireViewer(c));
    return handler(c.req.raw);
  });
  return routes;
}

/**
 * After UploadThing reports an upload: read the bytes back and judge them as if they had been
 * PUT to us. On any refusal the bytes (and thumbnails) are deleted and the row released.
 */
async function checkDirectUpload(
  deps: StorageDeps,
  store: UploadThingObjectStore,
  uploadId: string,
  userId: string,
  customId: string | null,
  publicUrl: string | undefined,
): Promise<DirectUploadResult> {
  const upload = await deps.db.upload.findUnique({ where: { id: uploadId } });
  const accepted = (size: number, mimeType: string): DirectUploadResult => ({
    ok: true,
    uploadURL: `${publicUrl ?? ''}${objectPathFor(uploadId)}`,
    objectPath: objectPathFor(uploadId),
    uploadId,
    size,
    mimeType,
  });
  // UploadThing retries a callback it did not see answered: the second one gets the same answer.
  if (upload?.userId === userId && upload.status === 'uploaded' && upload.mimeType) {
    return accepted(Number(upload.size ?? 0), upload.mimeType);
  }
  if (!upload || upload.userId !== userId || upload.status !== 'pending') {
    return { ok: false, status: 403, message: 'This upload is unknown or has already been handled.' };
  }
  try {
    if (customId !== store.customId(upload.objectKey)) throw refuse('BAD_REQUEST', 'The upload landed elsewhere.');
    const bytes = await store.get(upload.objectKey);
    if (!bytes) throw refuse('BAD_REQUEST', 'UploadThing does not have the bytes of this upload.');
    const checked = await takeBytes(deps, upload, bytes, null, { alreadyStored: true });
    return accepted(checked.size, checked.mimeType);
  } catch (error) {
    // Another delivery of the same callback is checking these bytes right now: leave them to it.
    if (error instanceof ConflictError) return { ok: false, status: 409, message: error.message };
    // Released first: if UploadThing cannot delete right now, the cleanup pass retries.
    await deps.db.upload.updateMany({ where: { id: upload.id }, data: { status: 'released' } });
    await store.deletePrefix(upload.objectKey).catch((failure: unknown) => {
      deps.logger.warn({ err: failure, uploadId }, 'could not delete refused bytes at UploadThing yet');
    });
    if (error instanceof DomainError) return { ok: false, status: error.status, message: error.message };
    if (error instanceof UploadThingError) return { ok: false, status: 400, message: error.message };
    deps.logger.error({ err: error, uploadId }, 'could not check an upload UploadThing reported');
    return { ok: false, status: 500, message: 'The upload could not be checked. Please try again.' };
  }
}
