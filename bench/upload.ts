// pnpm bench:upload — upload throughput through the real server (HTTP on loopback, embedded
// database, local object store) against a bare node:http server doing the least an upload must do
// in the same run (upload-baseline.ts: stream to a file of the same storage folder hashing with
// sha256, fsync, answer; for the small files also one INSERT each in the same database), the
// thumbnails against vipsthumbnail making the same variants, a photo's upload answer against the
// same bytes as a non-picture (its thumbnails and EXIF are jobs after the answer), and those jobs
// one by one against all at once; and the large file through the S3 path (browser → presigned
// URLs → bucket, then the server's checks reading it back) against one presigned PUT of the same
// bytes to the same bucket (s3rver on loopback). Prints the figures and records them in bench/history/upload.jsonl.
//
// Options (environment): BENCH_LARGE_MB (50), BENCH_SMALL_FILES (200), BENCH_SMALL_KB (64),
// BENCH_PHOTOS (40, the burst the jobs' speedup on all cores is defined for; 8 until 2026-12-02),
// BENCH_ROUNDS (3), BENCH_LIBRARY_FILES (10,000); DATABASE_URL to use PostgreSQL; BENCH_PROFILE=<dir>:
// a CPU profile of this thread (the app) while it takes the small files. Figures on a busy machine
// are noisy: compare ratios from the same run, not figures across runs.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { thumbnails, VARIANTS } from '../api/src/storage/images.ts';
import { enqueueProcessing, processUpload } from '../api/src/storage/processing.ts';
import { startBucket } from '../api/test/s3.ts';
import { machine, n, requireApi, round, saveResults, signUp, startProfile, startServer, timed } from './lib.ts';
import { recordInDatabase, startBaselineServer, vipsThumbnails, vipsthumbnail } from './upload-baseline.ts';

const sharp = requireApi('sharp') as typeof import('sharp');
const LARGE = n('BENCH_LARGE_MB', 50) * 1024 * 1024;
const SMALL_COUNT = n('BENCH_SMALL_FILES', 200);
const SMALL_SIZE = n('BENCH_SMALL_KB', 64) * 1024;
const PHOTOS = n('BENCH_PHOTOS', 40);
const ROUNDS = n('BENCH_ROUNDS', 3);
const LIBRARY = n('BENCH_LIBRARY_FILES', 10_000);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const mbps = (bytes: number, ms: number) => bytes / 1024 / 1024 / (ms / 1000);

/** Bytes the type check accepts (a PDF signature), the rest random so nothing compresses. */
function pdfBytes(size: number) {
  const bytes = randomBytes(size);
  bytes.write('%PDF-1.7\n', 0);
  return bytes;
}

// Before any server starts: installing it (a fresh machine) holds this thread for a while, after which
// the first request went out on a kept-alive connection the server was closing (ECONNRESET).
const vipsVersion = vipsthumbnail();

// Set DATABASE_URL to measure on PostgreSQL instead of the embedded database. Upload URLs are rate
// limited in production, so that check stays in the measured path.
const server = await startServer({ databaseUrl: process.env.DATABASE_URL, rateLimits: true });
const { origin } = server;
const databaseKind = server.app.config.database.kind;
const { cookie, userId } = await signUp(origin, server.db);
// The photos the thumbnail figures are made from.
const rawDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-bench-raw-'));
// The baselines write into the app's own storage folder, and record into its own database.
const objectsDir = path.join(server.app.config.dataDir, 'bench-baseline');
const baseline = await startBaselineServer(objectsDir);
const records = await recordInDatabase(server.app.database, process.env.DATABASE_URL);
const baselineWithInsert = await startBaselineServer(objectsDir, records.record);

/** The baseline's upload: one PUT, answered with the checksum. */
async function put(url: string, bytes: Uint8Array) {
  const answer = await fetch(url, { method: 'PUT', body: bytes });
  if (answer.status !== 201) throw new Error(`baseline refused: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

async function upload(bytes: Uint8Array) {
  const answer = await fetch(`${origin}/api/objects/upload`, { method: 'POST', headers: { cookie } });
  if (!answer.ok) throw new Error(`upload URL refused: ${answer.status} ${await answer.text()}`);
  const { uploadURL } = (await answer.json()) as { uploadURL: string };
  return putTo(uploadURL, bytes);
}

/** A batch of files as the upload panel sends it: their URLs in one request, then a PUT each. */
async function uploadBatch(count: number) {
  const answer = await fetch(`${origin}/api/objects/uploads?count=${count}`, { method: 'POST', headers: { cookie } });
  if (!answer.ok) throw new Error(`upload URLs refused: ${answer.status} ${await answer.text()}`);
  const { uploads } = (await answer.json()) as { uploads: { uploadURL: string }[] };
  return (bytes: Uint8Array) => putTo(uploads.shift()?.uploadURL ?? '', bytes);
}

async function putTo(uploadURL: string, bytes: Uint8Array) {
  const put = await fetch(uploadURL, { method: 'PUT', headers: { cookie }, body: bytes });
  if (!put.ok) throw new Error(`upload refused: ${put.status} ${await put.text()}`);
  return (await put.json()) as { checksum: string; uploadId: string };
}

const { cpus, load } = machine();
console.log(
  `Upload benchmark on ${cpus} CPU(s), load ${load.toFixed(1)}, node ${process.version}, ${databaseKind} database\n`,
);

// Warm up (first-request imports, JIT) so the first measured round is not the slowest.
for (let i = 0; i < 3; i++) {
  await upload(pdfBytes(64 * 1024));
  await put(baseline.url, pdfBytes(64 * 1024));
  await put(baselineWithInsert.url, pdfBytes(64 * 1024));
}

// ── one large file ──
const large = pdfBytes(LARGE);
const largeServer: number[] = [];
const largeBaseline: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  largeBaseline.push((await timed(() => put(baseline.url, large))).ms);
  largeServer.push((await timed(() => upload(large))).ms);
}

// ── the same large file through the S3 path ──
const { S3Client, PutObjectCommand } = requireApi('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
const { getSignedUrl } = requireApi('@aws-sdk/s3-request-presigner') as typeof import('@aws-sdk/s3-request-presigner');
const bucket = await startBucket();
const s3Server = await startServer({ databaseUrl: process.env.DATABASE_URL, env: bucket.env });
const s3Viewer = await signUp(s3Server.origin, s3Server.db);
const s3Client = new S3Client({
  endpoint: bucket.endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: {
    accessKeyId: bucket.env.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: bucket.env.S3_SECRET_ACCESS_KEY ?? '',
  },
});

async function putOk(url: string, body: Uint8Array, contentType?: string) {
  const answer = await fetch(url, { method: 'PUT', body, headers: contentType ? { 'content-type': contentType } : {} });
  if (!answer.ok) throw new Error(`bucket refused a PUT: ${answer.status} ${await answer.text()}`);
}

/** As the web app's uploader does (web/src/uploads/s3.ts): plan, parts three at a time, complete. */
async function uploadThroughS3(bytes: Uint8Array) {
  const post = (url: string, body?: unknown) =>
    fetch(`${s3Server.origin}${url}`, {
      method: 'POST',
      headers: { cookie: s3Viewer.cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const planned = await post('/api/uploads/s3', { size: bytes.length, contentType: 'application/pdf' });
  if (!planned.ok) throw new Error(`S3 upload refused: ${planned.status} ${await planned.text()}`);
  const plan = (await planned.json()) as import('../api/src/storage/contract.ts').S3UploadPlan;
  if (plan.put) await putOk(plan.put.url, bytes, plan.put.contentType);
  if (plan.multipart) {
    const { partSize, parts } = plan.multipart;
    const queue = [...parts];
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let part = queue.shift(); part; part = queue.shift()) {
          const start = (part.partNumber - 1) * partSize;
          await putOk(part.url, bytes.subarray(start, start + part.size));
        }
      }),
    );
  }
  const completed = await post(`/api/uploads/s3/${plan.uploadId}/complete`);
  if (!completed.ok) throw new Error(`S3 upload not completed: ${completed.status} ${await completed.text()}`);
}

/** The least an upload to a bucket does: one presigned PUT of the bytes, nothing checked. */
async function putStraightToBucket(bytes: Uint8Array) {
  const url = await getSignedUrl(
    s3Client,
    new PutObjectCommand({ Bucket: bucket.env.S3_BUCKET, Key: `bench/${randomBytes(8).toString('hex')}` }),
    { expiresIn: 300 },
  );
  await putOk(url, bytes);
}

await uploadThroughS3(pdfBytes(64 * 1024));
await putStraightToBucket(pdfBytes(64 * 1024));
const s3Times: number[] = [];
const s3Baseline: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  s3Baseline.push((await timed(() => putStraightToBucket(large))).ms);
  s3Times.push((await timed(() => uploadThroughS3(large))).ms);
}
await s3Server.close();
await bucket.close();

// ── many small files ──
const smalls = Array.from({ length: SMALL_COUNT }, () => pdfBytes(SMALL_SIZE));
const PANEL_BATCH = 10;
/**
 * As the upload panel sends them: batches of ten files (its limit at a time, web/src/uploads/
 * limits.ts), four of a batch travelling at once. `batch` gets ready for the next one.
 */
const asThePanelSends = (batch: (count: number) => Promise<(bytes: Uint8Array) => Promise<unknown>>) =>
  timed(async () => {
    for (let start = 0; start < smalls.length; start += PANEL_BATCH) {
      const queue = smalls.slice(start, start + PANEL_BATCH);
      const send = await batch(queue.length);
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) await send(next);
        }),
      );
    }
  });
const smallBaseline = await asThePanelSends(async () => (bytes) => put(baselineWithInsert.url, bytes));
const profiler = await startProfile(undefined, 200);
const smallServer = await asThePanelSends(uploadBatch);
await profiler?.save('small files (app)');

// ── photos: thumbnails alone, and the whole upload of a photo ──
const photos = await Promise.all(
  Array.from({ length: PHOTOS }, (_, i) =>
    sharp({
      create: { width: 4000, height: 3000, channels: 3, noise: { type: 'gaussian', mean: 120 + i, sigma: 40 } },
    })
      .jpeg({ quality: 85 })
      .toBuffer(),
  ),
);
const photoFiles: string[] = [];
for (const [i, photo] of photos.entries()) {
  const file = path.join(rawDir, `photo-${i}.jpg`);
  await writeFile(file, photo);
  photoFiles.push(file);
}
// The app's thumbnails against vipsthumbnail making the same sizes, one thread each.
const threads = sharp.concurrency();
sharp.concurrency(1);
const thumbs = await timed(async () => {
  for (const file of photoFiles) await thumbnails(file);
});
sharp.concurrency(threads);
const vipsVariants = {
  grid: { size: VARIANTS.grid, quality: 72 },
  grid2x: { size: VARIANTS.grid2x, quality: 72 },
  preview: { size: VARIANTS.preview, quality: 80 },
};
vipsThumbnails(photoFiles.slice(0, 1), vipsVariants, 1); // its code and libraries loaded once before
const vips = await timed(async () => vipsThumbnails(photoFiles, vipsVariants, 1));
const vipsMade = (await readdir(rawDir)).filter((name) => name.includes('.vips-')).length;
const variantCount = Object.keys(vipsVariants).length;
if (vipsMade !== variantCount * PHOTOS) {
  throw new Error(`vipsthumbnail made ${vipsMade} thumbnails, not ${variantCount * PHOTOS}`);
}
const photoBytes = photos.reduce((sum, p) => sum + p.length, 0);

/** Polls until no upload of the bench's user still waits for its processing job. */
async function allProcessed() {
  for (;;) {
    const waiting = await server.db.upload.count({
      where: { userId, metadata: { path: ['processing'], equals: true } },
    });
    if (waiting === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Resolves once `count` uploads of the bench's user are processed, told as the uploader's browser
 * is told (the `upload:processed` event). Asking the database every few milliseconds instead would
 * take the thread and cores the jobs run on, a cost the one-after-another run does not pay.
 */
function heardProcessed(count: number) {
  const events = server.app.services.events.subscribe('upload:processed', userId);
  return new Promise<void>((resolve, reject) => {
    const timeout = setTimeout(
      () => reject(new Error(`only some of ${count} uploads processed in 5 minutes`)),
      300_000,
    );
    void (async () => {
      let heard = 0;
      for await (const _ of events) if (++heard === count) break;
      clearTimeout(timeout);
      resolve();
    })();
  });
}

// The same bytes as a file that is not a picture (nothing to process): the upload's own cost.
const asBytes = photos.map((photo) => {
  const copy = Buffer.from(photo);
  copy.write('%PDF-1.7\n', 0);
  return copy;
});
const bytesOnly = await timed(async () => {
  for (const bytes of asBytes) await upload(bytes);
});
// The pictures themselves: the answer comes once the bytes are safe; thumbnails and EXIF follow as jobs.
const uploadIds: string[] = [];
const processingStart = performance.now();
const photoUploads = await timed(async () => {
  for (const photo of photos) uploadIds.push((await upload(photo)).uploadId);
});
const answeredAt = performance.now();
await allProcessed();
const processingDone = performance.now();

// The processing jobs of all the photos at once (both cores: job concurrency 2) against the same
// work one photo after another, in this process.
const deps = server.app.storage.deps;
const markUnprocessed = () =>
  server.db.$executeRawUnsafe(
    `UPDATE "Upload" SET metadata = '{"processing": true}'::jsonb WHERE id = ANY($1::uuid[])`,
    uploadIds,
  );
await markUnprocessed();
const sequential = await timed(async () => {
  for (const id of uploadIds) await processUpload(deps, id);
});
await markUnprocessed();
const parallel = await timed(async () => {
  const processed = heardProcessed(uploadIds.length);
  for (const id of uploadIds) await enqueueProcessing(deps, id);
  await processed;
});

const largeServerMs = median(largeServer);
const largeBaselineMs = median(largeBaseline);
// ── the small files again, for a person who keeps a library already ──
// The same person is given LIBRARY files (rows only, as an import would leave them), then sends
// the small files again: the quota each upload checks must not grow with what they keep.
await server.db.$executeRawUnsafe(
  `INSERT INTO "File" (id, "ownerId", name, "originalName", "mimeType", size, "objectUrl", "objectPath", "updatedAt")
   SELECT gen_random_uuid(), $1::uuid, 'still_' || i || '.jpg', 'DSC_' || i || '.jpg', 'image/jpeg', 350000 + i,
     '/objects/uploads/library-' || i, '/objects/uploads/library-' || i, now()
   FROM generate_series(1, $2::int) i`,
  userId,
  LIBRARY,
);
await server.db.$executeRawUnsafe('ANALYZE');
const smallWithLibrary = await asThePanelSends(uploadBatch);

const results = {
  date: new Date().toISOString(),
  machine: machine(databaseKind),
  largeFile: {
    bytes: LARGE,
    rounds: ROUNDS,
    serverMs: round(largeServerMs),
    baselineMs: round(largeBaselineMs),
    serverMBps: round(mbps(LARGE, largeServerMs)),
    baselineMBps: round(mbps(LARGE, largeBaselineMs)),
    /** Server throughput / the baseline's (stream to a file hashing with sha256, fsync, answer). */
    ratio: round(largeBaselineMs / largeServerMs, 3),
  },
  s3LargeFile: {
    bytes: LARGE,
    rounds: ROUNDS,
    store: 's3rver 3.7 on loopback, an S3-protocol server written in JavaScript: its speed bounds both figures',
    serverMs: round(median(s3Times)),
    baselineMs: round(median(s3Baseline)),
    serverMBps: round(mbps(LARGE, median(s3Times))),
    baselineMBps: round(mbps(LARGE, median(s3Baseline))),
    /** Browser → presigned parts → bucket, then the server reads it back for its checks / one presigned PUT. */
    ratio: round(median(s3Baseline) / median(s3Times), 3),
  },
  smallFiles: {
    count: SMALL_COUNT,
    bytesEach: SMALL_SIZE,
    serverMs: round(smallServer.ms),
    baselineMs: round(smallBaseline.ms),
    serverFilesPerSecond: round(SMALL_COUNT / (smallServer.ms / 1000)),
    baselineFilesPerSecond: round(SMALL_COUNT / (smallBaseline.ms / 1000)),
    serverMBps: round(mbps(SMALL_COUNT * SMALL_SIZE, smallServer.ms)),
    /** Through the whole flow / the baseline with one INSERT per file, sent as the upload panel sends them. */
    ratio: round(smallBaseline.ms / smallServer.ms, 3),
    /** The same files once the person keeps `files` files already / the same baseline. */
    withLibrary: {
      files: LIBRARY,
      serverMs: round(smallWithLibrary.ms),
      serverFilesPerSecond: round(SMALL_COUNT / (smallWithLibrary.ms / 1000)),
      ratio: round(smallBaseline.ms / smallWithLibrary.ms, 3),
    },
  },
  photos: {
    count: PHOTOS,
    size: '4000x3000 JPEG',
    averageBytes: Math.round(photoBytes / PHOTOS),
    thumbnailMsPerPhoto: round(thumbs.ms / PHOTOS),
    thumbnailPhotosPerSecond: round(PHOTOS / (thumbs.ms / 1000)),
    uploadMsPerPhoto: round(photoUploads.ms / PHOTOS),
    /** The same bytes uploaded as a non-picture (no processing at all). */
    bytesOnlyMsPerPhoto: round(bytesOnly.ms / PHOTOS),
    /** Upload answer of a photo / its bytes-only time (issue 20: ≤ 1.2). */
    ratioToBytes: round(photoUploads.ms / bytesOnly.ms, 3),
    /** From the first photo's upload until every photo had its thumbnails and EXIF facts. */
    processedAllMs: round(processingDone - processingStart),
    /** How long after the last upload answer the last processing job finished. */
    processingTailMs: round(processingDone - answeredAt),
  },
  thumbnails: {
    vipsthumbnail: vipsVersion,
    /** Every thumbnail size of every photo, one thread each: the app (sharp) / vipsthumbnail. */
    appMsPerPhoto: round(thumbs.ms / PHOTOS),
    vipsMsPerPhoto: round(vips.ms / PHOTOS),
    ratioToVips: round(thumbs.ms / vips.ms, 3),
    /** The processing job (EXIF, both thumbnails, stored) of every photo, one after another. */
    sequentialMsPerPhoto: round(sequential.ms / PHOTOS),
    /** The same jobs queued at once, run by the job workers (concurrency 2), queue latency included. */
    parallelMsPerPhoto: round(parallel.ms / PHOTOS),
    parallelSpeedup: round(sequential.ms / parallel.ms, 2),
  },
};

const l = results.largeFile;
const s = results.smallFiles;
const p = results.photos;
console.log(`One ${LARGE / 1024 / 1024} MB file (median of ${ROUNDS}):`);
console.log(
  `  server ${l.serverMBps} MB/s (${l.serverMs} ms)   baseline ${l.baselineMBps} MB/s (${l.baselineMs} ms)   ratio ${l.ratio}`,
);
const s3 = results.s3LargeFile;
console.log(`The same file through the S3 path (${s3.store}):`);
console.log(
  `  app ${s3.serverMBps} MB/s (${s3.serverMs} ms)   one presigned PUT ${s3.baselineMBps} MB/s (${s3.baselineMs} ms)   ratio ${s3.ratio}`,
);
console.log(`${SMALL_COUNT} files of ${SMALL_SIZE / 1024} KB:`);
console.log(
  `  server ${s.serverFilesPerSecond} files/s, ${s.serverMBps} MB/s (${s.serverMs} ms)   baseline with INSERT ${s.baselineFilesPerSecond} files/s (${s.baselineMs} ms)   ratio ${s.ratio}`,
);
console.log(
  `  again with ${s.withLibrary.files} files kept: server ${s.withLibrary.serverFilesPerSecond} files/s (${s.withLibrary.serverMs} ms)   ratio ${s.withLibrary.ratio}`,
);
console.log(`${PHOTOS} photos, ${p.size}, ${round(p.averageBytes / 1024 / 1024)} MB each:`);
console.log(
  `  thumbnails (grid, grid2x, preview) ${p.thumbnailMsPerPhoto} ms/photo = ${p.thumbnailPhotosPerSecond} photos/s; whole upload ${p.uploadMsPerPhoto} ms/photo`,
);
console.log(
  `  upload answer ${p.uploadMsPerPhoto} ms/photo vs the same bytes as a non-picture ${p.bytesOnlyMsPerPhoto} ms: ratio ${p.ratioToBytes}`,
);
console.log(
  `  processing (jobs): all ${PHOTOS} done ${p.processedAllMs} ms after the first upload, ${p.processingTailMs} ms after the last answer`,
);
const t = results.thumbnails;
console.log(
  `  thumbnails, one thread: app ${t.appMsPerPhoto} ms/photo, vipsthumbnail ${t.vipsMsPerPhoto} ms/photo: ratio ${t.ratioToVips} (${t.vipsthumbnail})`,
);
console.log(
  `  processing jobs one after another ${t.sequentialMsPerPhoto} ms/photo, all queued at once ${t.parallelMsPerPhoto} ms/photo: speedup ${t.parallelSpeedup}`,
);
console.log(`  load average now ${machine().load}`);

await saveResults('upload', results);

await Promise.all([baseline.close(), baselineWithInsert.close()]);
await records.close();
await server.close();
await rm(rawDir, { recursive: true, force: true });
