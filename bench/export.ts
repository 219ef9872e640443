// pnpm bench:export — a gallery of ~2 GB of originals downloaded as one ZIP over HTTP
// (GET /api/galleries/:id/export.zip through the real server on loopback), with the process's RSS
// sampled during the stream, against plain yazl zipping the same files from disk into a sink that
// drops the bytes, and the same plain yazl behind a bare node:http server read by the same client,
// in the same run. The memory figure is the point: the archive must stream, so
// RSS stays flat however large the gallery. Prints the figures and records them in bench/history/export.jsonl.
//
// Options (environment): BENCH_EXPORT_FILES (40), BENCH_EXPORT_MB (50) per file; DATABASE_URL to
// use PostgreSQL. The originals are random bytes written straight through the object store (no
// upload, no thumbnails) to keep the set-up fast.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createHash, type Hash, randomFillSync } from 'node:crypto';
import { LocalObjectStore } from '../api/src/infra/objects/store.ts';
import { objectPathFor } from '../api/src/storage/uploads.ts';
import { machine, n, requireApi, round, saveResults, signUp, startServer, timed } from './lib.ts';

const { ZipFile } = requireApi('yazl') as typeof import('yazl');
const yauzl = requireApi('yauzl') as typeof import('yauzl');
const FILES = n('BENCH_EXPORT_FILES', 40);
const FILE_SIZE = n('BENCH_EXPORT_MB', 50) * 1024 * 1024;
const MB = 1024 * 1024;

const server = await startServer({ databaseUrl: process.env.DATABASE_URL });
const { origin, db } = server;
const store = server.app.storage.store;
if (!(store instanceof LocalObjectStore)) throw new Error('bench:export reads the baseline from the local store');
const { cookie, userId } = await signUp(origin, db);

/** `size` random bytes, 1 MB at a time, so writing the set never holds a file in memory; `hash` sees them all. */
function randomStream(size: number, hash: Hash) {
  let left = size;
  return new Readable({
    read() {
      if (left === 0) {
        this.push(null);
        return;
      }
      const chunk = randomFillSync(Buffer.allocUnsafe(Math.min(MB, left)));
      left -= chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
}

const { cpus } = machine();
console.log(`Export benchmark on ${cpus} CPU(s), load ${loadavg()[0]?.toFixed(1)}, node ${process.version}\n`);
console.log(`Writing ${FILES} × ${FILE_SIZE / MB} MB of originals…`);

const created = await fetch(`${origin}/api/galleries`, {
  method: 'POST',
  headers: { cookie, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Export bench' }),
});
const gallery = (await created.json()) as { id: string };
const objectKeys: string[] = [];
const fileIds: string[] = [];
/** The sha256 of each original, in gallery order, to check the archive's entries against. */
const originals: string[] = [];
for (let i = 0; i < FILES; i++) {
  const upload = await db.upload.create({
    data: {
      userId,
      objectKey: `uploads/bench-${Date.now()}-${i}`,
      maxSize: BigInt(FILE_SIZE),
      status: 'claimed',
      size: BigInt(FILE_SIZE),
      mimeType: 'image/jpeg',
      expiresAt: new Date(Date.now() + 3600_000),
      completedAt: new Date(),
      claimedAt: new Date(),
    },
  });
  const objectKey = `uploads/${upload.id}`;
  await db.upload.update({ where: { id: upload.id }, data: { objectKey } });
  const hash = createHash('sha256');
  await store.put(objectKey, randomStream(FILE_SIZE, hash));
  originals.push(hash.digest('hex'));
  const objectPath = objectPathFor(upload.id);
  const file = await db.file.create({
    data: {
      ownerId: userId,
      // Every fifth name repeats, so the de-duplication of names is on the measured path.
      name: `location-${i % 5 === 4 ? i - 1 : i}.jpg`,
      originalName: `location-${i}.jpg`,
      mimeType: 'image/jpeg',
      size: BigInt(FILE_SIZE),
      objectUrl: `${origin}${objectPath}`,
      objectPath,
    },
  });
  objectKeys.push(objectKey);
  fileIds.push(file.id);
}
const added = await fetch(`${origin}/api/galleries/${gallery.id}/items`, {
  method: 'POST',
  headers: { cookie, 'content-type': 'application/json' },
  body: JSON.stringify({ fileIds }),
});
if (added.status !== 201) throw new Error(`items refused: ${added.status} ${await added.text()}`);
const totalBytes = FILES * FILE_SIZE;

/** Samples this process's RSS every 50 ms while `work` runs (the server runs in this process). */
async function withRss<T>(work: () => Promise<T>) {
  globalThis.gc?.();
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  try {
    const result = await timed(work);
    return {
      ...result,
      rssStartMb: round(start / MB, 1),
      rssPeakMb: round(Math.max(peak, process.memoryUsage.rss()) / MB, 1),
    };
  } finally {
    clearInterval(timer);
  }
}

/** Plain yazl over the same files, read from the store's folder. */
function plainZip() {
  const zip = new ZipFile();
  for (const [i, key] of objectKeys.entries()) {
    zip.addReadStreamLazy(`${i}.jpg`, { compress: false, size: FILE_SIZE }, (done) =>
      done(null, createReadStream(path.join(store.root, key))),
    );
  }
  zip.end();
  return zip.outputStream;
}

async function baselineZip() {
  let bytes = 0;
  // A sink that counts and drops what it is given, as fast as it comes.
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  await pipeline(plainZip(), sink);
  return bytes;
}

/** Reads a download to the end, dropping the bytes, as the browser's save would. */
async function download(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  if (!response.ok || !response.body) throw new Error(`download refused: ${response.status} ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  const length = response.headers.get('content-length');
  if (length !== null && Number(length) !== bytes) throw new Error(`download sent ${bytes} bytes of ${length}`);
  return bytes;
}

// The same plain yazl behind a bare node:http server, read by the same client: what HTTP on
// loopback and the client in this process cost, apart from the app.
const bare = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/zip' });
  pipeline(plainZip(), res).catch(() => res.destroy());
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

// The files were just written, so all read them from the page cache: the same footing.
const loadBefore = round(loadavg()[0] ?? 0);
console.log('Baseline: yazl from disk into a sink…');
const baseline = await withRss(baselineZip);
console.log('Baseline: yazl behind a bare node:http server…');
const baselineHttp = await withRss(() => download(bareUrl));
console.log('App: GET export.zip over HTTP…');
const app = await withRss(() => download(`${origin}/api/galleries/${gallery.id}/export.zip`, { cookie }));
const loadAfter = round(loadavg()[0] ?? 0);
bare.close();

// Outside the measured download: the archive once more, to disk, and every entry's bytes against
// its original's sha256.
console.log('Checking every entry of the archive against its original…');
const scratch = await mkdtemp(path.join(tmpdir(), 'scoutbase-export-check-'));
const zipFile = path.join(scratch, 'gallery.zip');
const again = await fetch(`${origin}/api/galleries/${gallery.id}/export.zip`, { headers: { cookie } });
if (!again.ok || !again.body) throw new Error(`download refused: ${again.status}`);
await pipeline(Readable.fromWeb(again.body as import('node:stream/web').ReadableStream), createWriteStream(zipFile));
const entries = await new Promise<{ name: string; sha256: string }[]>((resolve, reject) => {
  const found: { name: string; sha256: string }[] = [];
  yauzl.open(zipFile, { lazyEntries: true }, (error, zip) => {
    if (error) return reject(error);
    zip.on('entry', (entry: import('yauzl').Entry) =>
      zip.openReadStream(entry, (openError, stream) => {
        if (openError) return reject(openError);
        const hash = createHash('sha256');
        stream.on('data', (chunk: Buffer) => hash.update(chunk));
        stream.on('end', () => {
          found.push({ name: entry.fileName, sha256: hash.digest('hex') });
          zip.readEntry();
        });
        stream.on('error', reject);
      }),
    );
    zip.on('end', () => resolve(found));
    zip.on('error', reject);
    zip.readEntry();
  });
});
await rm(scratch, { recursive: true, force: true });
const mismatched = entries.filter((entry, i) => entry.sha256 !== originals[i]).map((e) => e.name);
const uniqueNames = new Set(entries.map((e) => e.name)).size;
if (entries.length !== FILES || mismatched.length > 0 || uniqueNames !== FILES) {
  throw new Error(
    `archive wrong: ${entries.length} entries, ${uniqueNames} names, mismatched ${mismatched.join(', ')}`,
  );
}

const mbps = (bytes: number, ms: number) => round(bytes / MB / (ms / 1000), 1);
/** A ZIP run's size, time, speed and memory, as the results name them. */
const zipFigures = (run: { result: number; ms: number; rssStartMb: number; rssPeakMb: number }) => ({
  zipMb: round(run.result / MB, 1),
  seconds: round(run.ms / 1000),
  mbPerSecond: mbps(run.result, run.ms),
  rssStartMb: run.rssStartMb,
  rssPeakMb: run.rssPeakMb,
});
const results = {
  date: new Date().toISOString(),
  machine: { ...machine(server.app.config.database.kind), loadBefore, loadAfter },
  gallery: { files: FILES, fileMb: FILE_SIZE / MB, totalMb: round(totalBytes / MB) },
  /** Every entry's sha256 equals its original's, and no two entries share a name. */
  entriesChecked: entries.length,
  app: { ...zipFigures(app), rssGrowthMb: round(app.rssPeakMb - app.rssStartMb, 1) },
  baseline: zipFigures(baseline),
  baselineHttp: {
    seconds: round(baselineHttp.ms / 1000),
    mbPerSecond: mbps(baselineHttp.result, baselineHttp.ms),
    rssPeakMb: baselineHttp.rssPeakMb,
  },
  ratio: round(mbps(app.result, app.ms) / mbps(baseline.result, baseline.ms)),
  ratioToHttp: round(mbps(app.result, app.ms) / mbps(baselineHttp.result, baselineHttp.ms)),
};

console.log(
  `\nGallery: ${FILES} × ${FILE_SIZE / MB} MB = ${results.gallery.totalMb} MB of originals; all ${entries.length} entries' bytes match`,
);
console.log(
  `App      ${results.app.mbPerSecond} MB/s (${results.app.seconds} s), RSS ${results.app.rssStartMb} → peak ${results.app.rssPeakMb} MB`,
);
console.log(
  `Baseline ${results.baseline.mbPerSecond} MB/s (${results.baseline.seconds} s), RSS ${results.baseline.rssStartMb} → peak ${results.baseline.rssPeakMb} MB`,
);
console.log(`Bare HTTP ${results.baselineHttp.mbPerSecond} MB/s (${results.baselineHttp.seconds} s)`);
console.log(
  `Ratio app ÷ baseline: ${results.ratio}; app ÷ bare HTTP: ${results.ratioToHttp}; load ${loadBefore} before, ${loadAfter} after`,
);
await saveResults('export', results);
await server.close();
