import { IncomingMessage } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config.ts';
import { formatBytes } from '../shared/format.ts';
import type { AppEnv } from './env.ts';

/** What the app's pages load from beyond their own origin (app.ts gathers it from the features). */
export interface PageSources {
  /** Hashes of fixed inline scripts. */
  scripts: string[];
  images: string[];
  /** Where pages may send requests. */
  connect: string[];
}

/**
 * Headers every answer carries. The content security policy allows scripts only from the app's
 * own origin (no inline scripts, no eval), so an injected <script> or handler never runs; styles
 * may be inline (the UI kit positions popovers with style attributes). Pages may not be framed.
 * The policy is applied in production only: GraphiQL (development) runs inline scripts.
 */
export function securityHeaders(config: Config, sources: PageSources): MiddlewareHandler<AppEnv> {
  const https = config.publicUrl?.startsWith('https://') ?? false;
  const headers = secureHeaders({
    contentSecurityPolicy:
      config.env === 'production'
        ? {
            defaultSrc: ["'self'"],
            // …and the import connection page's one fixed script, by its hash.
            scriptSrc: ["'self'", ...sources.scripts],
            styleSrc: ["'self'", "'unsafe-inline'"],
            // Thumbnails are served here; map tiles, signed UploadThing reads and Google avatars
            // come from elsewhere over https, and tiles from MAP_TILE_URL's host (maybe plain http on
            // a studio network); previews of files being uploaded are blob: URLs.
            imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...sources.images],
            mediaSrc: ["'self'", 'blob:', 'https:'],
            // …and, with UploadThing, its ingest servers: browsers send the bytes there directly.
            connectSrc: [
              "'self'",
              ...(config.publicUrl ? [config.publicUrl.replace(/^http/, 'ws')] : []),
              ...sources.connect,
            ],
            fontSrc: ["'self'", 'data:'],
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            frameAncestors: ["'none'"],
            ...(https ? { upgradeInsecureRequests: [] } : {}),
          }
        : undefined,
    // Behind TLS only: HSTS over plain http would be ignored, and would lock a dev box to https.
    strictTransportSecurity: https ? 'max-age=31536000; includeSubDomains' : false,
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    // Photos are loaded by <img> on the app's own pages only.
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginEmbedderPolicy: false,
    xXssProtection: false,
  });
  return async (c, next) => {
    let routesOwn: string | null = null;
    let routesPolicy: string | null = null;
    let sameOriginFrames = false;
    await headers(c as never, async () => {
      await next();
      // A route that lets the app's own pages frame its answer (a PDF preview) says SAMEORIGIN.
      sameOriginFrames = c.res.headers.get('x-frame-options') === 'SAMEORIGIN';
      // Some answers (Auth.js redirects, proxied fetches) come with immutable headers: copy them.
      try {
        c.res.headers.set('x-content-type-options', 'nosniff');
      } catch {
        c.res = new Response(c.res.body, c.res);
      }
      routesOwn = c.res.headers.get('referrer-policy');
      routesPolicy = c.res.headers.get('content-security-policy');
    });
    // A served file's own policy (sandboxed: nothing in it runs) is stricter than the pages' one,
    // which secureHeaders would otherwise put in its place.
    const ownPolicy = routesPolicy as string | null; // set in the callback above, which TS cannot see
    if (ownPolicy?.includes('sandbox')) c.res.headers.set('Content-Security-Policy', ownPolicy);
    // A route may send less than the global policy (the review API: no-referrer), never more.
    if (routesOwn && STRICTER_REFERRER_POLICIES.has(routesOwn)) c.res.headers.set('Referrer-Policy', routesOwn);
    if (sameOriginFrames) {
      c.res.headers.set('X-Frame-Options', 'SAMEORIGIN');
      const policy = c.res.headers.get('content-security-policy');
      if (policy)
        c.res.headers.set(
          'Content-Security-Policy',
          policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
        );
    }
  };
}

const STRICTER_REFERRER_POLICIES = new Set(['no-referrer', 'same-origin', 'strict-origin']);

/** The origin the browser used: behind a trusted proxy, the one the proxy was asked for. */
function requestOrigin(request: Request, trustProxy: boolean) {
  const url = new URL(request.url);
  if (!trustProxy) return url.origin;
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() ?? request.headers.get('host');
  return `${proto || url.protocol.replace(':', '')}://${host || url.host}`;
}

/**
 * The origin the site is served at, as the browser sees it: PUBLIC_URL's when set, else the one
 * the request came to (behind a trusted proxy, the one the proxy was asked for: X-Forwarded-Proto
 * and -Host). An https origin here is what makes the session cookie Secure (auth/rest.ts).
 */
export function siteOrigin(config: Config, request: Request) {
  return config.publicUrl ? new URL(config.publicUrl).origin : requestOrigin(request, config.trustProxy !== undefined);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery: the session is a cookie, so a page elsewhere could make a browser
 * send it. Browsers say where a request comes from (Sec-Fetch-Site, Origin); any state-changing
 * request that a browser made from another site is refused. Requests without either header do
 * not come from a browser page (scripts, the CLI) and carry no ambient cookie risk. Auth.js's own
 * routes check their double-submit token as well. GraphQL additionally only takes JSON bodies,
 * which another site cannot send without a CORS preflight that this server never grants.
 */
export function csrfProtection(config: Config): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const appOrigin = config.publicUrl ?? requestOrigin(c.req.raw, config.trustProxy !== undefined);
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const crossSite =
      (site !== undefined && site !== 'same-origin' && site !== 'none') ||
      (origin !== undefined && origin !== 'null' && origin !== appOrigin) ||
      origin === 'null';
    if (crossSite) {
      return c.json({ message: 'This request came from another site and was refused.' }, 403);
    }
    if (c.req.path === '/graphql') {
      const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json' && type !== 'application/graphql-response+json') {
        return c.json({ message: 'GraphQL requests must be sent as application/json.' }, 415);
      }
    }
    return next();
  };
}

const NUL_MESSAGE = 'The request contains a NUL character, which no field accepts.';
const NOT_UTF8_MESSAGE = 'The request body is not valid UTF-8 text.';

/** The largest body any route other than an upload takes: JSON, forms, text, or no declared type. */
export const MAX_TEXT_BODY_BYTES = 1_000_000;
/** How deep arrays and objects of a JSON body may nest (the web app's deepest is under 10). */
export const MAX_JSON_DEPTH = 64;
const TOO_LARGE_MESSAGE = 'The request is too large (at most 1 MB of JSON, form or text).';
const TOO_DEEP_MESSAGE = `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether arrays and objects nest deeper than `max`. Counts brackets outside strings, so it judges a
 * JSON text before JSON.parse builds anything (a body nested thousands deep parses, but breaks
 * PostgreSQL's jsonb and every client that reads it back); strings are skipped a quote at a time.
 */
export function nestedDeeperThan(text: string, max: number) {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) return true;
    } else if (ch === 0x7d || ch === 0x5d) {
      depth--;
    } else if (ch === 0x22) {
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return false;
        let slash = end - 1;
        while (text.charCodeAt(slash) === 0x5c) slash--;
        i = end;
        // An even run of backslashes before the quote escapes only itself: the string ends here.
        if ((end - slash) % 2 === 1) break;
      }
    }
  }
  return false;
}

type Read = { bytes: Uint8Array } | { tooLarge: true } | { aborted: true };

/** Reads a Node request's body, stopping (and leaving the rest unread) once it passes `limit`. */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<Read> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Read) => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onAbort);
      incoming.off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // The server answers at once; @hono/node-server drains or closes what is still coming.
        incoming.pause();
        finish({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    const onAbort = () => finish({ aborted: true });
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onAbort);
    incoming.once('close', onAbort);
  });
}

/** The same from a web Request (the app called without a Node server: tests, other runtimes). */
async function readStream(body: ReadableStream<Uint8Array>, limit: number): Promise<Read> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return { tooLarge: true };
      }
      chunks.push(value);
    }
  } catch {
    return { aborted: true };
  }
  return { bytes: chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, size) };
}

/**
 * The one door every request body passes. Upload routes keep their streams (and the upload limit);
 * every other body, whatever its Content-Type says or omits, is counted as it arrives and refused
 * past MAX_TEXT_BODY_BYTES, so no route ever buffers more. What gets through was read once and is
 * text: valid UTF-8, without NUL (PostgreSQL text cannot hold U+0000, so one would fail deep in a
 * write), nested no deeper than MAX_JSON_DEPTH. Routes read it again from a Request made of the same
 * bytes; GraphQL takes the text (`bodyText`) and hands yoga the parsed object (app.ts).
 */
/**
 * 413 for a body that declared no length and ran past the limit, with the connection closed after
 * it (`closing`): the rest of such a body is not read. Kept open, the server went on taking in up to
 * 64 MB more of each to reuse the connection, CPU every other request waited for (bench/hostile.ts).
 * A body whose declared length is over the limit is refused before a byte is read and the connection
 * stays, so a client still sending can read the answer (a reset would lose it).
 */
function refuseTooLarge(c: Context, message: string, { closing }: { closing?: unknown } = {}) {
  if (closing) {
    c.header('Connection', 'close');
    if (closing instanceof IncomingMessage) closeAfterLinger(closing);
  }
  return c.json({ message }, 413);
}

/** How long a connection refused mid-body stays open after its answer, reading nothing. */
const LINGER_MS = 2_000;

/**
 * Closing a socket that still holds unread bytes sends a reset, and a client still writing then
 * fails its next write and drops the 413 it had not read yet (under load it reads late). So the
 * answer and the end of the stream (FIN) go at once, nothing more is read (the client's writes stall
 * on TCP's window, costing no CPU here), and the socket is destroyed LINGER_MS later: nginx's
 * lingering close, without its reading.
 */
function closeAfterLinger(incoming: IncomingMessage) {
  const socket = incoming.socket;
  // @hono/node-server resumes a body left unread once the answer is sent, to drain it: not this one.
  incoming._read = () => {};
  socket.pause();
  let lingering = false;
  // Node's HTTP server calls this once a `Connection: close` answer is written, and destroys at once.
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    if (lingering) return;
    lingering = true;
    setTimeout(() => socket.destroy(), LINGER_MS);
  };
}

/**
 * `isUploadRoute` names the routes whose bodies are a file's bytes (storage's): they keep
 * MAX_UPLOAD_SIZE, checked here on the declared length only.
 */
export function bodyGate(
  config: Config,
  isUploadRoute: (method: string, path: string) => boolean,
): MiddlewareHandler<AppEnv & { Bindings: Partial<HttpBindings> }> {
  return async (c, next) => {
    if (/%00/.test(c.req.url)) return c.json({ message: NUL_MESSAGE }, 400);
    const method = c.req.method;
    // Bodies of these are never read by any route.
    if (SAFE_METHODS.has(method)) return next();
    const declaredHeader = c.req.header('content-length');
    const declared = declaredHeader === undefined ? null : Number(declaredHeader);
    if (isUploadRoute(method, c.req.path)) {
      const max = config.storage.maxUploadSize;
      if (declared !== null && declared > max) {
        return refuseTooLarge(c, `The file is too large (the limit is ${formatBytes(max)}).`);
      }
      return next();
    }
    if (declared !== null && declared > MAX_TEXT_BODY_BYTES) return refuseTooLarge(c, TOO_LARGE_MESSAGE);

    const incoming = c.env?.incoming;
    let read: Read;
    if (incoming && 'on' in incoming) {
      // HTTP/1.1: no Content-Length and no Transfer-Encoding means no body.
      if (!declared && c.req.header('transfer-encoding') === undefined) return next();
      // Straight from the socket: a web stream over it costs a good part of a small request (bench/api.ts).
      read = await readIncoming(incoming as IncomingMessage, MAX_TEXT_BODY_BYTES);
    } else {
      const body = c.req.raw.body;
      if (!body) return next();
      read = await readStream(body, MAX_TEXT_BODY_BYTES);
    }
    if ('tooLarge' in read) {
      return refuseTooLarge(c, TOO_LARGE_MESSAGE, { closing: incoming ?? true });
    }
    if ('aborted' in read) return c.json({ message: 'The request body did not arrive whole.' }, 400);

    let text: string;
    try {
      text = utf8.decode(read.bytes);
    } catch {
      return c.json({ message: NOT_UTF8_MESSAGE }, 400);
    }
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    const form = type.includes('application/x-www-form-urlencoded');
    if (text.includes('\u0000') || text.includes('\\u0000')) return c.json({ message: NUL_MESSAGE }, 400);
    if (form) {
      if (/%00/.test(text)) return c.json({ message: NUL_MESSAGE }, 400);
      try {
        decodeURIComponent(text.replaceAll('+', ' '));
      } catch {
        return c.json({ message: NOT_UTF8_MESSAGE }, 400);
      }
    } else if (!type.includes('multipart/') && nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      // Routes read any body that is not a form as JSON, whatever its type says (http/helpers.ts readJson).
      return c.json({ message: TOO_DEEP_MESSAGE }, 400);
    }
    c.set('bodyText', text);
    // GraphQL hands the text on itself (app.ts); making a Request is a good part of a request's cost.
    if (c.req.path !== '/graphql') {
      const raw = c.req.raw;
      c.req.raw = new Request(raw.url, {
        method,
        headers: raw.headers,
        body: read.bytes as Uint8Array<ArrayBuffer>,
        signal: raw.signal,
      });
    }
    return next();
  };
}
