import { z } from 'zod';
import type { File, FileVersion, Prisma } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { recordActivity } from '../activity/rules.ts';
import { noteUploadFinished, publishNotifications } from '../notifications/rules.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { type ClaimedObject, claimUpload, uploadIdFrom } from '../storage/uploads.ts';
import { withAnalysisOfBytes, withoutAnalysisTags } from '../assistant/bytes-analysis.ts';
import { enqueuePhotoTagging } from '../assistant/photo-tagging-job.ts';
import { type Tx, TX, lockFileName, requiredText, metadataInput, clientMetadata, asObject } from './shared.ts';
import { fileForViewer, ownFile } from './files.ts';

// A file's versions: new bytes for a file (an upload of a new version, or a replacing upload),
// the list of its versions, and restoring an earlier one.

export function versionJson(version: FileVersion, currentVersion: number) {
  return { ...version, size: Number(version.size), isCurrent: version.version === currentVersion };
}

export interface CreatedFile {
  file: File;
  /** 1 for a new file; higher when the upload became a new version of a file with the same name. */
  version: number;
}

/** Bytes in storage: a file's current content, or one of its versions. */
type StoredBytes = Pick<FileVersion, 'objectPath' | 'size' | 'mimeType' | 'checksum'>;

/** Only the storage columns of `bytes`: a claimed upload or a version row carries more, which Prisma refuses. */
function storedBytes({ objectPath, size, mimeType, checksum }: StoredBytes): StoredBytes {
  return { objectPath, size, mimeType, checksum };
}

/** The file's columns that make `bytes` its current content. */
export function currentContent(bytes: StoredBytes) {
  return { ...storedBytes(bytes), objectUrl: bytes.objectPath };
}

/** The row that keeps `bytes` as version `version` of a file, added by the viewer. */
function versionRow(ctx: ViewerContext, fileId: string, version: number, bytes: StoredBytes) {
  return { fileId, version, ...storedBytes(bytes), createdById: ctx.viewer.id };
}

/** Writes the version row and the upload's activity for bytes that just became a file's current ones. */
export async function recordVersion(
  tx: Tx,
  ctx: ViewerContext,
  file: File,
  claim: ClaimedObject,
  mimeType: string,
  version: number,
) {
  await tx.fileVersion.create({ data: versionRow(ctx, file.id, version, { ...claim, mimeType }) });
  await recordActivity(tx, {
    userId: ctx.viewer.id,
    action: 'file_uploaded',
    resourceType: 'file',
    resourceId: file.id,
    resourceName: file.name,
    metadata: { size: Number(claim.size), ...(version > 1 && { version }) },
  });
}

/**
 * Makes claimed bytes the newest version of an existing file. The file keeps its name, place and
 * id (galleries and shares keep pointing at it); the earlier versions stay listed and restorable.
 * Call it under the file's name lock.
 */
export async function addVersionToFile(
  tx: Tx,
  ctx: ViewerContext,
  existing: File,
  claim: ClaimedObject,
  change: {
    originalName: string;
    mimeType: string;
    metadata: Prisma.InputJsonObject;
    tags?: string[];
    isPublic?: boolean;
  },
): Promise<{ file: File; version: number }> {
  const latest = await tx.fileVersion.aggregate({ where: { fileId: existing.id }, _max: { version: true } });
  const version = (latest._max.version ?? 0) + 1;
  const file = await tx.file.update({
    where: { id: existing.id },
    data: {
      originalName: change.originalName,
      ...currentContent({ ...claim, mimeType: change.mimeType }),
      metadata: change.metadata,
      // The earlier bytes' analysis does not describe these: its tags go, the typed ones stay.
      tags: withoutAnalysisTags(change.tags ?? existing.tags, existing.metadata),
      ...(change.isPublic !== undefined && { isPublic: change.isPublic }),
    },
  });
  await recordVersion(tx, ctx, file, claim, change.mimeType, version);
  return { file, version };
}

export const createFileVersionInput = z.strictObject({
  objectUrl: requiredText(z.string({ error: 'objectUrl must be text.' }).min(1, 'objectUrl is required.')),
  originalName: z.string({ error: 'originalName must be text.' }).trim().max(255).optional(),
  mimeType: z.string({ error: 'mimeType must be text.' }).trim().max(255).optional(),
  // The client's report of the size is ignored, as for a new file.
  size: z.number({ error: 'size must be a number of bytes.' }).nonnegative().optional(),
  metadata: metadataInput.optional(),
});

/**
 * 'Upload new version' on a file: the finished upload at objectUrl becomes the file's newest
 * version, whatever the uploaded file was called. Only someone who may change the file may add a
 * version; to anyone else the file does not exist. Size, checksum, type and the size and quota
 * limits are those of the upload, exactly as for a new file.
 */
export async function createFileVersion(ctx: ViewerContext, fileId: string, input: unknown): Promise<CreatedFile> {
  const data = parse(createFileVersionInput, input);
  const result = await ctx.db.$transaction(async (tx) => {
    const found = await ownFile(ctx, fileId, tx);
    await lockFileName(tx, ctx.viewer.id, found.folderId, found.name);
    // Read again under the lock: a rename or delete may have won the race.
    const existing = await ownFile(ctx, fileId, tx);
    const claim = await claimUpload(tx, ctx.viewer, data.objectUrl);
    const mimeType = claim.mimeType || data.mimeType || 'application/octet-stream';
    const metadata = { ...clientMetadata(data.metadata), ...asObject(claim.metadata) } as Prisma.InputJsonObject;
    const { file, version } = await addVersionToFile(tx, ctx, existing, claim, {
      originalName: data.originalName || existing.name,
      mimeType,
      metadata,
    });
    const notification = await noteUploadFinished(tx, ctx.viewer.id, file.name);
    return { file, version, notification };
  }, TX);
  publishNotifications(ctx, [result.notification]);
  if (result.file.mimeType.startsWith('image/')) await enqueuePhotoTagging(ctx, result.file.id);
  return { file: result.file, version: result.version };
}

/** A readable file's versions, newest first, and which one is current. */
export async function listVersions(ctx: ViewerContext, fileId: string) {
  const file = await fileForViewer(ctx, fileId);
  const versions = await ctx.db.fileVersion.findMany({ where: { fileId: file.id }, orderBy: { version: 'desc' } });
  return { file, versions, currentVersion: versions[0]?.version ?? 1 };
}

/**
 * Makes an earlier version current again. History is kept: the restored bytes become a new,
 * newest version, so every earlier state stays reachable.
 */
export async function restoreVersion(ctx: ViewerContext, fileId: string, versionInput: unknown) {
  const version = parse(
    z.coerce
      .number({ error: 'version must be a version number.' })
      .int('version must be a whole number.')
      .positive('version must be a version number.'),
    versionInput,
  );
  const result = await ctx.db.$transaction(async (tx) => {
    const found = await ownFile(ctx, fileId, tx);
    await lockFileName(tx, ctx.viewer.id, found.folderId, found.name);
    const file = await ownFile(ctx, fileId, tx);
    const chosen = await tx.fileVersion.findUnique({ where: { fileId_version: { fileId: file.id, version } } });
    if (!chosen) throw new NotFoundError('Version');
    const latest = await tx.fileVersion.aggregate({ where: { fileId: file.id }, _max: { version: true } });
    const current = latest._max.version ?? 1;
    if (chosen.version === current) {
      throw new ValidationError(`Version ${version} is already the current version.`, 'version');
    }
    // What storage learned about those bytes (dimensions, EXIF) stays with their upload.
    const uploadId = uploadIdFrom(chosen.objectPath);
    // Locked, so a processing job finishing right now either is seen here or sees this record.
    const upload = uploadId
      ? (
          await tx.$queryRaw<{ metadata: Prisma.JsonValue }[]>`
            SELECT metadata FROM "Upload" WHERE id = ${uploadId}::uuid FOR UPDATE`
        )[0]
      : null;
    // So does their analysis (assistant/bytes-analysis.ts): the newer bytes' tags and description go.
    const next = withAnalysisOfBytes(
      { tags: file.tags, metadata: clientMetadata(asObject(file.metadata)) },
      asObject(upload?.metadata),
    );
    const restored = await tx.fileVersion.create({ data: versionRow(ctx, file.id, current + 1, chosen) });
    const updated = await tx.file.update({
      where: { id: file.id },
      data: { ...currentContent(chosen), tags: next.tags, metadata: next.metadata as Prisma.InputJsonObject },
    });
    return { file: updated, version: restored, needsAnalysis: next.needsAnalysis };
  }, TX);
  // Bytes never analysed (uploaded before analyses were kept with them): the tagging job looks at them.
  if (result.needsAnalysis && result.file.mimeType.startsWith('image/')) await enqueuePhotoTagging(ctx, result.file.id);
  return { file: result.file, version: result.version };
}
