import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../src/config.ts';

// A local stand-in for the UploadThing services the SDK talks to, written from the SDK's source
// (uploadthing 7.7 server, client and route handler; @uploadthing/shared for the signatures):
// - the ingest server takes a multipart PUT at a URL signed with the API key (HMAC-SHA256 of the
//   URL without its signature, hex, `hmac-sha256=` prefixed) and answers HEAD on it with
//   x-ut-range-start (where a resumed upload starts);
// - a route handler registers each presigned file with POST <ingest>/route-metadata (API key in
//   x-uploadthing-api-key); once the bytes are in, the ingest server POSTs the `callback` hook to
//   the route's callbackUrl, body signed the same way in x-uploadthing-signature, and the handler
//   posts what onUploadComplete returned to <origin>/callback-result, which the PUT answers with
//   as serverData (awaitServerData);
// - the API takes POST /v6/deleteFiles with the key in x-uploadthing-api-key;
// - the file host serves private files at signed /a/<appId>/<key> URLs.

export const UT_API_KEY = 'sk_live_scoutbase_fake_key';
export const UT_APP_ID = 'scoutbaseapp';
export const UT_TOKEN = Buffer.from(
  JSON.stringify({ apiKey: UT_API_KEY, appId: UT_APP_ID, regions: ['sea1'] }),
).toString('base64');

interface Stored {
  bytes: Buffer;
  type: string;
  acl: string | null;
  key: string;
}

interface RouteMetadata {
  metadata: Record<string, unknown>;
  callbackUrl: string;
  callbackSlug: string;
  awaitServerData: boolean;
}

type Answer = { status: number; headers?: Record<string, string>; body?: Buffer | string };

export function utSign(payload: string, key = UT_API_KEY) {
  return `hmac-sha256=${createHmac('sha256', key).update(payload).digest('hex')}`;
}

export class FakeUploadThing {
  /** Stored files by customId (or file key when there is none). */
  readonly files = new Map<string, Stored>();
  readonly calls: string[] = [];
  readonly routeMetadata = new Map<string, RouteMetadata>();
  readonly callbackResults = new Map<string, unknown>();
  /** What the callback hook got back from the app, by file key. */
  readonly callbackStatus = new Map<string, number>();
  /** The last callback sent, as sent (a test may deliver it again, as UploadThing retries). */
  lastCallback: { url: string; headers: Record<string, string>; body: string } | null = null;
  server: Server;
  port = 0;

  /**
   * @param deliver How the callback reaches the app (the app under test is not listening on a
   * port; UploadThing would reach it over the internet).
   */
  constructor(private readonly deliver: (url: string, init: RequestInit) => Promise<Response> = fetch) {
    this.server = createServer((req, res) => {
      this.handle(req)
        .then(({ status, headers = {}, body }) => {
          res.writeHead(status, headers);
          res.end(body);
        })
        .catch((error) => {
          res.writeHead(500);
          res.end(String(error));
        });
    });
  }

  get origin() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The app's settings with UploadThing's endpoints at this fake (once started), for testApp's `adjust`. */
  appConfig(config: Config): Config {
    return {
      ...config,
      storage: {
        ...config.storage,
        uploadthingEndpoints: {
          apiUrl: this.origin,
          ingestUrl: this.origin,
          ufsHost: `localhost:${this.port}`,
          ufsAppIdLocation: 'path',
        },
      },
    };
  }

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  stop() {
    return new Promise((resolve) => this.server.close(resolve));
  }

  private signedOk(absolute: URL) {
    const signature = absolute.searchParams.get('signature');
    const unsigned = absolute.href.replace(/[?&]signature=[^&]*$/, '');
    const expires = Number(absolute.searchParams.get('expires'));
    return signature === utSign(unsigned) && expires > Date.now();
  }

  private json(status: number, value: unknown): Answer {
    return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
  }

  private async handle(req: IncomingMessage): Promise<Answer> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    this.calls.push(`${req.method} ${url.pathname}`);
    const apiKeyOk = req.headers['x-uploadthing-api-key'] === UT_API_KEY;

    if (req.method === 'POST' && url.pathname === '/v6/deleteFiles') {
      if (!apiKeyOk) return { status: 401, body: '{"error":"Invalid API key"}' };
      const { customIds = [], fileKeys = [] } = JSON.parse(body.toString()) as {
        customIds?: string[];
        fileKeys?: string[];
      };
      let deletedCount = 0;
      for (const id of customIds) if (this.files.delete(id)) deletedCount += 1;
      for (const key of fileKeys) {
        for (const [id, stored] of this.files) if (stored.key === key && this.files.delete(id)) deletedCount += 1;
      }
      return this.json(200, { success: true, deletedCount });
    }

    if (req.method === 'POST' && url.pathname === '/route-metadata') {
      if (!apiKeyOk) return { status: 401, body: '{"error":"Invalid API key"}' };
      const registered = JSON.parse(body.toString()) as RouteMetadata & { fileKeys: string[]; isDev: boolean };
      if (registered.isDev) return { status: 400, body: 'The fake only speaks the production callback flow' };
      for (const key of registered.fileKeys) this.routeMetadata.set(key, registered);
      return this.json(200, { ok: true });
    }

    if (req.method === 'POST' && url.pathname === '/callback-result') {
      if (!apiKeyOk) return { status: 401, body: '{"error":"Invalid API key"}' };
      const { fileKey, callbackData } = JSON.parse(body.toString()) as { fileKey: string; callbackData: unknown };
      this.callbackResults.set(fileKey, callbackData);
      return this.json(200, { ok: true });
    }

    if (req.method === 'HEAD' && !url.pathname.startsWith('/a/')) {
      if (!this.signedOk(url)) return { status: 403 };
      return { status: 200, headers: { 'x-ut-range-start': '0' } };
    }

    if (req.method === 'PUT') return this.ingest(req, url, body);

    const served = /^\/a\/([^/]+)\/(.+)$/.exec(url.pathname);
    if ((req.method === 'GET' || req.method === 'HEAD') && served) {
      if (served[1] !== UT_APP_ID || !this.signedOk(url)) return { status: 403, body: 'Forbidden' };
      const stored = this.files.get(decodeURIComponent(served[2] as string));
      if (!stored) return { status: 404, body: 'Not found' };
      const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
      const slice = range ? stored.bytes.subarray(Number(range[1]), Number(range[2]) + 1) : stored.bytes;
      return {
        status: range ? 206 : 200,
        headers: { 'content-type': stored.type, 'content-length': String(slice.length) },
        body: req.method === 'HEAD' ? undefined : slice,
      };
    }
    return { status: 404, body: 'Unknown endpoint' };
  }

  private async ingest(req: IncomingMessage, url: URL, body: Buffer): Promise<Answer> {
    if (!this.signedOk(url)) return { status: 403, body: 'Invalid signature' };
    if (url.searchParams.get('x-ut-identifier') !== UT_APP_ID) return { status: 403, body: 'Wrong app' };
    const form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
    const file = form.get('file') as File;
    const bytes = Buffer.from(await file.arrayBuffer());
    const param = (name: string) => decodeURIComponent(url.searchParams.get(name) ?? '');
    // The size is part of the signed URL: nobody sends more (or other) bytes than were announced.
    if (bytes.length !== Number(param('x-ut-file-size'))) return { status: 400, body: 'Size mismatch' };
    const key = url.pathname.slice(1);
    const customId = param('x-ut-custom-id') || null;
    this.files.set(customId ?? key, { bytes, type: param('x-ut-file-type'), acl: param('x-ut-acl') || null, key });
    const ufsUrl = `http://localhost:${this.port}/a/${UT_APP_ID}/${key}`;
    const fileHash = createHash('md5').update(bytes).digest('hex');
    const answer = { url: ufsUrl, appUrl: ufsUrl, ufsUrl, fileHash };

    const route = this.routeMetadata.get(key);
    if (!route) return this.json(200, answer);
    // A file route's upload: tell the app, as UploadThing does, and wait for its serverData.
    const payload = JSON.stringify({
      status: 'uploaded',
      file: {
        name: param('x-ut-file-name'),
        size: bytes.length,
        type: param('x-ut-file-type'),
        customId,
        key,
        url: ufsUrl,
        appUrl: ufsUrl,
        ufsUrl,
        fileHash,
        lastModified: Date.now(),
      },
      origin: this.origin,
      metadata: route.metadata,
    });
    const callbackUrl = new URL(route.callbackUrl);
    callbackUrl.searchParams.set('slug', route.callbackSlug);
    const headers = {
      'content-type': 'application/json',
      'uploadthing-hook': 'callback',
      'x-uploadthing-signature': utSign(payload),
    };
    this.lastCallback = { url: callbackUrl.href, headers, body: payload };
    const response = await this.deliver(callbackUrl.href, { method: 'POST', headers, body: payload });
    this.callbackStatus.set(key, response.status);
    await response.arrayBuffer();
    if (!response.ok) return this.json(500, { error: `callback failed with ${response.status}` });
    return this.json(200, {
      ...answer,
      serverData: route.awaitServerData ? (this.callbackResults.get(key) ?? null) : null,
    });
  }
}
