import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { Prisma, type Upload } from '../generated/prisma/client.ts';
import type { Services, Viewer } from '../context.ts';
import type { Db } from '../infra/db/database.ts';
import { fileAccessWhere } from '../access/rules.ts';
import { ConflictError, domainError, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.ts';
import type { Arrivals } from './arrivals.ts';
import { describeAccepted, detectFileType } from './filetypes.ts';
import type { ImageInfo, Variant } from './images.ts';
import { enqueueProcessing, needsProcessing, PROCESSING_KEY } from './processing.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import { signUploadToken, verifyUploadToken } from './tokens.ts';
import { objectPathFor } from './uploads.ts';
import { isUuid } from '../shared/ids.ts';
import { formatBytes } from '../shared/format.ts';

export class PayloadTooLargeError extends domainError(413, 'PAYLOAD_TOO_LARGE') {}

export class UnsupportedFileTypeError extends domainError(415, 'UNSUPPORTED_FILE_TYPE') {}

/** Everything the storage rules need beyond the shared services. */
export interface StorageDeps extends Services {
  store: ObjectStore;
  signingKey: Buffer;
  /** Where incoming bytes are written before they are checked and stored. */
  scratchDir: string;
  logger: Logger;
  /** Uploads whose bytes are arriving right now (the cleanup pass leaves them alone). */
  receiving: Arrivals;
}

const INVALID_URL = 'This upload URL is invalid or has expired. Ask for a new one.';

// ───────────────────────────── usage and quota ─────────────────────────────

export interface StorageUsage {
  usedBytes: number;
  quotaBytes: number;
}

/**
 * Bytes the user keeps: their files and every version of them (bytes shared by a file and its
 * current version count once) plus uploads that arrived but are not filed yet. The database keeps
 * the sum as those rows change (StorageUsage, see the storage_usage migration).
 */
export async function storageUsage(services: Pick<Services, 'db' | 'config'>, userId: string): Promise<StorageUsage> {
  const [row] = await services.db.$queryRaw<{ used: bigint; quota: bigint }[]>`
    SELECT used, ${personalQuota(services.config, userId)} AS quota FROM "scoutbase_quota_state"(${userId}::uuid, NULL)`;
  return { usedBytes: Number(row?.used ?? 0), quotaBytes: Number(row?.quota ?? services.config.storage.quotaBytes) };
}

/**
 * The person's quota as an SQL expression: the one an administrator set for them (User.quotaBytes),
 * else STORAGE_QUOTA. Read inside each statement that checks the quota, so a change counts at once.
 */
function personalQuota(config: Services['config'], userId: string) {
  return Prisma.sql`COALESCE((SELECT "quotaBytes" FROM "User" WHERE id = ${userId}::uuid), ${config.storage.quotaBytes}::bigint)`;
}

/** The person's quota, for a refusal's message (the checks themselves read it in their statement). */
async function quotaOf(deps: Pick<Services, 'db' | 'config'>, userId: string): Promise<number> {
  const user = await deps.db.user.findUnique({ where: { id: userId }, select: { quotaBytes: true } });
  return user?.quotaBytes == null ? deps.config.storage.quotaBytes : Number(user.quotaBytes);
}

/** How much more room a stream of unknown length asks for at a time. */
const RESERVE_STEP = 4 * 1024 * 1024;

/**
 * Holds room in the owner's quota for an upload whose bytes are arriving: at least `atLeast`
 * bytes, up to `upTo` if that fits, never less than it holds already. Reading the quota is not
 * enough (uploads racing each other all see the same free room), so one user's reservations take
 * turns on a lock of their User row, on PGlite and PostgreSQL alike. The hold lasts until the
 * upload's expiresAt, which this moves on (a reservation is renewed while bytes keep coming), and
 * ends sooner when the upload finishes (its size counts instead) or fails (releaseReservation).
 * Answers the bytes now held.
 */
export async function reserveQuota(
  deps: Pick<Services, 'db' | 'config'>,
  upload: { id: string; userId: string },
  atLeast: number,
  upTo = atLeast,
): Promise<number> {
  // One statement (the quota_reservation migration): the lock, a fresh read under it and the new
  // hold, where an interactive transaction took five round trips.
  const [row] = await deps.db.$queryRaw<
    { status: string | null; held: bigint | null; used: bigint; reserved: bigint }[]
  >`
    SELECT status, held, used, reserved FROM "scoutbase_reserve_quota"(
      ${upload.id}::uuid, ${upload.userId}::uuid, ${atLeast}::bigint, ${upTo}::bigint,
      ${personalQuota(deps.config, upload.userId)}, ${deps.config.storage.uploadUrlTtlSeconds}::int)`;
  if (row?.status !== 'pending') throw new ForbiddenError(INVALID_URL);
  if (row.held === null) {
    throw quotaExceeded(
      { usedBytes: Number(row.used) + Number(row.reserved), quotaBytes: await quotaOf(deps, upload.userId) },
      atLeast,
    );
  }
  return Number(row.held);
}

/** Gives back the room a pending upload held (it failed or was refused; it may be sent again). */
export async function releaseReservation(db: Db, uploadId: string) {
  await db.upload.updateMany({ where: { id: uploadId, status: 'pending' }, data: { reservedBytes: 0n } });
}

export function quotaExceeded(usage: StorageUsage, needed: number) {
  return new PayloadTooLargeError(
    `Storage quota exceeded: ${formatBytes(usage.usedBytes)} of ${formatBytes(usage.quotaBytes)} used, ` +
      `this file needs ${formatBytes(needed)}. Delete some files to make room.`,
  );
}

export function tooLarge(maxSize: number) {
  return new PayloadTooLargeError(`File is larger than ${maxSize} bytes (the limit is ${formatBytes(maxSize)}).`);
}

// ───────────────────────────── upload URLs ─────────────────────────────

/**
 * The URL a pending upload's bytes go to with PUT: <origin>/objects/uploads/<id>?token=…, the token
 * signed for its user and limit until it expires.
 */
export function uploadUrlFor(
  deps: Pick<StorageDeps, 'signingKey'>,
  origin: string,
  upload: { id: string; userId: string; maxSize: bigint; expiresAt: Date },
) {
  const token = signUploadToken(
    deps.signingKey,
    { uploadId: upload.id, userId: upload.userId, maxSize: upload.maxSize },
    upload.expiresAt,
  );
  return `${origin}${objectPathFor(upload.id)}?token=${token}`;
}

/** The URL the bytes go to with PUT: /objects/uploads/<id>?token=…, valid for a short while. */
export async function createUploadUrl(deps: StorageDeps, viewer: Viewer, origin: string) {
  const [one] = await createUploadUrls(deps, viewer, origin, 1);
  if (!one) throw new Error('no upload URL was made');
  return one;
}

/** Upload URLs for a batch of files, in one statement: all of them, or none when the quota is full. */
export async function createUploadUrls(deps: StorageDeps, viewer: Viewer, origin: string, count: number) {
  const ids = Array.from({ length: count }, () => randomUUID());
  const maxSize = BigInt(deps.config.storage.maxUploadSize);
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + deps.config.storage.uploadUrlTtlSeconds * 1000);
  // The quota's check and the uploads' rows in one statement (URLs are asked for with every batch
  // of files). Times are written as Prisma writes them, UTC without a zone. The quota is the
  // person's own (User.quotaBytes), else STORAGE_QUOTA.
  const [state] = await deps.db.$sql<{ used: string; reserved: string; quota: string; created: number }>(
    `WITH state AS (
       SELECT used, reserved,
              COALESCE((SELECT "quotaBytes" FROM "User" WHERE id = $1::uuid), $6::bigint) AS quota
       FROM "scoutbase_quota_state"($1::uuid, NULL)),
     created AS (
       INSERT INTO "Upload" (id, "userId", "objectKey", "maxSize", "createdAt", "expiresAt")
       SELECT new.id, $1::uuid, 'uploads/' || new.id, $3::bigint, $4::timestamp, $5::timestamp
       FROM state, unnest($2::uuid[]) AS new(id) WHERE used + reserved < quota
       RETURNING id)
     SELECT used::text, reserved::text, quota::text, (SELECT count(*) FROM created)::int AS created FROM state`,
    [
      viewer.id,
      ids,
      maxSize.toString(),
      createdAt.toISOString(),
      expiresAt.toISOString(),
      deps.config.storage.quotaBytes,
    ],
  );
  if (state?.created !== count) {
    const held = Number(state?.used ?? 0) + Number(state?.reserved ?? 0);
    throw quotaExceeded({ usedBytes: held, quotaBytes: Number(state?.quota ?? deps.config.storage.quotaBytes) }, 1);
  }
  return ids.map((id) => ({
    uploadURL: uploadUrlFor(deps, origin, { id, userId: viewer.id, maxSize, expiresAt }),
    uploadId: id,
    maxSize: Number(maxSize),
    expiresAt,
  }));
}

/** The pending upload a signed URL points at, for the user it was made for; 403 for anything else. */
export async function uploadForToken(deps: StorageDeps, viewer: Viewer, uploadId: string, token: string | undefined) {
  const upload = isUuid(uploadId) ? await deps.db.upload.findUnique({ where: { id: uploadId } }) : null;
  const valid =
    upload !== null &&
    upload.userId === viewer.id &&
    verifyUploadToken(deps.signingKey, { uploadId: upload.id, userId: upload.userId, maxSize: upload.maxSize }, token);
  if (!valid || !upload) throw new ForbiddenError(INVALID_URL);
  if (upload.status !== 'pending') throw alreadyUsed();
  return upload;
}

type ProgressStatus = 'uploading' | 'processing' | 'uploaded' | 'failed';

function progressReporter(deps: StorageDeps, upload: Pick<Upload, 'id' | 'userId'>, total: number | null) {
  let last = 0;
  return (received: number, status: ProgressStatus, force = false) => {
    const now = Date.now();
    if (!force && now - last < 250) return;
    last = now;
    // Once all bytes are in, the total is known even if the client never declared it.
    const known = total ?? (status === 'uploading' || status === 'failed' ? 0 : received);
    deps.events.publish('upload:progress', upload.userId, { uploadId: upload.id, received, total: known, status });
  };
}

/**
 * Takes the bytes of a PUT to an upload URL. They stream to a scratch file (never all in memory)
 * while the size, the quota and the sha256 are kept; then the type is judged from the bytes,
 * images get their thumbnails and EXIF facts, and the object goes into the store.
 */
export async function receiveUpload(
  deps: StorageDeps,
  viewer: Viewer,
  uploadId: string,
  token: string | undefined,
  body: Readable | ReadableStream<Uint8Array> | null,
  declaredLength: number | null,
) {
  const { upload, held } = await holdForPut(deps, viewer, uploadId, token, declaredLength);
  const source =
    body instanceof Readable
      ? body
      : body
        ? Readable.fromWeb(body as import('node:stream/web').ReadableStream)
        : Readable.from([]);
  return takeBytes(deps, upload, source, declaredLength, { held });
}

/**
 * uploadForToken and the first reservation of takeBytes in one statement (the upload_hold
 * migration), the same answers in the same order: a small file's bytes took three round trips.
 * The hold is made before the signature can be checked (that needs the row's limit), so it is
 * given back when the signature fails.
 */
async function holdForPut(
  deps: StorageDeps,
  viewer: Viewer,
  uploadId: string,
  token: string | undefined,
  declaredLength: number | null,
) {
  const invalid = new ForbiddenError(INVALID_URL);
  if (!isUuid(uploadId)) throw invalid;
  // A second PUT while the first one's bytes arrive must not move the first one's hold.
  if (deps.receiving.has(uploadId)) throw alreadyArriving();
  const [row] = await deps.db.$sql<{
    status: string | null;
    held: string | null;
    used: string | null;
    reserved: string | null;
    objectKey: string | null;
    maxSize: string | null;
  }>(
    `SELECT status, held::text, used::text, reserved::text, object_key AS "objectKey", max_size::text AS "maxSize"
     FROM "scoutbase_hold_upload"($1::uuid, $2::uuid, $3::bigint, $4::bigint,
       COALESCE((SELECT "quotaBytes" FROM "User" WHERE id = $2::uuid), $5::bigint), $6::int)`,
    [
      uploadId,
      viewer.id,
      declaredLength ?? 1,
      declaredLength ?? RESERVE_STEP,
      deps.config.storage.quotaBytes,
      deps.config.storage.uploadUrlTtlSeconds,
    ],
  );
  if (!row?.status || row.objectKey === null || row.maxSize === null) throw invalid;
  const upload = { id: uploadId, userId: viewer.id, objectKey: row.objectKey, maxSize: BigInt(row.maxSize) };
  if (!verifyUploadToken(deps.signingKey, { uploadId, userId: viewer.id, maxSize: upload.maxSize }, token)) {
    // Only the owner gets this far (the statement matched the person): a hold of their own PUT
    // that is arriving meanwhile stays.
    if (row.held !== null && !deps.receiving.has(uploadId)) await releaseReservation(deps.db, uploadId);
    throw invalid;
  }
  if (row.status !== 'pending') throw alreadyUsed();
  if (declaredLength !== null && declaredLength > Number(upload.maxSize)) throw tooLarge(Number(upload.maxSize));
  if (row.held === null) {
    throw quotaExceeded(
      { usedBytes: Number(row.used) + Number(row.reserved), quotaBytes: await quotaOf(deps, viewer.id) },
      declaredLength ?? 1,
    );
  }
  return { upload, held: Number(row.held) };
}

const alreadyUsed = () => new ConflictError('This upload URL has already been used. Ask for a new one.');
const alreadyArriving = () => new ConflictError('The bytes of this upload are already arriving.');

/**
 * The bytes of a pending upload, from wherever they come (a PUT, or read back from the store when
 * the browser sent them straight to UploadThing): the same limits, checksum and checks for all.
 * With `alreadyStored` the object is in the store already and is not written again.
 */
export async function takeBytes(
  deps: StorageDeps,
  upload: PendingUpload,
  source: Readable,
  declaredLength: number | null,
  { alreadyStored = false, held }: { alreadyStored?: boolean; held?: number } = {},
) {
  if (deps.receiving.has(upload.id)) throw alreadyArriving();
  // Claimed before any await, so two PUTs racing to one URL cannot both get past this point. While
  // its bytes arrive the cleanup pass also leaves the upload alone, however slow the line.
  deps.receiving.add(upload.id);
  const maxSize = Number(upload.maxSize);
  const scratch = path.join(deps.scratchDir, randomUUID());
  const progress = progressReporter(deps, upload, declaredLength);
  const hash = createHash('sha256');
  let received = 0;
  const renewEvery = (deps.config.storage.uploadUrlTtlSeconds * 1000) / 2;
  try {
    if (declaredLength !== null && declaredLength > maxSize) throw tooLarge(maxSize);
    // The room is held before the first byte is written: the declared length, or a step at a
    // time (grown below) for a body of unknown length. A PUT holds it already (holdForPut).
    let reserved =
      held ??
      (await reserveQuota(deps, upload, declaredLength ?? 1, declaredLength ?? Math.min(maxSize, RESERVE_STEP)));
    let renewAt = Date.now() + renewEvery;
    await mkdir(deps.scratchDir, { recursive: true });
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > maxSize) return done(tooLarge(maxSize));
        const pass = () => {
          hash.update(chunk);
          progress(received, 'uploading');
          done(null, chunk);
        };
        if (received <= reserved && Date.now() < renewAt) return pass();
        reserveQuota(deps, upload, received, Math.min(maxSize, received + RESERVE_STEP)).then((held) => {
          reserved = held;
          renewAt = Date.now() + renewEvery;
          pass();
        }, done);
      },
    });
    await pipeline(source, meter, createWriteStream(scratch, { flags: 'wx' }));
    progress(received, 'processing', true);
    const finished = await finishUpload(
      deps,
      upload,
      scratch,
      { size: received, checksum: hash.digest('hex') },
      { alreadyStored },
    );
    progress(received, 'uploaded', true);
    return finished;
  } catch (error) {
    progress(received, 'failed', true);
    await releaseReservation(deps.db, upload.id).catch((failure: unknown) => {
      // It lapses with the upload's expiresAt anyway.
      deps.logger.warn({ err: failure, uploadId: upload.id }, 'could not release a quota reservation');
    });
    throw error;
  } finally {
    deps.receiving.delete(upload.id);
    await rm(scratch, { force: true });
  }
}

/**
 * Bytes the server fetches itself (an import from Drive, Dropbox or the server's import folder):
 * the same way in as a PUT to an upload URL, so the size limit, the quota, the type check, the
 * sha256 and the thumbnails all apply. The result's objectPath is ready for createFileRecord.
 */
export async function ingestStream(
  deps: StorageDeps,
  viewer: Viewer,
  body: ReadableStream<Uint8Array> | null,
  declaredLength: number | null,
) {
  const { uploadId, uploadURL } = await createUploadUrl(deps, viewer, '');
  const token = new URL(uploadURL, 'http://ingest.invalid').searchParams.get('token') ?? undefined;
  return receiveUpload(deps, viewer, uploadId, token, body, declaredLength);
}

/** What taking the bytes of an upload needs of its row. */
export type PendingUpload = Pick<Upload, 'id' | 'userId' | 'objectKey' | 'maxSize'>;

export interface UploadedObject {
  uploadId: string;
  objectPath: string;
  size: number;
  checksum: string;
  mimeType: string;
  metadata: { image?: ImageInfo; thumbnails?: Partial<Record<Variant, true>>; processing?: true };
}

/**
 * The checks and derived data every way in (PUT, tus) shares, for bytes complete in a local file.
 * Takes the file (moves it into the store) when it succeeds.
 */
export async function finishUpload(
  deps: StorageDeps,
  upload: PendingUpload,
  file: string,
  { size, checksum }: { size: number; checksum: string },
  { alreadyStored = false }: { alreadyStored?: boolean } = {},
): Promise<UploadedObject> {
  if (size === 0) throw new ValidationError('File is empty.');
  const detected = await detectFileType(file);
  if (!detected.ok) {
    throw new UnsupportedFileTypeError(
      `File type must be one of ${describeAccepted()}; this file is ${detected.found}.`,
    );
  }
  // A picture's EXIF facts and thumbnails come from a job once the bytes are safe (processing.ts):
  // the upload does not wait for them, and the API says `processing` until they are there.
  const processing = needsProcessing(detected.mimeType);
  const metadata: UploadedObject['metadata'] = processing ? { [PROCESSING_KEY]: true } : {};
  if (!alreadyStored) await deps.store.putFile(upload.objectKey, file, { contentType: detected.mimeType });
  // The size counts from now on instead of the room held for it (one update: never both, never
  // neither), and the clock runs for filing it (POST /api/files), then the grace period. Times are
  // written as Prisma writes them, UTC without a zone.
  const done = await deps.db.$sql(
    `UPDATE "Upload" SET status = 'uploaded', "reservedBytes" = 0, size = $2::bigint, checksum = $3,
       "mimeType" = $4, metadata = $5::jsonb, "completedAt" = $6::timestamp, "expiresAt" = $7::timestamp
     WHERE id = $1::uuid AND status = 'pending' RETURNING id`,
    [
      upload.id,
      size,
      checksum,
      detected.mimeType,
      JSON.stringify(metadata),
      new Date().toISOString(),
      new Date(Date.now() + deps.config.storage.uploadUrlTtlSeconds * 1000).toISOString(),
    ],
  );
  if (done.length !== 1) {
    // The row went away (cleanup of an expired upload) while the bytes arrived.
    await deps.store.deletePrefix(upload.objectKey);
    throw new ForbiddenError(INVALID_URL);
  }
  if (processing) {
    // The bytes are safe either way; an upload whose job could not be asked for now is asked for
    // again by the cleanup pass (requeueUnprocessed).
    await enqueueProcessing(deps, upload.id).catch((error) =>
      deps.logger.error({ err: error, uploadId: upload.id }, 'could not queue the processing of an upload'),
    );
  }
  return {
    uploadId: upload.id,
    objectPath: objectPathFor(upload.id),
    size,
    checksum,
    mimeType: detected.mimeType,
    metadata,
  };
}

// ───────────────────────────── serving ─────────────────────────────

export interface ServableObject {
  upload: Upload;
  /** The name to offer when saving, from the file record (or none before the record exists). */
  name: string | null;
}

/**
 * The object at /objects/uploads/<id> if the viewer may read a file or version holding it (or
 * uploaded it and has not filed it yet). Anyone else, signed in or not, gets a plain 404.
 */
export async function servableObject(db: Db, viewer: Viewer | null, uploadId: string): Promise<ServableObject> {
  const notFound = new NotFoundError('File');
  if (!isUuid(uploadId)) throw notFound;
  const upload = await db.upload.findUnique({ where: { id: uploadId } });
  if (!upload || upload.status === 'pending' || upload.status === 'released') throw notFound;
  const objectPath = objectPathFor(upload.id);
  const holds = { OR: [{ objectPath }, { versions: { some: { objectPath } } }] };
  const where = viewer ? { AND: [holds, fileAccessWhere(viewer.id)] } : { AND: [holds, { isPublic: true }] };
  const file = await db.file.findFirst({ where, select: { name: true } });
  if (file) return { upload, name: file.name };
  if (viewer && upload.userId === viewer.id && upload.status === 'uploaded') return { upload, name: null };
  throw notFound;
}

// ───────────────────────────── cleanup ─────────────────────────────

export interface CleanupReport {
  removed: number;
  failed: number;
}

/**
 * Removes the bytes, thumbnails and row of released uploads and of uploads never filed within
 * their time plus the grace period. Each upload is first marked released (so nobody can claim it
 * any more), then its bytes go, then its row: a pass cut short anywhere is finished by the next.
 */
export async function runCleanup(
  deps: Pick<StorageDeps, 'db' | 'config' | 'store' | 'logger' | 'receiving'>,
  { now = new Date(), batchSize = 200 }: { now?: Date; batchSize?: number } = {},
): Promise<CleanupReport> {
  const cutoff = new Date(now.getTime() - deps.config.storage.gracePeriodSeconds * 1000);
  const report: CleanupReport = { removed: 0, failed: 0 };
  await deps.db.upload.updateMany({
    where: { status: { in: ['pending', 'uploaded'] }, expiresAt: { lt: cutoff }, id: { notIn: [...deps.receiving] } },
    data: { status: 'released' },
  });
  const seen = new Set<string>();
  for (;;) {
    const batch = await deps.db.upload.findMany({
      where: { status: 'released', id: { notIn: [...seen, ...deps.receiving] } },
      orderBy: { createdAt: 'asc' },
      take: batchSize,
    });
    if (batch.length === 0) break;
    for (const upload of batch) {
      seen.add(upload.id);
      try {
        await removeReleased(deps, upload);
        report.removed += 1;
      } catch (error) {
        report.failed += 1;
        deps.logger.error({ err: error, uploadId: upload.id }, 'cleanup could not remove an upload; next pass retries');
      }
    }
  }
  return report;
}

/**
 * Removes files in `dir` named after uploads that no longer exist (their rows went with a deleted
 * account, or a crash lost track of them), once they are older than `olderThan`.
 */
export async function removeOrphanedFiles(db: Db, dir: string, olderThan: Date) {
  const names = await readdir(dir).catch(() => [] as string[]);
  const byId = new Map<string, string[]>();
  for (const name of names) {
    // An object's files are named by its id, alone or followed by a variant (thumbnails).
    const id = name.slice(0, 36);
    if (isUuid(id)) byId.set(id.toLowerCase(), [...(byId.get(id.toLowerCase()) ?? []), name]);
  }
  let removed = 0;
  const ids = [...byId.keys()];
  for (let start = 0; start < ids.length; start += 500) {
    const batch = ids.slice(start, start + 500);
    const known = new Set(
      (await db.upload.findMany({ where: { id: { in: batch } }, select: { id: true } })).map((u) => u.id),
    );
    for (const id of batch.filter((candidate) => !known.has(candidate))) {
      for (const name of byId.get(id) ?? []) {
        const file = path.join(dir, name);
        const info = await stat(file).catch(() => null);
        if (info && info.mtime < olderThan) {
          await rm(file, { force: true, recursive: true });
          removed += 1;
        }
      }
    }
  }
  return removed;
}

export function tusDirectory(dataDir: string) {
  return path.join(dataDir, 'tus');
}

/** Removes what the tus store keeps of a resumable upload (its partial bytes and its .json record). */
export async function removeTusLeftovers(dataDir: string, uploadId: string) {
  const dir = tusDirectory(dataDir);
  await rm(path.join(dir, uploadId), { force: true });
  await rm(path.join(dir, `${uploadId}.json`), { force: true });
}

async function removeReleased(deps: Pick<StorageDeps, 'db' | 'store' | 'config'>, upload: Upload) {
  const objectPath = objectPathFor(upload.id);
  // A record still pointing at these bytes wins over a release (never delete what is shown).
  const held = await deps.db.file.count({
    where: { OR: [{ objectPath }, { versions: { some: { objectPath } } }] },
  });
  if (held > 0) {
    await deps.db.upload.updateMany({ where: { id: upload.id, status: 'released' }, data: { status: 'claimed' } });
    return;
  }
  await deps.store.deletePrefix(upload.objectKey);
  await removeTusLeftovers(deps.config.dataDir, upload.id);
  await deps.db.upload.deleteMany({ where: { id: upload.id, status: 'released' } });
}
