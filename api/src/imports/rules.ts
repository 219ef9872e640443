import { mkdir } from 'node:fs/promises';
import { z } from 'zod';
import type { ImportJob } from '../generated/prisma/client.ts';
import type { Services, Viewer, ViewerContext } from '../context.ts';
import { type ConflictChoice, createFileRecord, onConflictInput } from '../files/uploads.ts';
import { folderOfViewer } from '../files/folders.ts';
import { addFilesToGallery, isGalleryMedia } from '../galleries/items.ts';
import { galleryFor } from '../galleries/viewer-access.ts';
import type { ImportProgress } from '../infra/events/pubsub.ts';
import { DomainError, NotFoundError, TooManyRequestsError, ValidationError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { ingestStream, type StorageDeps } from '../storage/rules.ts';
import { dropboxAccount, dropboxProvider, dropboxSource } from '../infra/import-sources/dropbox.ts';
import { googleDriveAccount, googleDriveProvider, googleDriveSource } from '../infra/import-sources/google-drive.ts';
import { localFolderSource } from './local.ts';
import { authorizedFetch, completeConnection, importKeys, signState, verifyState, type ImportKeys } from './oauth.ts';
import type { OAuthProvider, OAuthSourceId, SourceConnector } from '../infra/import-sources/connector.ts';
import { authorizeUrl } from '../infra/import-sources/oauth.ts';
import type { ImportJobJson, SourceInfo } from './contract.ts';
import { SOURCE_IDS, SOURCE_NAMES, type SourceId, thumbnailUrl } from './sources.ts';
import { isUuid } from '../shared/ids.ts';

/** What the import rules need: the services, the storage layer (bytes go in as uploads do) and keys. */
export interface ImportDeps extends Services {
  storage: StorageDeps;
  keys: ImportKeys;
  /** Imports running in this process (the app waits for them on close). */
  running: Set<Promise<void>>;
  /** Set when the app closes: imports stop after the file they are on, and resume on a restart. */
  stopping: { value: boolean };
}

/**
 * Each import is a durable job (IMPORT_JOB): a restart, even a crash, resumes it at the first
 * file it had not finished, and a file it had filed is never filed twice.
 */
export const IMPORT_JOB = 'imports.run';
// Downloads are slow and run one at a time within an import; a few imports may run side by side.
const IMPORT_CONCURRENCY = 3;
// A live import writes its progress after every file; pg-boss fails (and so retries) a job that
// runs past this, so it must outlast the slowest single file.
const IMPORT_TIMEOUT_SECONDS = 2 * 60 * 60;

/** Lets running imports finish the file they are on and waits; their jobs resume after a restart. */
export async function stopImports(deps: ImportDeps) {
  deps.stopping.value = true;
  await Promise.allSettled([...deps.running]);
}

/** Starts this process's import workers on the job queue. */
export async function startImportWorkers(deps: ImportDeps) {
  await deps.jobs.work<{ importId: string }>(
    IMPORT_JOB,
    async ({ importId }) => {
      const run = runImport(deps, importId);
      deps.running.add(run);
      try {
        await run;
      } finally {
        deps.running.delete(run);
      }
    },
    { concurrency: IMPORT_CONCURRENCY },
  );
}

/** How many imports one person may have running at once. */
export const MAX_RUNNING_JOBS = 3;

export function importDeps(services: Services, storage: StorageDeps, secret: string): ImportDeps {
  return { ...services, storage, keys: importKeys(secret), running: new Set(), stopping: { value: false } };
}

/** Makes the default import folder so people see where to put files; a configured one must exist. */
export async function prepareImportFolder(services: Services) {
  const dir = services.config.imports.dir;
  if (dir?.startsWith(services.config.dataDir)) await mkdir(dir, { recursive: true }).catch(() => {});
}

function providerFor(deps: Services, source: OAuthSourceId): OAuthProvider | null {
  const { googleDrive, dropbox } = deps.config.imports;
  if (source === 'google-drive') return googleDrive ? googleDriveProvider(googleDrive) : null;
  return dropbox ? dropboxProvider(dropbox) : null;
}

/** A source id from a URL: one the server offers, or a 404. */
export function sourceId(deps: Services, value: string): SourceId {
  const id = SOURCE_IDS.find((s) => s === value);
  const offered = id === 'local' ? Boolean(deps.config.imports.dir) : id ? providerFor(deps, id) !== null : false;
  if (!id || !offered) throw new NotFoundError('Import source');
  return id;
}

function oauthSourceId(deps: Services, value: string): OAuthSourceId {
  const id = sourceId(deps, value);
  if (id === 'local') throw new ValidationError('The server folder needs no connection; it is always connected.');
  return id;
}

// ───────────────────────────── sources and connections ─────────────────────────────

export async function listSources(ctx: ViewerContext): Promise<SourceInfo[]> {
  const connections = await ctx.db.importConnection.findMany({
    where: { userId: ctx.viewer.id },
    select: { provider: true, accountName: true },
  });
  const byProvider = new Map(connections.map((c) => [c.provider, c.accountName]));
  return SOURCE_IDS.map((id) => {
    const available = id === 'local' ? Boolean(ctx.config.imports.dir) : providerFor(ctx, id) !== null;
    const connected = available && (id === 'local' || byProvider.has(id));
    return { id, name: SOURCE_NAMES[id], available, connected, account: byProvider.get(id) ?? null };
  });
}

/** The viewer's connector for a source: the folder, or the provider with their tokens. */
export async function connectorFor(deps: ImportDeps, viewer: Viewer, source: string): Promise<SourceConnector> {
  const id = sourceId(deps, source);
  const { dir, googleDrive, dropbox } = deps.config.imports;
  if (id === 'local' && dir) return localFolderSource(dir);
  if (id === 'google-drive' && googleDrive) {
    return googleDriveSource(
      googleDrive,
      await authorizedFetch(deps, viewer, googleDriveProvider(googleDrive)),
      (item) => thumbnailUrl('google-drive', item),
    );
  }
  if (id === 'dropbox' && dropbox) {
    return dropboxSource(dropbox, await authorizedFetch(deps, viewer, dropboxProvider(dropbox)), (item) =>
      thumbnailUrl('dropbox', item),
    );
  }
  throw new NotFoundError('Import source');
}

/** Where the provider's consent screen sends the browser back to. */
export function callbackUrl(origin: string, source: OAuthSourceId) {
  return `${origin}/api/imports/${source}/callback`;
}

/** The provider's consent URL for this viewer (the browser goes there, then to the callback). */
export function connectUrl(deps: ImportDeps, viewer: Viewer, source: string, origin: string) {
  const id = oauthSourceId(deps, source);
  const provider = providerFor(deps, id) as OAuthProvider;
  const redirectUri = callbackUrl(origin, id);
  return authorizeUrl(provider, signState(deps.keys, { u: viewer.id, s: id, r: redirectUri }), redirectUri);
}

/** The provider sent the browser back: check the state, trade the code for tokens, keep them. */
export async function finishConnect(
  deps: ImportDeps,
  viewer: Viewer,
  source: string,
  query: { code?: string; state?: string; error?: string },
) {
  const id = oauthSourceId(deps, source);
  const redirectUri = verifyState(deps.keys, query.state, viewer, id);
  if (query.error || !query.code) throw new ValidationError('The connection was not allowed.');
  const provider = providerFor(deps, id) as OAuthProvider;
  const { googleDrive, dropbox } = deps.config.imports;
  const account = (token: string) =>
    id === 'google-drive' && googleDrive
      ? googleDriveAccount(googleDrive, token)
      : dropbox
        ? dropboxAccount(dropbox, token)
        : Promise.resolve(null);
  await completeConnection(deps, viewer, provider, query.code, redirectUri, account);
  return id;
}

export async function disconnect(ctx: ViewerContext, source: string) {
  const id = SOURCE_IDS.find((s) => s === source && s !== 'local');
  if (!id) throw new NotFoundError('Import source');
  const removed = await ctx.db.importConnection.deleteMany({ where: { userId: ctx.viewer.id, provider: id } });
  return { disconnected: removed.count > 0 };
}

const listInput = z.strictObject({
  folder: z.string().max(4096).optional(),
  search: z.string().max(200, 'Search is too long (200 characters at most).').optional(),
});

export async function listItems(deps: ImportDeps, viewer: Viewer, source: string, input: unknown) {
  const { folder, search } = parse(listInput, input);
  const connector = await connectorFor(deps, viewer, source);
  return connector.list({ folder: folder || undefined, search: search?.trim() || undefined });
}

// ───────────────────────────── import jobs ─────────────────────────────

const startInput = z.strictObject({
  source: z.string({ error: 'source is required.' }).min(1, 'source is required.'),
  itemIds: z
    .array(z.string().min(1).max(4096), { error: 'itemIds must be a list of item ids.' })
    .min(1, 'Choose at least one file to import.')
    .max(100, 'Import at most 100 files at a time.'),
  folderId: z.union([z.string(), z.null()], { error: 'folderId must be a folder id or null.' }).optional(),
  galleryId: z.union([z.string(), z.null()], { error: 'galleryId must be a gallery id or null.' }).optional(),
  // For items whose name is taken in the folder: onConflict for all (keepBoth when absent), and
  // onConflictByItem for the ones the person answered one by one.
  onConflict: onConflictInput.optional(),
  onConflictByItem: z
    .record(z.string(), onConflictInput, { error: 'onConflictByItem must map item ids to keepBoth, replace or skip.' })
    .optional(),
});

interface JobItem {
  id: string;
  name: string;
  size: number | null;
  onConflict: ConflictChoice;
  /** What became of it, once handled: filed under storedAs (a number added by keepBoth), a new version, skipped, or failed. */
  outcome?: 'imported' | 'replaced' | 'skipped' | 'failed';
  storedAs?: string;
  /** The file record it became (imported or replaced). */
  fileId?: string;
  /** It joins the job's gallery (a photo or video). */
  galleryMedia?: boolean;
}

export function jobJson(job: ImportJob): ImportJobJson {
  const items = (Array.isArray(job.items) ? job.items : []) as unknown as JobItem[];
  return {
    id: job.id,
    source: job.source,
    status: job.status,
    total: job.total,
    done: job.done,
    imported: job.fileIds.length,
    failed: job.failed as { name: string; message: string }[],
    fileIds: job.fileIds,
    skipped: items.filter((i) => i.outcome === 'skipped').map((i) => i.name),
    renamed: items.flatMap((i) =>
      i.storedAs && i.storedAs !== i.name ? [{ name: i.name, storedAs: i.storedAs }] : [],
    ),
    replaced: items.filter((i) => i.outcome === 'replaced').map((i) => i.name),
    folderId: job.folderId,
    galleryId: job.galleryId,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Starts copying the chosen files into the file manager (and the gallery, when one is given).
 * Everything that can be refused is refused here, before anything is copied: an unknown source,
 * a folder or gallery the viewer may not use, an item that does not exist, a folder among the items.
 */
export async function startImport(deps: ImportDeps, ctx: ViewerContext, input: unknown): Promise<ImportJobJson> {
  const data = parse(startInput, input);
  const folderRef = data.folderId === 'root' || data.folderId === '' ? null : (data.folderId ?? null);
  const folderId = folderRef ? (await folderOfViewer(ctx, folderRef)).id : null;
  const galleryId = data.galleryId
    ? (
        await galleryFor(
          ctx,
          data.galleryId,
          'write',
          ctx.db,
          'You can only view this gallery; ask its owner for edit access.',
        )
      ).id
    : null;
  const running = await ctx.db.importJob.count({
    where: { userId: ctx.viewer.id, status: 'running', updatedAt: { gte: new Date(Date.now() - STALE_JOB_MS) } },
  });
  if (running >= MAX_RUNNING_JOBS) {
    throw new TooManyRequestsError(
      `You already have ${running} imports running. Wait for one to finish, then try again.`,
      30,
    );
  }
  const connector = await connectorFor(deps, ctx.viewer, data.source);
  const ids = [...new Set(data.itemIds)];
  const items: JobItem[] = [];
  for (const id of ids) {
    const item = await connector.describe(id);
    if (item.type === 'folder') {
      throw new ValidationError(
        `"${item.name}" is a folder. Folders cannot be imported; choose the files in it.`,
        'itemIds',
      );
    }
    const onConflict = data.onConflictByItem?.[item.id] ?? data.onConflict ?? 'keepBoth';
    items.push({ id: item.id, name: item.name, size: item.size, onConflict });
  }
  const job = await ctx.db.importJob.create({
    data: {
      userId: ctx.viewer.id,
      source: data.source,
      folderId,
      galleryId,
      items: items as object[],
      total: items.length,
      fileIds: [],
    },
  });
  try {
    await deps.jobs.send(
      IMPORT_JOB,
      { importId: job.id },
      {
        singletonKey: job.id,
        retryLimit: 20,
        retryDelaySeconds: 2,
        retryBackoff: true,
        timeoutSeconds: IMPORT_TIMEOUT_SECONDS,
      },
    );
  } catch (error) {
    // Without its job the import would never run: it did not start.
    await ctx.db.importJob.delete({ where: { id: job.id } }).catch(() => {});
    throw error;
  }
  return jobJson(job);
}

function failureMessage(error: unknown) {
  if (error instanceof DomainError) return error.message;
  return 'Import failed';
}

/** Thrown when the app stops mid-import: the job is handed back and resumes after the restart. */
class ImportInterrupted extends Error {}

/** The file an earlier run of this import already filed for an item (it crashed before noting it). */
async function alreadyFiled(deps: Services, userId: string, importId: string, itemId: string) {
  return deps.db.file.findFirst({
    where: {
      ownerId: userId,
      AND: [
        { metadata: { path: ['importedFrom', 'importId'], equals: importId } },
        { metadata: { path: ['importedFrom', 'itemId'], equals: itemId } },
      ],
    },
    select: { id: true, name: true, mimeType: true, _count: { select: { versions: true } } },
  });
}

/**
 * Runs (or resumes) one import: every item not handled yet is copied in and noted on the import's
 * row at once, so a run cut short anywhere goes on from the first item not noted. An item filed
 * just before a crash is recognised by the import's id in the file's metadata and not filed again.
 */
export async function runImport(deps: ImportDeps, importId: string) {
  const job = await deps.db.importJob.findUnique({ where: { id: importId } });
  if (job?.status !== 'running') return;
  const user = await deps.db.user.findUnique({ where: { id: job.userId }, select: { id: true, email: true } });
  if (!user) return;
  const ctx: ViewerContext = { ...deps, viewer: { id: user.id, email: user.email, sessionId: `import:${job.id}` } };
  const items = (Array.isArray(job.items) ? job.items : []) as unknown as JobItem[];
  const failed = [...(job.failed as { name: string; message: string }[])];
  const fileIds = [...job.fileIds];
  const handled = () => items.filter((i) => i.outcome !== undefined).length;
  const publish = (status: ImportProgress['status'], done: number) =>
    ctx.events.publish('import:progress', ctx.viewer.id, { jobId: job.id, status, total: items.length, done, failed });

  let connector: SourceConnector | null = null;
  try {
    connector = await connectorFor(deps, ctx.viewer, job.source);
  } catch (error) {
    // The source went away (disconnected, no longer offered): nothing more can come from it.
    if (!(error instanceof DomainError)) throw error;
    for (const item of items.filter((i) => i.outcome === undefined)) {
      item.outcome = 'failed';
      failed.push({ name: item.name, message: failureMessage(error) });
    }
  }

  for (const item of items) {
    if (item.outcome !== undefined || !connector) continue;
    if (deps.stopping.value) throw new ImportInterrupted('the server is stopping; the import resumes after restart');
    try {
      const earlier = await alreadyFiled(deps, user.id, job.id, item.id);
      if (earlier) {
        item.outcome = earlier._count.versions > 1 && item.onConflict === 'replace' ? 'replaced' : 'imported';
        item.storedAs = earlier.name;
        item.fileId = earlier.id;
        item.galleryMedia = isGalleryMedia(earlier.mimeType);
      } else {
        const download = await connector.download(item.id);
        const stored = await ingestStream(deps.storage, ctx.viewer, download.body, download.size);
        const filed = await createFileRecord(ctx, {
          name: item.name,
          originalName: item.name,
          objectUrl: stored.objectPath,
          folderId: job.folderId,
          onConflict: item.onConflict,
          metadata: {
            uploadedAt: new Date().toISOString(),
            importedFrom: { source: job.source, itemId: item.id, importId: job.id },
          },
        });
        if (filed.skipped) {
          item.outcome = 'skipped';
        } else {
          item.outcome = filed.version > 1 ? 'replaced' : 'imported';
          item.storedAs = filed.file.name;
          item.fileId = filed.file.id;
          item.galleryMedia = isGalleryMedia(filed.file.mimeType);
        }
      }
      if (item.fileId && !fileIds.includes(item.fileId)) fileIds.push(item.fileId);
    } catch (error) {
      // One bad file never stops the others.
      if (!(error instanceof DomainError))
        deps.logger?.warn({ err: error, jobId: job.id, item: item.id }, 'import of a file failed');
      item.outcome = 'failed';
      failed.push({ name: item.name, message: failureMessage(error) });
    }
    await ctx.db.importJob.update({
      where: { id: job.id },
      data: { done: handled(), failed, fileIds, items: items as object[] },
    });
    publish('running', handled());
  }
  // The imported photos and videos join the gallery (adding one twice is a no-op, so a resumed
  // run may do it again); other files stay in the file manager only.
  const galleryFileIds = items.flatMap((i) => (i.galleryMedia && i.fileId ? [i.fileId] : []));
  if (job.galleryId && galleryFileIds.length > 0) {
    try {
      await addFilesToGallery(ctx, job.galleryId, galleryFileIds);
    } catch (error) {
      failed.push({
        name: 'Gallery',
        message: `The files were imported but not added to the gallery: ${failureMessage(error)}`,
      });
    }
  }
  // A job whose every file was skipped did what was asked; only one that brought nothing in for a failure failed.
  const status = fileIds.length === 0 && failed.length > 0 ? 'failed' : 'completed';
  await ctx.db.importJob.updateMany({
    where: { id: job.id, status: 'running' },
    data: { status, done: items.length, failed, fileIds, items: items as object[], finishedAt: new Date() },
  });
  publish(status, items.length);
}

/** A running job that has not moved for this long lost its server (a restart): it is over. */
export const STALE_JOB_MS = 15 * 60 * 1000;
export const STOPPED_MESSAGE =
  'The import stopped before it finished (the server restarted). Import the remaining files again.';

export async function importJob(ctx: ViewerContext, id: string): Promise<ImportJobJson> {
  let job = isUuid(id) ? await ctx.db.importJob.findFirst({ where: { id, userId: ctx.viewer.id } }) : null;
  if (!job) throw new NotFoundError('Import');
  if (job.status === 'running' && job.updatedAt.getTime() < Date.now() - STALE_JOB_MS) {
    const failed = [
      ...(job.failed as { name: string; message: string }[]),
      { name: 'Import', message: STOPPED_MESSAGE },
    ];
    const status = job.fileIds.length > 0 ? 'completed' : 'failed';
    // Only if it is still the stale row we read: a job that moved on in the meantime wins.
    await ctx.db.importJob.updateMany({
      where: { id: job.id, status: 'running', updatedAt: job.updatedAt },
      data: { status, failed, finishedAt: new Date() },
    });
    job = await ctx.db.importJob.findFirstOrThrow({ where: { id: job.id } });
  }
  return jobJson(job);
}
