import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalObjectStore } from './store.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'scoutbase-store-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Spies on every flush to disk (a file's data, or a directory's entries). */
async function flushes() {
  const probe = await open(root, 'r');
  const handles = Object.getPrototypeOf(probe) as { sync(): Promise<void>; datasync(): Promise<void> };
  await probe.close();
  return { sync: vi.spyOn(handles, 'sync'), datasync: vi.spyOn(handles, 'datasync') };
}

describe('the local object store keeps what it answered for', () => {
  it('flushes a stored file and its directory entry to disk before it answers', async () => {
    const store = new LocalObjectStore(path.join(root, 'objects'));
    const scratch = path.join(root, 'scratch-1');
    await writeFile(scratch, 'call sheet, day two\n');
    const { sync, datasync } = await flushes();
    expect(await store.putFile('uploads/one', scratch)).toEqual({ size: 20 });
    expect(datasync).toHaveBeenCalledTimes(1);
    expect(sync).toHaveBeenCalledTimes(1);
    expect(await readFile(path.join(root, 'objects', 'uploads', 'one'), 'utf8')).toBe('call sheet, day two\n');
  });

  it('flushes a streamed object and its directory entry to disk before it answers', async () => {
    const store = new LocalObjectStore(path.join(root, 'objects'));
    const { sync, datasync } = await flushes();
    expect(await store.put('uploads/two.grid.webp', Readable.from([Buffer.from('webp bytes')]))).toEqual({ size: 10 });
    expect(datasync).toHaveBeenCalledTimes(1);
    expect(sync).toHaveBeenCalledTimes(1);
  });
});
