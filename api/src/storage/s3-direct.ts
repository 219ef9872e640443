import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Viewer } from '../context.ts';
import type { S3ObjectStore } from '../infra/objects/s3.ts';
import { parse } from '../shared/validation.ts';
import type { S3UploadPlan } from './contract.ts';
import { reserveQuota, type StorageDeps, tooLarge, uploadUrlFor } from './rules.ts';

/**
 * The rules of direct uploads to an S3 bucket (the routes are s3-uploads.ts): what a plan holds,
 * how a file is cut into parts, and the pending upload row behind it.
 */

/** Parts of 8 MiB: above S3's 5 MiB minimum, and 10,000 parts (S3's maximum) reach 80 GiB. */
export const PART_SIZE = 8 * 1024 * 1024;

/** What the upload row's metadata keeps of a direct upload until it is complete. */
export interface PendingMultipart {
  s3MultipartId?: string;
  /** The type the presigned URLs were signed for. */
  s3ContentType?: string;
}

const planRequest = z.object({
  size: z.number({ message: 'size must be the file size in bytes' }).int().positive('File is empty.'),
  contentType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'contentType must be a media type such as image/jpeg')
    .max(200)
    .optional(),
});

/**
 * `schema` with its first problem told in its own words: parse() puts the field's name before a
 * wrong-type message, and this request has always answered zod's message as it is.
 */
function inOwnWords<T extends z.ZodType>(schema: T) {
  return z.unknown().transform((value, ctx): z.output<T> => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    ctx.addIssue({ code: 'custom', message: issue?.message ?? 'Invalid input.', path: issue?.path ?? [] });
    return z.NEVER;
  });
}

export function partCount(size: number) {
  return Math.ceil(size / PART_SIZE);
}

export function partSize(size: number, partNumber: number) {
  return Math.min(PART_SIZE, size - (partNumber - 1) * PART_SIZE);
}

/**
 * POST /api/uploads/s3 { size, contentType }: the Upload row (its limit is exactly `size`), that
 * room held in the quota, and presigned URLs: one PUT for a file up to PART_SIZE, else a multipart
 * upload with one presigned URL per part. `origin` is where the upload URL points.
 */
export async function planS3Upload(
  deps: StorageDeps,
  store: S3ObjectStore,
  viewer: Viewer,
  body: unknown,
  origin: string,
): Promise<S3UploadPlan> {
  const request = parse(inOwnWords(planRequest), body);
  const { size } = request;
  const contentType = request.contentType ?? 'application/octet-stream';
  const ttl = deps.config.storage.uploadUrlTtlSeconds;
  const maxSize = deps.config.storage.maxUploadSize;
  if (size > maxSize) throw tooLarge(maxSize);
  const upload = await createPending(deps, viewer, size);
  const uploadURL = uploadUrlFor(deps, origin, upload);
  try {
    if (size <= PART_SIZE) {
      await deps.db.upload.update({
        where: { id: upload.id },
        data: { metadata: { s3ContentType: contentType } satisfies PendingMultipart },
      });
      return {
        uploadURL,
        uploadId: upload.id,
        expiresAt: upload.expiresAt.toISOString(),
        put: { url: await store.presignPut(upload.objectKey, { size, contentType, expiresIn: ttl }), contentType },
      };
    }
    const multipartId = await store.createMultipart(upload.objectKey, contentType);
    await deps.db.upload.update({
      where: { id: upload.id },
      data: { metadata: { s3MultipartId: multipartId, s3ContentType: contentType } satisfies PendingMultipart },
    });
    return {
      uploadURL,
      uploadId: upload.id,
      expiresAt: upload.expiresAt.toISOString(),
      multipart: {
        partSize: PART_SIZE,
        parts: await partUrls(store, upload.objectKey, multipartId, size, [], ttl),
      },
    };
  } catch (error) {
    await deps.db.upload.delete({ where: { id: upload.id } }).catch(() => {});
    throw error;
  }
}

/** A pending upload row whose limit is exactly `size`, with that room held in the quota. */
async function createPending(deps: StorageDeps, viewer: Viewer, size: number) {
  const id = randomUUID();
  const upload = await deps.db.upload.create({
    data: {
      id,
      userId: viewer.id,
      objectKey: `uploads/${id}`,
      maxSize: BigInt(size),
      expiresAt: new Date(Date.now() + deps.config.storage.uploadUrlTtlSeconds * 1000),
    },
  });
  try {
    await reserveQuota(deps, upload, size);
  } catch (error) {
    await deps.db.upload.delete({ where: { id } });
    throw error;
  }
  return deps.db.upload.findUniqueOrThrow({ where: { id } });
}

/** Presigned URLs for the parts not in `done`. */
export async function partUrls(
  store: S3ObjectStore,
  key: string,
  multipartId: string,
  size: number,
  done: number[],
  ttl: number,
) {
  const parts: { partNumber: number; size: number; url: string }[] = [];
  for (let partNumber = 1; partNumber <= partCount(size); partNumber += 1) {
    if (done.includes(partNumber)) continue;
    const url = await store.presignPart(key, multipartId, partNumber, ttl);
    parts.push({ partNumber, size: partSize(size, partNumber), url });
  }
  return parts;
}
