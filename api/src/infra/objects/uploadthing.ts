import { randomUUID } from 'node:crypto';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UTApi, UTFile } from 'uploadthing/server';
import { assertKey, type ByteRange, type ObjectBody, type ObjectInfo, type ObjectStore } from './store.ts';

/** Where the SDK sends requests; only tests point these anywhere but UploadThing itself. */
export interface UploadThingOptions {
  token: string;
  apiUrl?: string;
  ingestUrl?: string;
  ufsHost?: string;
  ufsAppIdLocation?: 'subdomain' | 'path';
  /** Scratch space for bodies that arrive as streams (the SDK sends files, not streams). */
  scratchDir: string;
  /** Every key an object may have beside its own (its thumbnails): UploadThing has no prefix listing. */
  companions: string[];
}

/**
 * Objects kept at UploadThing. Each object is a private file whose customId is derived from our
 * key, so we never need to remember UploadThing's own file keys; reads go through short-lived
 * signed URLs, and our server stays the only way in for users.
 */
export class UploadThingObjectStore implements ObjectStore {
  readonly kind = 'uploadthing' as const;
  private readonly api: UTApi;

  constructor(private readonly options: UploadThingOptions) {
    const { token, apiUrl, ingestUrl, ufsHost, ufsAppIdLocation } = options;
    this.api = new UTApi({ token, apiUrl, ingestUrl, ufsHost, ufsAppIdLocation, logLevel: 'Error' });
  }

  /** UploadThing custom ids allow no slashes; ours are unique paths, so flatten them. */
  customId(key: string) {
    assertKey(key);
    return key.replaceAll('/', '~');
  }

  async put(key: string, body: ObjectBody, options: { contentType?: string } = {}): Promise<ObjectInfo> {
    await mkdir(this.options.scratchDir, { recursive: true });
    const scratch = path.join(this.options.scratchDir, randomUUID());
    try {
      const source =
        body instanceof Readable ? body : Readable.fromWeb(body as import('node:stream/web').ReadableStream);
      await pipeline(source, createWriteStream(scratch, { flags: 'wx' }));
      return await this.putFile(key, scratch, options);
    } finally {
      await rm(scratch, { force: true });
    }
  }

  async putFile(key: string, filePath: string, options: { contentType?: string } = {}): Promise<ObjectInfo> {
    // A file-backed Blob: the SDK streams it from disk, never holding the file in memory.
    const blob = await openAsBlob(filePath, { type: options.contentType ?? 'application/octet-stream' });
    const file = new UTFile([blob], path.basename(key), {
      customId: this.customId(key),
      type: options.contentType ?? 'application/octet-stream',
    });
    const result = await this.api.uploadFiles(file, { acl: 'private', contentDisposition: 'attachment' });
    if (result.error) throw new Error(`UploadThing refused ${key}: ${result.error.code} ${result.error.message}`);
    await rm(filePath, { force: true });
    return { size: blob.size };
  }

  private async signedUrl(key: string) {
    const { ufsUrl } = await this.api.generateSignedURL(this.customId(key), { expiresIn: 300 });
    return ufsUrl;
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const response = await fetch(await this.signedUrl(key), {
      headers: range ? { range: `bytes=${range.start}-${range.end}` } : {},
    });
    if (response.status === 404) return null;
    if (!response.ok || !response.body) throw new Error(`UploadThing answered ${response.status} for ${key}`);
    return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const response = await fetch(await this.signedUrl(key), { method: 'HEAD' });
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`UploadThing answered ${response.status} for ${key}`);
    return { size: Number(response.headers.get('content-length') ?? 0) };
  }

  async delete(key: string) {
    await this.api.deleteFiles(this.customId(key), { keyType: 'customId' });
  }

  async deletePrefix(prefix: string) {
    const keys = ['', ...this.options.companions].map((suffix) => this.customId(`${prefix}${suffix}`));
    const { deletedCount } = await this.api.deleteFiles(keys, { keyType: 'customId' });
    return deletedCount;
  }
}
