import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3ObjectStore } from './s3.ts';
import { assertKey, type LocalObjectStore } from './store.ts';

/** Stores a library can be copied between: the data folder's and a bucket. */
export type MigratableStore = LocalObjectStore | S3ObjectStore;

export class MigrationError extends Error {}

export interface MigrationReport {
  /** Objects written to the target in this run. */
  copied: number;
  /** Objects the target already held with the same sha256 (an earlier, interrupted run). */
  skipped: number;
  /** Bytes written in this run. */
  bytes: number;
}

/** Every object key of a store: the whole library, objects and thumbnails alike. */
export async function* objectKeys(store: MigratableStore): AsyncGenerator<string> {
  if (store.kind === 's3') {
    yield* store.list('');
    return;
  }
  async function* walk(dir: string, relative: string): AsyncGenerator<string> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      // Partly written files (renamed into place once whole) are not objects yet.
      if (entry.isDirectory() && !(relative === '' && entry.name === '.tmp'))
        yield* walk(path.join(dir, entry.name), key);
      if (entry.isFile() && isKey(key)) yield key;
    }
  }
  yield* walk(store.root, '');
}

function isKey(key: string) {
  try {
    assertKey(key);
    return true;
  } catch {
    return false;
  }
}

/** sha256 and length of a stream; null for an object that is not there. */
async function digest(stream: Readable | null) {
  if (!stream) return null;
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * Copies every object of `from` to `to`, each verified by reading it back from `to` and comparing
 * sha256 checksums. Resumable: an object `to` already holds with the same checksum is left as it
 * is. Nothing is ever deleted from `from`.
 */
export async function copyObjects(
  from: MigratableStore,
  to: MigratableStore,
  { onObject }: { onObject?: (key: string, report: MigrationReport) => void } = {},
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, skipped: 0, bytes: 0 };
  for await (const key of objectKeys(from)) {
    const there = await to.stat(key);
    const sourceInfo = await from.stat(key);
    if (!sourceInfo) continue; // Deleted by the running server since the listing.
    if (there && there.size === sourceInfo.size) {
      const [source, target] = [await digest(await from.get(key)), await digest(await to.get(key))];
      if (source && target && source.sha256 === target.sha256) {
        report.skipped += 1;
        onObject?.(key, report);
        continue;
      }
    }
    const body = await from.get(key);
    if (!body) continue;
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const sent = pipeline(body, meter);
    await Promise.all([
      sent,
      to.put(key, meter, { contentType: key.endsWith('.webp') ? 'image/webp' : 'application/octet-stream' }),
    ]);
    const sha256 = hash.digest('hex');
    const written = await digest(await to.get(key));
    if (!written || written.sha256 !== sha256 || written.size !== size) {
      throw new MigrationError(
        `${key}: the copy does not match the source (sha256 ${written?.sha256 ?? 'missing'} instead of ${sha256}); run the command again`,
      );
    }
    report.copied += 1;
    report.bytes += size;
    onObject?.(key, report);
  }
  return report;
}
