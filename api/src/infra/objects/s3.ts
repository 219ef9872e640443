import { createReadStream } from 'node:fs';
import { rm, stat as statFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertKey, type ByteRange, type ObjectBody, type ObjectInfo, type ObjectStore } from './store.ts';

export interface S3Options {
  bucket: string;
  /** Unset: AWS itself; set for MinIO, Ceph RGW, Garage, R2 … */
  endpoint?: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path (http://host/bucket/key) instead of the host name: what most self-hosted servers want. */
  forcePathStyle: boolean;
  /** Put in front of every key, so one bucket can hold several libraries (or other things). */
  prefix?: string;
}

export interface UploadedPart {
  partNumber: number;
  etag: string;
  size: number;
}

/** Keys per listing page and per DeleteObjects call: S3's maximum for both. */
const PAGE = 1000;

function isMissing(error: unknown) {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

function toNodeStream(body: ObjectBody): Readable {
  return body instanceof Readable ? body : Readable.fromWeb(body as import('node:stream/web').ReadableStream);
}

/**
 * Objects in an S3-compatible bucket. Keys map one to one (after S3_PREFIX), so thumbnails sit
 * beside their object and deletePrefix is a listing. Besides the ObjectStore calls it signs the
 * URLs browsers send bytes to directly (storage/s3-uploads.ts).
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3Options) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ? `${options.prefix.replace(/^\/+|\/+$/g, '')}/` : '';
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // The SDK's default CRC checksums are not understood by every S3-compatible server, and a
      // checksum parameter in a presigned URL would bind the browser to bytes we have not seen.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** The bucket's key for one of ours. */
  keyOf(key: string) {
    assertKey(key);
    return `${this.prefix}${key}`;
  }

  async put(key: string, body: ObjectBody, options: { contentType?: string; size?: number } = {}): Promise<ObjectInfo> {
    // lib-storage streams: a single PUT for small bodies, multipart for large ones; S3 makes the
    // object visible only once complete, so readers never see half of it.
    await new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.keyOf(key),
        Body: toNodeStream(body),
        ContentType: options.contentType ?? 'application/octet-stream',
      },
    }).done();
    if (options.size !== undefined) return { size: options.size };
    const info = await this.stat(key);
    if (!info) throw new Error(`the bucket does not show ${key} after writing it`);
    return info;
  }

  async putFile(key: string, filePath: string, options: { contentType?: string } = {}): Promise<ObjectInfo> {
    const { size } = await statFile(filePath);
    await this.put(key, createReadStream(filePath), { contentType: options.contentType, size });
    // Same contract as the disk store's move: the file is the store's now.
    await rm(filePath, { force: true });
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!answer.Body) return null;
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return { size: Number(answer.ContentLength ?? 0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
  }

  async deletePrefix(prefix: string) {
    // Listed in full before deleting: a continuation token must not point at a key already gone.
    const keys: string[] = [];
    for await (const page of this.listKeys(prefix)) keys.push(...page);
    for (let start = 0; start < keys.length; start += PAGE) {
      const answer = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: keys.slice(start, start + PAGE).map((Key) => ({ Key })), Quiet: true },
        }),
      );
      if (answer.Errors?.length) {
        const first = answer.Errors[0];
        throw new Error(`the bucket refused to delete ${first?.Key}: ${first?.Code} ${first?.Message}`);
      }
    }
    return keys.length;
  }

  /** Every object under one of our key prefixes (bucket keys), a page at a time. */
  private async *pages(prefix: string): AsyncGenerator<{ key: string; lastModified: Date | undefined }[]> {
    // Paged with StartAfter (the last key seen) rather than continuation tokens: every
    // S3-compatible server has it, and s3rver's tokens need a cipher (DES) Node 20's OpenSSL no longer offers.
    let after: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          // '' lists the whole library (everything under S3_PREFIX).
          Prefix: prefix === '' ? this.prefix : this.keyOf(prefix),
          StartAfter: after,
          MaxKeys: PAGE,
        }),
      );
      const items = (page.Contents ?? []).flatMap((item) =>
        item.Key ? [{ key: item.Key, lastModified: item.LastModified }] : [],
      );
      if (items.length > 0) yield items;
      after = items.at(-1)?.key;
      if (!page.IsTruncated || after === undefined) return;
    }
  }

  /** Bucket keys under one of our key prefixes, a page at a time. */
  async *listKeys(prefix: string): AsyncGenerator<string[]> {
    for await (const page of this.pages(prefix)) yield page.map((item) => item.key);
  }

  /** Our keys (without S3_PREFIX) of every object under `prefix`. */
  async *list(prefix: string): AsyncGenerator<string> {
    for await (const item of this.listDated(prefix)) yield item.key;
  }

  /** Our keys of every object under `prefix`, with when each was written. */
  async *listDated(prefix: string): AsyncGenerator<{ key: string; lastModified: Date | undefined }> {
    for await (const page of this.pages(prefix)) {
      for (const item of page) yield { key: item.key.slice(this.prefix.length), lastModified: item.lastModified };
    }
  }

  // ─────────────── direct uploads from browsers ───────────────

  /** A URL a browser PUTs exactly `size` bytes to (the length is part of the signature). */
  presignPut(key: string, { size, contentType, expiresIn }: { size: number; contentType: string; expiresIn: number }) {
    return getSignedUrl(
      this.client,
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        ContentLength: size,
        ContentType: contentType,
      }),
      { expiresIn, signableHeaders: new Set(['content-length', 'content-type']) },
    );
  }

  async createMultipart(key: string, contentType: string) {
    const answer = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.keyOf(key), ContentType: contentType }),
    );
    if (!answer.UploadId) throw new Error('the bucket started a multipart upload without an id');
    return answer.UploadId;
  }

  presignPart(key: string, uploadId: string, partNumber: number, expiresIn: number) {
    return getSignedUrl(
      this.client,
      new UploadPartCommand({ Bucket: this.bucket, Key: this.keyOf(key), UploadId: uploadId, PartNumber: partNumber }),
      { expiresIn },
    );
  }

  /** The parts the bucket holds of a multipart upload, in order. */
  async listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    do {
      const page = await this.client.send(
        new ListPartsCommand({
          Bucket: this.bucket,
          Key: this.keyOf(key),
          UploadId: uploadId,
          PartNumberMarker: marker,
        }),
      );
      for (const part of page.Parts ?? []) {
        if (part.PartNumber && part.ETag) {
          parts.push({ partNumber: part.PartNumber, etag: part.ETag, size: Number(part.Size ?? 0) });
        }
      }
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: UploadedPart[]) {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      }),
    );
  }

  async abortMultipart(key: string, uploadId: string) {
    await this.client.send(
      new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.keyOf(key), UploadId: uploadId }),
    );
  }
}
