import { S3ServiceException } from '@aws-sdk/client-s3';
import { Hono } from 'hono';
import type { Viewer } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, requireViewer } from '../http/helpers.ts';
import type { S3Config } from '../config.ts';
import type { Upload } from '../generated/prisma/client.ts';
import type { Db } from '../infra/db/database.ts';
import type { S3ObjectStore, UploadedPart } from '../infra/objects/s3.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { type DirectUploadResult, S3_UPLOADS_URL, type S3UploadState } from './contract.ts';
import { releaseReservation, reserveQuota, takeBytes, type StorageDeps } from './rules.ts';
import { PART_SIZE, type PendingMultipart, partCount, partSize, partUrls, planS3Upload } from './s3-direct.ts';
import { objectPathFor } from './uploads.ts';

/**
 * Direct uploads to an S3 bucket. The browser never sends file bytes to us:
 *
 * 1. POST /api/uploads/s3 { size, contentType } — we create the Upload row (its limit is exactly
 *    `size`), hold that room in the quota, and answer presigned URLs: one PUT for a file up to
 *    PART_SIZE, else a multipart upload with one presigned URL per part.
 * 2. The browser PUTs the bytes (or parts) to the bucket.
 * 3. GET /api/uploads/s3/:id — after an interruption: which parts the bucket holds whole
 *    (ListParts) and fresh URLs for the rest; the held room and the row's clock are renewed.
 * 4. POST /api/uploads/s3/:id/complete — we complete the multipart upload from the bucket's own
 *    part list (the browser need not remember ETags), then read the object back and check it
 *    exactly as a PUT to us (size, type from the bytes, quota, sha256; thumbnails and EXIF by the
 *    processing job). A refused object is deleted from the bucket. Then POST /api/files files it.
 *
 * Every step is the signed-in uploader's only: an upload of someone else's is a 404. The plan's
 * rules (parts, the pending row) are s3-direct.ts.
 */
export const S3_UPLOADS_PATH = S3_UPLOADS_URL;

/** Where browsers send bytes in S3 mode, for the content security policy's connect-src. */
export function s3ConnectSources(storage: { s3?: S3Config }): string[] {
  const s3 = storage.s3;
  if (!s3) return [];
  if (s3.endpoint) {
    const origin = new URL(s3.endpoint);
    // Virtual-host addressing puts the bucket in front of the endpoint's host name.
    return s3.forcePathStyle ? [origin.origin] : [`${origin.protocol}//${s3.bucket}.${origin.host}`];
  }
  return [`https://${s3.bucket}.s3.${s3.region}.amazonaws.com`, `https://s3.${s3.region}.amazonaws.com`];
}

export function s3UploadRoutes(deps: StorageDeps, store: S3ObjectStore) {
  const routes = new Hono<AppEnv>();
  const ttl = deps.config.storage.uploadUrlTtlSeconds;
  const origin = (url: string) => deps.config.publicUrl ?? new URL(url).origin;

  routes.post(S3_UPLOADS_PATH, async (c) => {
    const viewer = requireViewer(c);
    return c.json(await planS3Upload(deps, store, viewer, await readJson(c), origin(c.req.url)));
  });

  routes.get(`${S3_UPLOADS_PATH}/:id`, async (c) => {
    const viewer = requireViewer(c);
    const upload = await pendingUpload(deps, viewer, c.req.param('id'));
    const size = Number(upload.maxSize);
    // Still going: the held room and the row's clock run on from now.
    await reserveQuota(deps, upload, size);
    const { s3MultipartId, s3ContentType = 'application/octet-stream' } = upload.metadata as PendingMultipart;
    let state: S3UploadState;
    if (!s3MultipartId) {
      state = {
        put: {
          url: await store.presignPut(upload.objectKey, { size, contentType: s3ContentType, expiresIn: ttl }),
          contentType: s3ContentType,
        },
      };
    } else {
      const whole = wholeParts(await partsOf(deps, store, upload, s3MultipartId), size);
      state = {
        multipart: {
          partSize: PART_SIZE,
          done: whole.map((p) => p.partNumber),
          parts: await partUrls(
            store,
            upload.objectKey,
            s3MultipartId,
            size,
            whole.map((p) => p.partNumber),
            ttl,
          ),
        },
      };
    }
    return c.json(state);
  });

  routes.post(`${S3_UPLOADS_PATH}/:id/complete`, async (c) => {
    const viewer = requireViewer(c);
    const upload = await pendingUpload(deps, viewer, c.req.param('id'));
    const size = Number(upload.maxSize);
    const { s3MultipartId } = upload.metadata as PendingMultipart;
    // Completed at the bucket already (the answer to an earlier completion was lost): check it.
    if (s3MultipartId && !(await store.stat(upload.objectKey))) {
      const whole = wholeParts(await partsOf(deps, store, upload, s3MultipartId), size);
      const missing = Array.from({ length: partCount(size) }, (_, i) => i + 1).filter(
        (n) => !whole.some((p) => p.partNumber === n),
      );
      if (missing.length > 0) {
        throw new ConflictError(
          `Parts ${missing.join(', ')} of this upload have not arrived whole; GET ${S3_UPLOADS_PATH}/${upload.id} gives their URLs.`,
        );
      }
      await store.completeMultipart(upload.objectKey, s3MultipartId, whole);
    }
    return c.json(await checkArrived(deps, store, upload, c.req.url));
  });

  return routes;
}

/** The parts at the bucket; a multipart upload the bucket no longer knows (aborted by a lifecycle rule) ends the upload. */
async function partsOf(deps: StorageDeps, store: S3ObjectStore, upload: Upload, multipartId: string) {
  try {
    return await store.listParts(upload.objectKey, multipartId);
  } catch (error) {
    if (!(error instanceof S3ServiceException) || error.name !== 'NoSuchUpload') throw error;
    await releaseReservation(deps.db, upload.id);
    await deps.db.upload.updateMany({ where: { id: upload.id, status: 'pending' }, data: { status: 'released' } });
    throw new ConflictError('The bucket no longer holds this upload; start it again.');
  }
}

async function pendingUpload(deps: StorageDeps, viewer: Viewer, id: string): Promise<Upload> {
  const upload = isUuid(id) ? await deps.db.upload.findUnique({ where: { id } }) : null;
  if (!upload || upload.userId !== viewer.id) throw new NotFoundError('Upload');
  if (upload.status !== 'pending') throw new ConflictError('This upload has already been completed or refused.');
  return upload;
}

/**
 * The parts the bucket holds in full. A part cut off mid-way is not listed by S3 itself, but some
 * compatible servers keep what arrived of it: only the exact expected size counts.
 */
function wholeParts(listed: UploadedPart[], size: number) {
  return listed.filter((p) => p.partNumber <= partCount(size) && p.size === partSize(size, p.partNumber));
}

/**
 * The object is in the bucket: judge it as if it had been PUT to us. Refused bytes (and any
 * thumbnails) leave the bucket and the row is released, so nothing refused can be filed.
 */
async function checkArrived(
  deps: StorageDeps,
  store: S3ObjectStore,
  upload: Upload,
  requestUrl: string,
): Promise<DirectUploadResult> {
  const size = Number(upload.maxSize);
  const info = await store.stat(upload.objectKey);
  if (!info) throw new ConflictError('The bucket does not have the bytes of this upload yet; send them first.');
  try {
    if (info.size !== size) {
      throw new ValidationError(`The bucket received ${info.size} bytes, not the ${size} announced.`);
    }
    const bytes = await store.get(upload.objectKey);
    if (!bytes) throw new ConflictError('The bucket does not have the bytes of this upload yet; send them first.');
    const checked = await takeBytes(deps, upload, bytes, size, { alreadyStored: true });
    const origin = deps.config.publicUrl ?? new URL(requestUrl).origin;
    return {
      ok: true,
      uploadURL: `${origin}${objectPathFor(upload.id)}`,
      objectPath: checked.objectPath,
      uploadId: upload.id,
      size: checked.size,
      mimeType: checked.mimeType,
    };
  } catch (error) {
    // Another completion of this upload is checking the bytes right now: leave them to it.
    if (error instanceof ConflictError) throw error;
    // Released first: if the bucket cannot delete right now, the cleanup pass retries.
    await deps.db.upload.updateMany({ where: { id: upload.id }, data: { status: 'released' } });
    await store.deletePrefix(upload.objectKey).catch((failure: unknown) => {
      deps.logger.warn({ err: failure, uploadId: upload.id }, 'could not delete refused bytes from the bucket yet');
    });
    if (error instanceof DomainError) throw error;
    deps.logger.error({ err: error, uploadId: upload.id }, 'could not check an upload sent to the bucket');
    throw error;
  }
}

/**
 * Removes objects (and thumbnails) whose upload row no longer exists (they went with a deleted
 * account, or a crash lost track of them), once written before `olderThan`: the bucket's twin of
 * the disk store's orphan sweep.
 */
export async function removeOrphanedObjects(db: Db, store: S3ObjectStore, olderThan: Date) {
  const byId = new Map<string, { key: string; lastModified: Date | undefined }[]>();
  let removed = 0;
  const sweep = async () => {
    const ids = [...byId.keys()];
    const known = new Set(
      (await db.upload.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((u) => u.id),
    );
    for (const id of ids.filter((candidate) => !known.has(candidate))) {
      for (const item of byId.get(id) ?? []) {
        if (item.lastModified && item.lastModified < olderThan) {
          await store.delete(item.key);
          removed += 1;
        }
      }
    }
    byId.clear();
  };
  for await (const item of store.listDated('uploads')) {
    // An object's keys are uploads/<id>, alone or followed by a variant (thumbnails).
    if (!item.key.startsWith('uploads/')) continue;
    const id = item.key.slice('uploads/'.length, 'uploads/'.length + 36).toLowerCase();
    if (!isUuid(id)) continue;
    byId.set(id, [...(byId.get(id) ?? []), item]);
    if (byId.size >= 500) await sweep();
  }
  if (byId.size > 0) await sweep();
  return removed;
}
