import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { Services } from '../context.ts';
import { Prisma } from '../generated/prisma/client.ts';
import type { Arrivals } from './arrivals.ts';
import { IMAGE_TYPES } from './filetypes.ts';
import { readImageInfo, thumbnail, thumbnails, VARIANTS, variantKey, type ImageInfo, type Variant } from './images.ts';
import { LocalObjectStore, type ObjectStore } from '../infra/objects/store.ts';
import { objectPathFor } from './uploads.ts';

/**
 * What happens to a picture after its bytes are safe: EXIF facts and the two thumbnails. The
 * upload answers as soon as the bytes are stored; this runs as a durable job (PROCESS_UPLOAD),
 * so a crash or a restart only delays it. Every step may run twice without harm: thumbnails
 * are overwritten with the same bytes, and the metadata is merged only while the upload still
 * says it is processing.
 */
export const PROCESS_UPLOAD = 'storage.process-upload';

/** Two at a time: sharp works one photo per thread here, so a burst of photos uses both cores. */
export const PROCESS_CONCURRENCY = 2;
/** How long a processing job lets arriving uploads go first: until they pause, at most a few seconds. */
export const UPLOADS_FIRST = { quietMs: 150, maxWaitMs: 3_000 };

export interface ProcessUploadJob {
  uploadId: string;
}

/** Upload.metadata and File.metadata while the picture waits for its job. */
export const PROCESSING_KEY = 'processing';

export interface ProcessingDeps extends Pick<Services, 'db' | 'events' | 'jobs'> {
  store: ObjectStore;
  /** Uploads arriving in this process: a job starts once they leave the cores to it. */
  receiving?: Arrivals;
  scratchDir: string;
  logger: Pick<Logger, 'warn' | 'error' | 'info'>;
}

/** Whether uploads of this type get processed after the bytes are safe. */
export function needsProcessing(mimeType: string) {
  return IMAGE_TYPES.has(mimeType);
}

/** Asks for the processing of an upload; one job per upload, however often it is asked. */
export async function enqueueProcessing(deps: Pick<ProcessingDeps, 'jobs'>, uploadId: string) {
  await deps.jobs.send<ProcessUploadJob>(
    PROCESS_UPLOAD,
    { uploadId },
    { singletonKey: uploadId, retryLimit: 5, retryDelaySeconds: 5, retryBackoff: true },
  );
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function isProcessing(metadata: unknown) {
  return asObject(metadata)[PROCESSING_KEY] === true;
}

/** The original as a local file: the store's own file when it is on this disk, else a scratch copy. */
async function withLocalFile<T>(deps: ProcessingDeps, objectKey: string, use: (file: string) => Promise<T>) {
  if (deps.store instanceof LocalObjectStore) return use(path.join(deps.store.root, objectKey));
  const body = await deps.store.get(objectKey);
  if (!body) throw new Error(`the bytes of ${objectKey} are missing from the store`);
  await mkdir(deps.scratchDir, { recursive: true });
  const scratch = path.join(deps.scratchDir, `${randomUUID()}.processing`);
  try {
    await pipeline(body, createWriteStream(scratch, { flags: 'wx' }));
    return await use(scratch);
  } finally {
    await rm(scratch, { force: true });
  }
}

/**
 * Processes one upload: reads the EXIF facts, writes the thumbnails, then merges both into the
 * upload's metadata and into every file record that holds the bytes, in one transaction, and
 * tells the uploader (the `upload:processed` event). Returns false when there was nothing to do
 * (already processed, or the upload is gone).
 */
export async function processUpload(deps: ProcessingDeps, uploadId: string): Promise<boolean> {
  const upload = await deps.db.upload.findUnique({ where: { id: uploadId } });
  if (!upload || upload.status === 'pending' || upload.status === 'released') return false;
  if (!isProcessing(upload.metadata)) return false;

  const facts: { image?: ImageInfo; thumbnails?: Partial<Record<Variant, boolean>> } = {};
  try {
    await withLocalFile(deps, upload.objectKey, async (file) => {
      facts.image = await readImageInfo(file);
      const made = await thumbnails(file);
      for (const variant of Object.keys(VARIANTS) as Variant[]) {
        await deps.store.put(variantKey(upload.objectKey, variant), Readable.from([made[variant]]), {
          contentType: 'image/webp',
        });
      }
      facts.thumbnails = Object.fromEntries(Object.keys(VARIANTS).map((variant) => [variant, true]));
    });
  } catch (error) {
    // Bytes gone from the store are a reason to try again later; a picture libvips cannot read is
    // not, and it only goes without thumbnails (as before the work moved here).
    if (error instanceof Error && /missing from the store/.test(error.message)) throw error;
    deps.logger.warn({ err: error, uploadId }, 'could not read image for thumbnails');
    delete facts.thumbnails;
  }

  const patch = JSON.stringify(facts);
  const objectPath = objectPathFor(upload.id);
  const kept = await deps.db.$transaction(async (tx) => {
    // The upload row first: a concurrent claim (POST /api/files) locks the same row, so either
    // it files the record after this commits (and copies the finished metadata), or this waits
    // for its commit and then finds the new record below.
    const updated = await tx.$executeRaw`
      UPDATE "Upload" SET metadata = (metadata - ${PROCESSING_KEY}) || ${patch}::jsonb
      WHERE id = ${upload.id}::uuid AND status <> 'released'`;
    if (updated === 0) return false;
    await tx.$executeRaw`
      UPDATE "File" SET metadata = (metadata - ${PROCESSING_KEY}) || ${patch}::jsonb, "updatedAt" = now()
      WHERE "ownerId" = ${upload.userId}::uuid AND "objectPath" = ${objectPath}
        AND metadata->>${PROCESSING_KEY} = 'true'`;
    return true;
  });
  if (!kept) {
    // Released (or gone) while its thumbnails were made: the clean-up pass may already have
    // removed its bytes, and would never hear of thumbnails written after that.
    for (const variant of Object.keys(VARIANTS) as Variant[]) {
      await deps.store.delete(variantKey(upload.objectKey, variant));
    }
    return false;
  }
  deps.events.publish('upload:processed', upload.userId, { uploadId: upload.id });
  return true;
}

/** Starts this process's workers for upload processing. */
export async function startProcessing(deps: ProcessingDeps) {
  await deps.jobs.work<ProcessUploadJob>(
    PROCESS_UPLOAD,
    async ({ uploadId }) => {
      // Bytes first: a person waits for their upload's answer, not for its thumbnails.
      await deps.receiving?.quiet(UPLOADS_FIRST);
      await processUpload(deps, uploadId);
    },
    { concurrency: PROCESS_CONCURRENCY },
  );
  await deps.jobs.work<ProcessUploadJob>(
    ADD_GRID_2X,
    async ({ uploadId }) => {
      await deps.receiving?.quiet(UPLOADS_FIRST);
      await addGrid2x(deps, uploadId);
    },
    { concurrency: 1 },
  );
}

/**
 * Uploads that still say processing but may have lost their job (the process died between
 * storing the bytes and asking for the job): asked for again; the singleton key keeps it to one.
 */
export async function requeueUnprocessed(deps: ProcessingDeps, { olderThan }: { olderThan: Date }) {
  const rows = await deps.db.$queryRaw<{ id: string }[]>(Prisma.sql`
    SELECT id::text FROM "Upload"
    WHERE status IN ('uploaded', 'claimed') AND metadata->>${PROCESSING_KEY} = 'true' AND "completedAt" < ${olderThan}
    LIMIT 1000`);
  for (const { id } of rows) await enqueueProcessing(deps, id);
  return rows.length;
}

/**
 * Pictures processed before the grid had a high-density size (`grid2x`) get it from their
 * preview, one job per picture, queued by the clean-up pass: a person's old galleries turn sharp
 * on a phone without anyone uploading again, and no original is decoded twice.
 */
export const ADD_GRID_2X = 'storage.add-grid2x';

const LACKS_GRID_2X = Prisma.sql`metadata->'thumbnails'->>'preview' = 'true' AND metadata->'thumbnails'->'grid2x' IS NULL`;

/** Uploads whose picture lacks its grid2x: the predicate of "Upload_lacks_grid2x_idx", word for word. */
export const missingGrid2xSql = (limit: number) => Prisma.sql`
  SELECT id::text FROM "Upload" WHERE status IN ('uploaded', 'claimed') AND ${LACKS_GRID_2X} LIMIT ${limit}`;

/** Asks for the missing grid2x thumbnails, at most `limit` per pass; one job per upload. */
export async function queueMissingGrid2x(deps: Pick<ProcessingDeps, 'db' | 'jobs'>, { limit = 1000 } = {}) {
  const rows = await deps.db.$queryRaw<{ id: string }[]>(missingGrid2xSql(limit));
  for (const { id } of rows) {
    await deps.jobs.send<ProcessUploadJob>(
      ADD_GRID_2X,
      { uploadId: id },
      { singletonKey: id, retryLimit: 3, retryDelaySeconds: 30, retryBackoff: true },
    );
  }
  return rows.length;
}

/**
 * Makes one picture's grid2x thumbnail from its preview and records it on the upload and its
 * files. A preview that is missing or unreadable is recorded as `grid2x: false`, so the clean-up
 * pass does not ask again; the grid then keeps the 400-pixel one. Returns whether a thumbnail was made.
 */
export async function addGrid2x(deps: ProcessingDeps, uploadId: string): Promise<boolean> {
  const upload = await deps.db.upload.findUnique({ where: { id: uploadId } });
  if (!upload || upload.status === 'pending' || upload.status === 'released') return false;
  const key = variantKey(upload.objectKey, 'grid2x');
  // A store that does not answer throws: the job is tried again later.
  const body = await deps.store.get(variantKey(upload.objectKey, 'preview'));
  let made = false;
  if (body) {
    const preview = Buffer.concat(await body.toArray());
    const grid2x = await thumbnail(preview, 'grid2x').catch((error) => {
      deps.logger.warn({ err: error, uploadId }, 'could not make the grid2x thumbnail from the preview');
      return null;
    });
    if (grid2x) {
      await deps.store.put(key, Readable.from([grid2x]), { contentType: 'image/webp' });
      made = true;
    }
  }
  const mark = Prisma.sql`metadata = jsonb_set(metadata, '{thumbnails,grid2x}', ${JSON.stringify(made)}::jsonb)`;
  const kept = await deps.db.$transaction(async (tx) => {
    const updated = await tx.$executeRaw`
      UPDATE "Upload" SET ${mark} WHERE id = ${upload.id}::uuid AND status <> 'released' AND ${LACKS_GRID_2X}`;
    if (updated === 0) return false;
    await tx.$executeRaw`
      UPDATE "File" SET ${mark}
      WHERE "ownerId" = ${upload.userId}::uuid AND "objectPath" = ${objectPathFor(upload.id)} AND ${LACKS_GRID_2X}`;
    return true;
  });
  // Released meanwhile: the clean-up pass may have removed the other files already.
  if (!kept && made) {
    const now = await deps.db.upload.findUnique({ where: { id: uploadId }, select: { status: true } });
    if (!now || now.status === 'released') await deps.store.delete(key);
  }
  return kept && made;
}
