import { Hono } from 'hono';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { Arrivals } from './arrivals.ts';
import { storageRoutes } from './rest.ts';
import { removeOrphanedFiles, runCleanup, tusDirectory, type CleanupReport, type StorageDeps } from './rules.ts';
import { LocalObjectStore, type ObjectStore } from '../infra/objects/store.ts';
import { uploadSigningKey } from './tokens.ts';
import { uploadthingRoutes } from './uploadthing-routes.ts';
import { UploadThingObjectStore } from '../infra/objects/uploadthing.ts';
import { S3ObjectStore } from '../infra/objects/s3.ts';
import { removeOrphanedObjects, s3UploadRoutes } from './s3-uploads.ts';
import { VARIANTS, variantKey, type Variant } from './images.ts';
import { queueMissingGrid2x, requeueUnprocessed, startProcessing } from './processing.ts';

// An upload still unprocessed this long after its bytes arrived has probably lost its job.
const REQUEUE_AFTER_MS = 10 * 60 * 1000;

/** The storage layer of a running app: its store, its routes and the periodic cleanup pass. */
export interface Storage {
  deps: StorageDeps;
  store: ObjectStore;
  routes: Hono<AppEnv>;
  /** Starts this process's upload-processing workers (thumbnails, EXIF) on the job queue. */
  startWorkers(): Promise<void>;
  /** One cleanup pass now (the app runs one every STORAGE_CLEANUP_INTERVAL as a scheduled job). */
  cleanup(options?: { now?: Date }): Promise<CleanupReport>;
  close(): Promise<void>;
}

export function createStorage(
  services: Services,
  { secret, logger, store: givenStore }: { secret: string; logger: Logger; store?: ObjectStore },
): Storage {
  const { dataDir } = services.config;
  const local = new LocalObjectStore(path.join(dataDir, 'objects'));
  const { uploadthingToken, uploadthingEndpoints, s3 } = services.config.storage;
  const store =
    givenStore ??
    (uploadthingToken
      ? new UploadThingObjectStore({
          token: uploadthingToken,
          ...uploadthingEndpoints,
          scratchDir: path.join(dataDir, 'tmp', 'uploadthing'),
          companions: (Object.keys(VARIANTS) as Variant[]).map((v) => variantKey('', v)),
        })
      : s3
        ? new S3ObjectStore(s3)
        : local);
  const deps: StorageDeps = {
    ...services,
    store,
    signingKey: uploadSigningKey(secret),
    scratchDir: store === local ? local.tmpDir : path.join(dataDir, 'tmp', 'uploads'),
    logger,
    receiving: new Arrivals(),
  };

  let running: Promise<CleanupReport> | null = null;
  async function cleanup(options: { now?: Date } = {}) {
    // One pass at a time: the timer never stacks passes on a slow disk.
    while (running) await running.catch(() => {});
    running = (async () => {
      const report = await runCleanup(deps, options);
      // Pictures whose job was lost between storing the bytes and queueing it get one now.
      await requeueUnprocessed(deps, { olderThan: new Date(Date.now() - REQUEUE_AFTER_MS) });
      await queueMissingGrid2x(deps);
      const grace = new Date((options.now ?? new Date()).getTime() - services.config.storage.gracePeriodSeconds * 1000);
      await local.sweepTemp(grace);
      // Bytes whose upload row is gone (an account deleted with its uploads) go after the grace period.
      report.removed += await removeOrphanedFiles(services.db, tusDirectory(dataDir), grace);
      if (store === local)
        report.removed += await removeOrphanedFiles(services.db, path.join(local.root, 'uploads'), grace);
      if (store instanceof S3ObjectStore) report.removed += await removeOrphanedObjects(services.db, store, grace);
      return report;
    })();
    try {
      return await running;
    } finally {
      running = null;
    }
  }

  const routes = new Hono<AppEnv>();
  // With UploadThing the browser sends the bytes there directly (an UploadThing file route).
  if (store instanceof UploadThingObjectStore && uploadthingToken) {
    routes.route(
      '/',
      uploadthingRoutes(deps, store, {
        token: uploadthingToken,
        endpoints: uploadthingEndpoints,
        publicUrl: services.config.publicUrl,
        development: services.config.env === 'development',
      }),
    );
  }
  // With S3 the browser sends the bytes to the bucket through presigned URLs.
  if (store instanceof S3ObjectStore) routes.route('/', s3UploadRoutes(deps, store));
  routes.route('/', storageRoutes(deps));

  return {
    deps,
    store,
    routes,
    cleanup,
    startWorkers: () => startProcessing(deps),
    async close() {
      await running?.catch(() => {});
    },
  };
}
