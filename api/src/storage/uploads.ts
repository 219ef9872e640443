import type { Prisma } from '../generated/prisma/client.ts';
import type { Viewer } from '../context.ts';
import { isUuid } from '../shared/ids.ts';
import { ValidationError } from '../shared/errors.ts';

/** Uploads live at /objects/uploads/<id>: the same path takes the PUT and later serves the bytes. */
const UPLOAD_PATH = /^\/objects\/uploads\/([^/]+)$/;

export function objectPathFor(uploadId: string) {
  return `/objects/uploads/${uploadId}`;
}

/** The upload id behind an upload URL or object path, or null if it is not one of ours. */
export function uploadIdFrom(objectUrl: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(objectUrl, 'http://relative.invalid').pathname;
  } catch {
    return null;
  }
  const id = UPLOAD_PATH.exec(pathname)?.[1];
  return isUuid(id) ? id.toLowerCase() : null;
}

export interface ClaimedObject {
  uploadId: string;
  objectPath: string;
  size: bigint;
  checksum: string | null;
  mimeType: string | null;
  metadata: Prisma.JsonValue;
}

/**
 * Hands the bytes of a finished upload to exactly one file record (the spec's POST /api/files
 * sends the upload URL it used as objectUrl). Refuses URLs this user did not upload to, uploads
 * that have not finished, and uploads that another record already holds. Run it in the same
 * transaction that creates the record.
 */
export async function claimUpload(
  tx: Prisma.TransactionClient,
  viewer: Viewer,
  objectUrl: string,
): Promise<ClaimedObject> {
  const uploadId = uploadIdFrom(objectUrl);
  const refused = new ValidationError('objectUrl is not an upload URL of yours.', 'objectUrl');
  if (!uploadId) throw refused;
  const upload = await tx.upload.findFirst({ where: { id: uploadId, userId: viewer.id } });
  if (!upload) throw refused;
  if (upload.status === 'pending') throw new ValidationError('The upload has not finished yet.', 'objectUrl');
  // The status check in the update makes two concurrent claims of one upload impossible.
  const claimed = await tx.upload.updateMany({
    where: { id: uploadId, status: 'uploaded' },
    data: { status: 'claimed', claimedAt: new Date() },
  });
  if (claimed.count !== 1) throw new ValidationError('This upload already belongs to a file.', 'objectUrl');
  // Read again now that the row is ours: the processing job may have finished (and committed)
  // while the update above waited for its lock, and the record must copy what it wrote.
  const { metadata } = await tx.upload.findUniqueOrThrow({ where: { id: uploadId }, select: { metadata: true } });
  return {
    uploadId,
    objectPath: objectPathFor(uploadId),
    size: upload.size ?? 0n,
    checksum: upload.checksum,
    mimeType: upload.mimeType,
    metadata,
  };
}

/**
 * Hands the bytes behind deleted file records (and their versions) to the cleanup pass. Call it in
 * the transaction that deletes the records: the bytes go only once the records are surely gone,
 * and a crash in between leaves work the cleanup pass finishes, never orphaned bytes.
 */
export async function releaseObjects(tx: Prisma.TransactionClient, objectPaths: string[]) {
  const ids = objectPaths.map(uploadIdFrom).filter((id): id is string => id !== null);
  if (ids.length === 0) return 0;
  const released = await tx.upload.updateMany({ where: { id: { in: ids } }, data: { status: 'released' } });
  return released.count;
}
