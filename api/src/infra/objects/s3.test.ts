import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketSettings, startBucket, type TestBucket } from '../../../test/s3.ts';
import { S3ObjectStore } from './s3.ts';

// The S3 store against s3rver, a real S3-protocol server on loopback: every request below is
// signed (SigV4) and answered by it.

let bucket: TestBucket;
let store: S3ObjectStore;
let scratch: string;

function storeFor(prefix?: string) {
  return new S3ObjectStore(bucketSettings(bucket, prefix));
}

async function bytesOf(stream: Readable | null) {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

beforeAll(async () => {
  bucket = await startBucket();
  store = storeFor('library');
  scratch = await mkdtemp(path.join(tmpdir(), 'scoutbase-s3-scratch-'));
});
afterAll(async () => {
  await bucket?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('S3ObjectStore', () => {
  it('puts, stats, gets and deletes an object; a missing one is null, deleting it again is fine', async () => {
    const info = await store.put('uploads/a1', Readable.from([Buffer.from('call sheet, day 3')]), {
      contentType: 'text/plain',
    });
    expect(info.size).toBe(17);
    expect(await store.stat('uploads/a1')).toEqual({ size: 17 });
    expect(await text((await store.get('uploads/a1')) as Readable)).toBe('call sheet, day 3');
    await store.delete('uploads/a1');
    expect(await store.stat('uploads/a1')).toBeNull();
    expect(await store.get('uploads/a1')).toBeNull();
    await store.delete('uploads/a1');
  });

  it('keeps every key under S3_PREFIX and refuses keys that climb out', async () => {
    await store.put('uploads/p1', Readable.from([Buffer.from('x')]));
    const unprefixed = storeFor();
    expect(await unprefixed.stat('library/uploads/p1')).toEqual({ size: 1 });
    expect(await unprefixed.stat('uploads/p1')).toBeNull();
    await expect(store.stat('../etc/passwd')).rejects.toThrow(/invalid object key/);
  });

  it('reads byte ranges', async () => {
    const bytes = randomBytes(100_000);
    await store.put('uploads/r1', Readable.from([bytes]));
    expect(await bytesOf(await store.get('uploads/r1', { start: 0, end: 9 }))).toEqual(bytes.subarray(0, 10));
    expect(await bytesOf(await store.get('uploads/r1', { start: 99_990, end: 99_999 }))).toEqual(
      bytes.subarray(99_990),
    );
    expect(await bytesOf(await store.get('uploads/r1', { start: 5000, end: 5000 }))).toEqual(
      bytes.subarray(5000, 5001),
    );
  });

  it('streams a large body in as multipart (lib-storage) and moves a file in', async () => {
    const big = randomBytes(12 * 1024 * 1024);
    await store.put('uploads/big', Readable.from([big.subarray(0, 7_000_000), big.subarray(7_000_000)]));
    expect(md5((await bytesOf(await store.get('uploads/big'))) as Buffer)).toBe(md5(big));
    const file = path.join(scratch, 'f');
    await writeFile(file, 'from disk');
    expect(await store.putFile('uploads/f1', file, { contentType: 'text/plain' })).toEqual({ size: 9 });
    expect(await text((await store.get('uploads/f1')) as Readable)).toBe('from disk');
  });

  it('deletePrefix removes an object and its thumbnails, and nothing else', async () => {
    for (const key of ['uploads/d1', 'uploads/d1.grid.webp', 'uploads/d1.preview.webp', 'uploads/d2']) {
      await store.put(key, Readable.from([Buffer.from(key)]));
    }
    expect(await store.deletePrefix('uploads/d1')).toBe(3);
    expect(await store.stat('uploads/d1.grid.webp')).toBeNull();
    expect(await store.stat('uploads/d2')).toEqual({ size: 10 });
    expect(await store.deletePrefix('uploads/none')).toBe(0);
  });

  it('presigned PUT: the bucket takes exactly the signed key, length and type, before the URL expires', async () => {
    // s3rver itself does not recompute SigV4 signatures; test/s3.ts checks presigned ones as S3 does.
    const body = Buffer.from('presigned bytes');
    const url = await store.presignPut('uploads/s1', { size: body.length, contentType: 'text/plain', expiresIn: 60 });
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    const send = (target: string, bytes: Buffer, type: string) =>
      fetch(target, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': type } });
    expect((await send(url, body, 'image/png')).status).toBe(403);
    expect((await send(url, Buffer.from('presigned bytes, and more'), 'text/plain')).status).toBe(403);
    expect((await send(url.replace('uploads/s1', 'uploads/s2'), body, 'text/plain')).status).toBe(403);
    const expired = await store.presignPut('uploads/s1', {
      size: body.length,
      contentType: 'text/plain',
      expiresIn: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await send(expired, body, 'text/plain')).status).toBe(403);
    expect(await store.stat('uploads/s1')).toBeNull();
    expect(await store.stat('uploads/s2')).toBeNull();

    expect((await send(url, body, 'text/plain')).status).toBe(200);
    expect(await text((await store.get('uploads/s1')) as Readable)).toBe('presigned bytes');
  });

  it('multipart through presigned part URLs: a part cut off, listed, sent again, completed', async () => {
    const partSize = 5 * 1024 * 1024;
    const whole = randomBytes(partSize * 2 + 1234);
    const parts = [whole.subarray(0, partSize), whole.subarray(partSize, 2 * partSize), whole.subarray(2 * partSize)];
    const id = await store.createMultipart('uploads/mp', 'application/octet-stream');
    const urls = await Promise.all(parts.map((_, i) => store.presignPart('uploads/mp', id, i + 1, 60)));
    expect((await fetch(urls[0] as string, { method: 'PUT', body: parts[0] })).status).toBe(200);
    // Part 2 is cut off mid-way: the connection drops before the bytes are all there.
    const cut = new AbortController();
    const half = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(parts[1]?.subarray(0, 1000) as Buffer));
        setTimeout(() => cut.abort(), 50);
      },
    });
    await expect(
      fetch(
        urls[1] as string,
        {
          method: 'PUT',
          body: half,
          signal: cut.signal,
          headers: { 'content-length': String(partSize) },
          duplex: 'half',
        } as RequestInit,
      ),
    ).rejects.toThrow();
    expect((await fetch(urls[2] as string, { method: 'PUT', body: parts[2] })).status).toBe(200);

    // Real S3 drops a part cut off; s3rver keeps what arrived of it. Either way the listing shows
    // that part 2 is not whole, which is what a resume looks for.
    const listed = await store.listParts('uploads/mp', id);
    expect(listed.filter((p) => p.partNumber !== 2)).toMatchObject([
      { partNumber: 1, size: partSize },
      { partNumber: 3, size: 1234 },
    ]);
    expect(listed.find((p) => p.partNumber === 2)?.size ?? 0).toBeLessThan(partSize);
    // Resume: only the missing part goes again.
    expect((await fetch(urls[1] as string, { method: 'PUT', body: parts[1] })).status).toBe(200);
    const all = await store.listParts('uploads/mp', id);
    expect(all.map((p) => p.partNumber)).toEqual([1, 2, 3]);
    await store.completeMultipart('uploads/mp', id, all);
    expect(await store.stat('uploads/mp')).toEqual({ size: whole.length });
    expect(md5((await bytesOf(await store.get('uploads/mp'))) as Buffer)).toBe(md5(whole));
  });

  it('aborting a multipart upload drops its parts', async () => {
    const id = await store.createMultipart('uploads/ab', 'application/octet-stream');
    const url = await store.presignPart('uploads/ab', id, 1, 60);
    expect((await fetch(url, { method: 'PUT', body: Buffer.from('part') })).status).toBe(200);
    await store.abortMultipart('uploads/ab', id);
    await expect(store.listParts('uploads/ab', id)).rejects.toThrow();
  });
});
