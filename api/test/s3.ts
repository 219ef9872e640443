import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error s3rver ships no types.
import S3rver from 's3rver';
import type { S3Config } from '../src/config.ts';

// A real S3-protocol peer on loopback for the S3 object store's tests: s3rver (signature V4
// headers and presigned query strings, multipart upload, ListObjectsV2, DeleteObjects, Range).

export const S3_BUCKET = 'scoutbase-test';
export const S3_ACCESS_KEY_ID = 'S3RVER';
export const S3_SECRET_ACCESS_KEY = 'S3RVER';

interface KoaContext {
  method: string;
  path: string;
  querystring: string;
  query: Record<string, string | undefined>;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}

const rfc3986 = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

function refuse(ctx: KoaContext, code: string) {
  ctx.status = 403;
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`;
}

/**
 * s3rver 3.7 accepts any signature V4 of a known key without recomputing it. For presigned URLs
 * (what browsers get from us) this recomputes the signature as S3 does, over the method, path,
 * query and the signed headers, and checks the expiry, so a URL used for other bytes, another
 * type, another key or too late is refused as a real bucket refuses it.
 */
function presignedSignatures(secretAccessKey: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const query = new URLSearchParams(ctx.querystring);
    if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return next();
    const date = query.get('X-Amz-Date') ?? '';
    const credential = query.get('X-Amz-Credential') ?? '';
    const signedHeaders = (query.get('X-Amz-SignedHeaders') ?? '').split(';');
    const given = query.get('X-Amz-Signature') ?? '';
    const [, day, region, service] = credential.split('/');
    const issued = Date.parse(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    if (!(Date.now() <= issued + Number(query.get('X-Amz-Expires')) * 1000)) return refuse(ctx, 'AccessDenied');
    const canonicalQuery = [...query.entries()]
      .filter(([name]) => name !== 'X-Amz-Signature')
      .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
      .sort()
      .join('&');
    const header = (name: string) => {
      const value = ctx.headers[name];
      return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
    };
    const canonicalRequest = [
      ctx.method,
      ctx.path,
      canonicalQuery,
      ...signedHeaders.map((name) => `${name}:${header(name)}`),
      '',
      signedHeaders.join(';'),
      'UNSIGNED-PAYLOAD',
    ].join('\n');
    const scope = `${day}/${region}/${service}/aws4_request`;
    const stringToSign = [
      'AWS4-HMAC-SHA256',
      date,
      scope,
      createHash('sha256').update(canonicalRequest).digest('hex'),
    ].join('\n');
    let key = hmac(`AWS4${secretAccessKey}`, day ?? '');
    for (const part of [region ?? '', service ?? '', 'aws4_request']) key = hmac(key, part);
    const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
    const actual = Buffer.from(given);
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
      return refuse(ctx, 'SignatureDoesNotMatch');
    }
    return next();
  };
}

export interface TestBucket {
  endpoint: string;
  /** The environment that points the app at this bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * s3rver 3.7 has no ListParts and no AbortMultipartUpload (it answers 405); they are served here
 * from the parts it keeps on disk (<bucket>/._S3rver_uploads/<uploadId>/<partNumber>), so resuming
 * a multipart upload runs against the same server that stores the parts. Unauthenticated: test only.
 */
function multipartListing(directory: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const uploadId = ctx.query.uploadId;
    const bucket = ctx.path.split('/')[1] ?? '';
    if (!uploadId || !/^[0-9a-f]+$/.test(uploadId) || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) {
      return next();
    }
    const dir = path.join(directory, bucket, '._S3rver_uploads', uploadId);
    const names = await readdir(dir).catch(() => null);
    if (!names) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code></Error>';
      return;
    }
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const parts = await Promise.all(
      names
        .filter((name) => /^\d+$/.test(name))
        .map(async (name) => {
          const file = path.join(dir, name);
          const md5 = createHash('md5')
            .update(await readFile(file))
            .digest('hex');
          return { number: Number(name), etag: md5, size: (await stat(file)).size };
        }),
    );
    parts.sort((a, b) => a.number - b.number);
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${bucket}</Bucket><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts
      .map((p) => `<Part><PartNumber>${p.number}</PartNumber><ETag>"${p.etag}"</ETag><Size>${p.size}</Size></Part>`)
      .join('')}</ListPartsResult>`;
  };
}

/** The storage settings (as config.ts reads them from `bucket.env`) for this bucket, under `prefix`. */
export function bucketSettings(bucket: Pick<TestBucket, 'endpoint'>, prefix?: string): S3Config {
  return {
    bucket: S3_BUCKET,
    endpoint: bucket.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
    forcePathStyle: true,
    prefix,
  };
}

/** Starts s3rver on 127.0.0.1 (a free port) with a fresh directory and one empty bucket. */
export async function startBucket(): Promise<TestBucket> {
  const directory = await mkdtemp(path.join(tmpdir(), 'scoutbase-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: S3_BUCKET }],
  });
  (server.middleware as unknown[]).unshift(presignedSignatures(S3_SECRET_ACCESS_KEY), multipartListing(directory));
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    env: {
      S3_BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
