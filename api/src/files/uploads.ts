import { z } from 'zod';
import type { File, Prisma } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { noteUploadFinished, publishNotifications } from '../notifications/rules.ts';
import { parse } from '../shared/validation.ts';
import { claimUpload, releaseObjects } from '../storage/uploads.ts';
import { enqueuePhotoTagging } from '../assistant/photo-tagging-job.ts';
import {
  type Tx,
  TX,
  lockFileName,
  folderRef,
  requiredText,
  fileName,
  tagsInput,
  metadataInput,
  clientMetadata,
  asObject,
} from './shared.ts';
import { targetFolderId } from './folders.ts';
import { addVersionToFile, type CreatedFile, currentContent, recordVersion } from './versions.ts';

// Filing an upload as a file: what happens when its name is taken in the folder (keep both,
// replace, skip), and asking beforehand which names are taken.

/**
 * What an upload whose name is already taken in its folder does: keepBoth files it beside the
 * other under the first free "name (n).ext", replace makes it the newest version of the other
 * (galleries showing that file then show the new bytes), skip files nothing.
 */
export const CONFLICT_CHOICES = ['keepBoth', 'replace', 'skip'] as const;
export type ConflictChoice = (typeof CONFLICT_CHOICES)[number];

export const onConflictInput = z.enum(CONFLICT_CHOICES, {
  error: 'onConflict must be one of keepBoth, replace, skip.',
});

export const createFileInput = z.strictObject({
  name: fileName,
  originalName: z.string({ error: 'originalName must be text.' }).trim().max(255).optional(),
  mimeType: z.string({ error: 'mimeType must be text.' }).trim().max(255).optional(),
  // The size the client reports is ignored: the stored size is what actually arrived.
  size: z.number({ error: 'size must be a number of bytes.' }).nonnegative().optional(),
  objectUrl: requiredText(z.string({ error: 'objectUrl must be text.' }).min(1, 'objectUrl is required.')),
  folderId: folderRef.optional(),
  isPublic: z.boolean({ error: 'isPublic must be true or false.' }).optional(),
  tags: tagsInput.optional(),
  metadata: metadataInput.optional(),
  onConflict: onConflictInput.optional(),
});

export type CreateFileInput = z.input<typeof createFileInput>;

/** The outcome of filing an upload: a file (new, kept beside a namesake, or a new version), or skipped. */
export type FiledUpload =
  | (CreatedFile & {
      skipped: false;
      /** The name asked for, when keepBoth had to number it. */
      renamedFrom: string | null;
    })
  | { skipped: true; existing: File };

/** "barn.jpg" → "barn (2).jpg"; a name without an extension (or a dot file) gets the number at the end. */
export function numberedName(name: string, n: number) {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = ` (${n})${ext}`;
  // Names stop at 255 characters: a long stem gives up its end, not the number or the extension.
  return `${stem.slice(0, Math.max(1, 255 - suffix.length))}${suffix}`;
}

/** The same-name rule of a folder: names match exactly (as renames and moves check them). */
function sameNameWhere(ownerId: string, folderId: string | null, names: string[]) {
  return { ownerId, folderId, name: { in: names } } satisfies Prisma.FileWhereInput;
}

/**
 * The first "name (n).ext" not taken in the folder. Filing takes each candidate's name lock
 * (held until the transaction ends) before looking, so two uploads of one name at once cannot
 * both take "(1)", nor can a rename to it.
 */
async function firstFreeName(
  db: Tx | ViewerContext['db'],
  ownerId: string,
  folderId: string | null,
  name: string,
  lock?: (candidate: string) => Promise<void>,
) {
  for (let n = 1; ; n++) {
    const candidate = numberedName(name, n);
    await lock?.(candidate);
    const taken = await db.file.findFirst({
      where: sameNameWhere(ownerId, folderId, [candidate]),
      select: { id: true },
    });
    if (!taken) return candidate;
  }
}

/**
 * Records an uploaded file (the spec's POST /api/files). The upload is claimed in the same
 * transaction, so the size, checksum and detected type are the server's, not the client's. When
 * the name is taken in the folder, onConflict decides (keepBoth unless asked otherwise): a photo
 * in a gallery changes only when someone chose to replace it.
 */
export async function createFileRecord(ctx: ViewerContext, input: unknown): Promise<FiledUpload> {
  const data = parse(createFileInput, input);
  const onConflict = data.onConflict ?? 'keepBoth';
  const result = await ctx.db.$transaction(async (tx) => {
    const folderId = await targetFolderId(ctx, data.folderId ?? null, tx);
    await lockFileName(tx, ctx.viewer.id, folderId, data.name);
    const claim = await claimUpload(tx, ctx.viewer, data.objectUrl);
    const mimeType = claim.mimeType || data.mimeType || 'application/octet-stream';
    const metadata = { ...clientMetadata(data.metadata), ...asObject(claim.metadata) } as Prisma.InputJsonObject;
    const existing = await tx.file.findFirst({
      where: sameNameWhere(ctx.viewer.id, folderId, [data.name]),
      orderBy: { createdAt: 'asc' },
    });
    if (existing && onConflict === 'skip') {
      // Claimed only to check it is this person's finished upload; its bytes go to the cleanup pass.
      await releaseObjects(tx, [claim.objectPath]);
      return { skipped: true as const, existing };
    }
    let file: File;
    let version = 1;
    let renamedFrom: string | null = null;
    if (existing && onConflict === 'replace') {
      // Tags the person gave the earlier versions still describe the file.
      ({ file, version } = await addVersionToFile(tx, ctx, existing, claim, {
        originalName: data.originalName || data.name,
        mimeType,
        metadata,
        tags: [...new Set([...existing.tags, ...(data.tags ?? [])])],
        ...(data.isPublic !== undefined && { isPublic: data.isPublic }),
      }));
    } else {
      const name = existing
        ? await firstFreeName(tx, ctx.viewer.id, folderId, data.name, (candidate) =>
            lockFileName(tx, ctx.viewer.id, folderId, candidate),
          )
        : data.name;
      if (name !== data.name) renamedFrom = data.name;
      file = await tx.file.create({
        data: {
          ownerId: ctx.viewer.id,
          folderId,
          name,
          originalName: data.originalName || data.name,
          ...currentContent({ ...claim, mimeType }),
          isPublic: data.isPublic ?? false,
          tags: data.tags ?? [],
          metadata,
        },
      });
      await recordVersion(tx, ctx, file, claim, mimeType, 1);
    }
    const notification = await noteUploadFinished(tx, ctx.viewer.id, file.name);
    return { skipped: false as const, file, version, renamedFrom, notification };
  }, TX);
  if (result.skipped) return result;
  const { notification, ...filed } = result;
  publishNotifications(ctx, [notification]);
  if (filed.file.mimeType.startsWith('image/')) await enqueuePhotoTagging(ctx, filed.file.id);
  return filed;
}

export const nameConflictsInput = z.strictObject({
  folderId: folderRef.optional(),
  names: z
    .array(fileName, { error: 'names must be a list of file names.' })
    .min(1, 'Name at least one file.')
    .max(100, 'Ask about at most 100 names at a time.'),
});

export interface NameConflict {
  /** The name asked about. */
  name: string;
  /** The viewer's file of that name in the folder. */
  existing: File;
  /** What keepBoth would call the upload if it were filed now. */
  keepBothName: string;
}

/**
 * Which of these names are already taken in one of the viewer's folders (null: the top level),
 * so the client can ask before uploading. Only the viewer's own folders: another's is a 404.
 */
export async function nameConflicts(ctx: ViewerContext, input: unknown): Promise<NameConflict[]> {
  const data = parse(nameConflictsInput, input);
  const folderId = await targetFolderId(ctx, data.folderId ?? null);
  const names = [...new Set(data.names)];
  const existing = await ctx.db.file.findMany({
    where: sameNameWhere(ctx.viewer.id, folderId, names),
    orderBy: { createdAt: 'asc' },
  });
  const conflicts: NameConflict[] = [];
  for (const name of names) {
    const file = existing.find((f) => f.name === name);
    if (!file) continue;
    conflicts.push({
      name,
      existing: file,
      keepBothName: await firstFreeName(ctx.db, ctx.viewer.id, folderId, name),
    });
  }
  return conflicts;
}
