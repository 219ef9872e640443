import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Inclusive byte range, as HTTP Range requests count. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectInfo {
  size: number;
}

export type ObjectBody = Readable | ReadableStream<Uint8Array>;

/**
 * Where object bytes live. Keys are relative paths such as `uploads/<id>` and
 * `uploads/<id>.grid.webp`; a key never climbs out of the store (see assertKey).
 */
export interface ObjectStore {
  readonly kind: 'local' | 'uploadthing' | 's3';
  /** Writes the whole object; readers never see a half-written one. */
  put(key: string, body: ObjectBody, options?: { contentType?: string; size?: number }): Promise<ObjectInfo>;
  /** Stores a finished file from local disk (moved, not copied, when the store is on the same disk). */
  putFile(key: string, filePath: string, options?: { contentType?: string }): Promise<ObjectInfo>;
  /** The object's bytes (only `range` of them when given), or null if there is no such object. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  stat(key: string): Promise<ObjectInfo | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (an object and its thumbnails); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
}

const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

/** Keys come from our own ids, but a store must not be talked into writing outside itself. */
export function assertKey(key: string) {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..') || key.length > 500) {
    throw new Error(`invalid object key: ${JSON.stringify(key)}`);
  }
}

function toNodeStream(body: ObjectBody): Readable {
  return body instanceof Readable ? body : Readable.fromWeb(body as import('node:stream/web').ReadableStream);
}

/**
 * Waits until a file's bytes are on the disk, not only in the page cache: an upload's answer says
 * they are kept, and a power cut after it must not lose them. Answers the file's size.
 */
async function flushFile(file: string) {
  const handle = await open(file, 'r');
  try {
    await handle.datasync();
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/** The same for a directory's entries, so a file renamed into it is still there after a power cut. */
async function flushDirectory(dir: string) {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(dir, 'r');
  } catch {
    return; // Systems that cannot open a directory (Windows) keep renames without it.
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The embedded backend: plain files under <dataDir>/objects. */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local' as const;
  /** Partly written objects; renamed into place once complete, swept by the cleanup pass. */
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = path.join(root, '.tmp');
  }

  private pathOf(key: string) {
    assertKey(key);
    return path.join(this.root, key);
  }

  /** A fresh temporary file path inside the store (same disk, so a rename finishes a write). */
  async tempPath() {
    await mkdir(this.tmpDir, { recursive: true });
    return path.join(this.tmpDir, randomUUID());
  }

  async put(key: string, body: ObjectBody): Promise<ObjectInfo> {
    const target = this.pathOf(key);
    const temp = await this.tempPath();
    try {
      await pipeline(toNodeStream(body), createWriteStream(temp, { flags: 'wx' }));
      const size = await flushFile(temp);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
      await flushDirectory(path.dirname(target));
      return { size };
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async putFile(key: string, filePath: string): Promise<ObjectInfo> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      const size = await flushFile(filePath);
      await rename(filePath, target);
      await flushDirectory(path.dirname(target));
      return { size };
    } catch (error) {
      // Another disk: copy, then drop the source.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const stored = await this.put(key, createReadStream(filePath));
      await rm(filePath, { force: true });
      return stored;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const file = this.pathOf(key);
    try {
      await stat(file);
    } catch {
      return null;
    }
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch {
      return null;
    }
  }

  async delete(key: string) {
    await unlink(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async deletePrefix(prefix: string) {
    const full = this.pathOf(prefix);
    const dir = path.dirname(full);
    const base = path.basename(full);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names.filter((n) => n.startsWith(base))) {
      await rm(path.join(dir, name), { force: true, recursive: true });
      removed += 1;
    }
    return removed;
  }

  /** Removes temporary files older than `olderThan` (left by writes a crash cut short). */
  async sweepTemp(olderThan: Date) {
    let names: string[];
    try {
      names = await readdir(this.tmpDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.tmpDir, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtime < olderThan) {
        await rm(file, { force: true, recursive: true });
        removed += 1;
      }
    }
    return removed;
  }
}
