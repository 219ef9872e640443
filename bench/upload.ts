// pnpm bench:upload — upload throughput through the real server (HTTP on loopback, embedded
// database, local object store) against writing the same bytes straight to disk in the same run,
// and thumbnail time per photo; a photo's upload answer against the same bytes as a non-picture (its
// thumbnails and EXIF are jobs after the answer), and those jobs one by one against all at once.
// Prints the figures and saves them to bench/results/.
//
// Options (environment): BENCH_LARGE_MB (50), BENCH_SMALL_FILES (200), BENCH_SMALL_KB (64),
// BENCH_PHOTOS (8), BENCH_ROUNDS (3); DATABASE_URL to use PostgreSQL. Figures on a busy machine are
// noisy: compare ratios from the same run, not figures across runs.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { thumbnails } from '../api/src/storage/images.ts';
import { enqueueProcessing, processUpload } from '../api/src/storage/processing.ts';
import { machine, n, requireApi, round, saveResults, signUp, startServer, timed } from './lib.ts';

const sharp = requireApi('sharp') as typeof import('sharp');
const LARGE = n('BENCH_LARGE_MB', 50) * 1024 * 1024;
const SMALL_COUNT = n('BENCH_SMALL_FILES', 200);
const SMALL_SIZE = n('BENCH_SMALL_KB', 64) * 1024;
const PHOTOS = n('BENCH_PHOTOS', 8);
const ROUNDS = n('BENCH_ROUNDS', 3);

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

// Set DATABASE_URL to measure on PostgreSQL instead of the embedded database. Upload URLs are rate
// limited in production, so that check stays in the measured path.
const server = await startServer({ databaseUrl: process.env.DATABASE_URL, rateLimits: true });
const { origin } = server;
const databaseKind = server.app.config.database.kind;
const { cookie, userId } = await signUp(origin, server.db);
// The plain disk writes the server is compared with go to the same temporary file system.
const rawDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-bench-raw-'));

async function upload(bytes: Uint8Array) {
  const answer = await fetch(`${origin}/api/objects/upload`, { method: 'POST', headers: { cookie } });
  if (!answer.ok) throw new Error(`upload URL refused: ${answer.status} ${await answer.text()}`);
  const { uploadURL } = (await answer.json()) as { uploadURL: string };
  const put = await fetch(uploadURL, { method: 'PUT', headers: { cookie }, body: bytes });
  if (!put.ok) throw new Error(`upload refused: ${put.status} ${await put.text()}`);
  return (await put.json()) as { checksum: string; uploadId: string };
}

const { cpus, load } = machine();
console.log(
  `Upload benchmark on ${cpus} CPU(s), load ${load.toFixed(1)}, node ${process.version}, ${databaseKind} database\n`,
);

// Warm up (first-request imports, JIT) so the first measured round is not the slowest.
for (let i = 0; i < 3; i++) await upload(pdfBytes(64 * 1024));

// ── one large file ──
const large = pdfBytes(LARGE);
const largeServer: number[] = [];
const largeDisk: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  largeDisk.push((await timed(() => writeFile(path.join(rawDir, `large-${i}`), large))).ms);
  largeServer.push((await timed(() => upload(large))).ms);
}

// ── many small files ──
const smalls = Array.from({ length: SMALL_COUNT }, () => pdfBytes(SMALL_SIZE));
const smallDisk = await timed(async () => {
  for (const [i, bytes] of smalls.entries()) await writeFile(path.join(rawDir, `small-${i}`), bytes);
});
const smallServer = await timed(async () => {
  // Four at a time, as the upload panel sends them.
  const queue = [...smalls];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await upload(next);
    }),
  );
});

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
const thumbs = await timed(async () => {
  for (const file of photoFiles) await thumbnails(file);
});
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
  for (const id of uploadIds) await enqueueProcessing(deps, id);
  await allProcessed();
});

const largeServerMs = median(largeServer);
const largeDiskMs = median(largeDisk);
const results = {
  date: new Date().toISOString(),
  machine: machine(databaseKind),
  largeFile: {
    bytes: LARGE,
    rounds: ROUNDS,
    serverMs: round(largeServerMs),
    diskMs: round(largeDiskMs),
    serverMBps: round(mbps(LARGE, largeServerMs)),
    diskMBps: round(mbps(LARGE, largeDiskMs)),
    ratioServerToDisk: round(mbps(LARGE, largeServerMs) / mbps(LARGE, largeDiskMs), 3),
  },
  smallFiles: {
    count: SMALL_COUNT,
    bytesEach: SMALL_SIZE,
    serverMs: round(smallServer.ms),
    diskMs: round(smallDisk.ms),
    serverFilesPerSecond: round(SMALL_COUNT / (smallServer.ms / 1000)),
    diskFilesPerSecond: round(SMALL_COUNT / (smallDisk.ms / 1000)),
    serverMBps: round(mbps(SMALL_COUNT * SMALL_SIZE, smallServer.ms)),
    diskMBps: round(mbps(SMALL_COUNT * SMALL_SIZE, smallDisk.ms)),
    ratioServerToDisk: round(smallDisk.ms / smallServer.ms, 3),
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
  `  server ${l.serverMBps} MB/s (${l.serverMs} ms)   disk ${l.diskMBps} MB/s (${l.diskMs} ms)   ratio ${l.ratioServerToDisk}`,
);
console.log(`${SMALL_COUNT} files of ${SMALL_SIZE / 1024} KB:`);
console.log(
  `  server ${s.serverFilesPerSecond} files/s, ${s.serverMBps} MB/s (${s.serverMs} ms)   disk ${s.diskFilesPerSecond} files/s (${s.diskMs} ms)   ratio ${s.ratioServerToDisk}`,
);
console.log(`${PHOTOS} photos, ${p.size}, ${round(p.averageBytes / 1024 / 1024)} MB each:`);
console.log(
  `  thumbnails (grid + preview) ${p.thumbnailMsPerPhoto} ms/photo = ${p.thumbnailPhotosPerSecond} photos/s; whole upload ${p.uploadMsPerPhoto} ms/photo`,
);
console.log(
  `  upload answer ${p.uploadMsPerPhoto} ms/photo vs the same bytes as a non-picture ${p.bytesOnlyMsPerPhoto} ms: ratio ${p.ratioToBytes}`,
);
console.log(
  `  processing (jobs): all ${PHOTOS} done ${p.processedAllMs} ms after the first upload, ${p.processingTailMs} ms after the last answer`,
);
const t = results.thumbnails;
console.log(
  `  processing jobs one after another ${t.sequentialMsPerPhoto} ms/photo, all queued at once ${t.parallelMsPerPhoto} ms/photo: speedup ${t.parallelSpeedup}`,
);
console.log(`  load average now ${machine().load}`);

await saveResults('upload', results);

await server.close();
await rm(rawDir, { recursive: true, force: true });
