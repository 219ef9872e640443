import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config.ts';
import { CONNECTION_SCRIPT_HASH } from '../imports/connection-page.ts';
import { tileImageSources } from '../map/rest.ts';
import { uploadthingConnectSources } from '../storage/uploadthing-routes.ts';
import type { AppEnv } from './env.ts';

/**
 * Headers every answer carries. The content security policy allows scripts only from the app's
 * own origin (no inline scripts, no eval), so an injected <script> or handler never runs; styles
 * may be inline (the UI kit positions popovers with style attributes). Pages may not be framed.
 * The policy is applied in production only: GraphiQL (development) runs inline scripts.
 */
export function securityHeaders(config: Config): MiddlewareHandler<AppEnv> {
  const https = config.publicUrl?.startsWith('https://') ?? false;
  const headers = secureHeaders({
    contentSecurityPolicy:
      config.env === 'production'
        ? {
            defaultSrc: ["'self'"],
            // …and the import connection page's one fixed script, by its hash.
            scriptSrc: ["'self'", CONNECTION_SCRIPT_HASH],
            styleSrc: ["'self'", "'unsafe-inline'"],
            // Thumbnails are served here; map tiles, signed UploadThing reads and Google avatars
            // come from elsewhere over https, and tiles from MAP_TILE_URL's host (maybe plain http on
            // a studio network); previews of files being uploaded are blob: URLs.
            imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...tileImageSources(config.map)],
            mediaSrc: ["'self'", 'blob:', 'https:'],
            // …and, with UploadThing, its ingest servers: browsers send the bytes there directly.
            connectSrc: [
              "'self'",
              ...(config.publicUrl ? [config.publicUrl.replace(/^http/, 'ws')] : []),
              ...uploadthingConnectSources(config.storage),
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
  return async (c, next) =>
    headers(c as never, async () => {
      await next();
      // Some answers (Auth.js redirects, proxied fetches) come with immutable headers: copy them.
      try {
        c.res.headers.set('x-content-type-options', 'nosniff');
      } catch {
        c.res = new Response(c.res.body, c.res);
      }
    });
}

/** The origin the browser used: behind a trusted proxy, the one the proxy was asked for. */
function requestOrigin(request: Request, trustProxy: boolean) {
  const url = new URL(request.url);
  if (!trustProxy) return url.origin;
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() ?? request.headers.get('host');
  return `${proto || url.protocol.replace(':', '')}://${host || url.host}`;
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

/** The largest JSON, form or text body any route takes (GraphQL's limit before: yoga's default). */
export const MAX_TEXT_BODY_BYTES = 25_000_000;
const TOO_LARGE_MESSAGE = 'The request is too large (at most 25 MB of JSON or text).';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL anywhere in a query string or a JSON or form body
 * would fail deep in a write. No field of the app accepts one: refuse it at the door. The door reads
 * such bodies whole, so it also holds them to MAX_TEXT_BODY_BYTES.
 */
export function refuseNulCharacters(): MiddlewareHandler<AppEnv> {
  const tooLarge = (c: Context<AppEnv>) => c.json({ message: TOO_LARGE_MESSAGE }, 413);
  // Only for bodies without a declared length (chunked): it counts bytes as they come.
  const counted = bodyLimit({ maxSize: MAX_TEXT_BODY_BYTES, onError: tooLarge });
  return async (c, next) => {
    const url = c.req.url;
    if (/%00/.test(url)) return c.json({ message: NUL_MESSAGE }, 400);
    const type = c.req.header('content-type') ?? '';
    if (
      SAFE_METHODS.has(c.req.method) ||
      !(type.includes('json') || type.includes('x-www-form-urlencoded') || type.includes('text/plain'))
    ) {
      return next();
    }
    const check = async () => {
      // Read once, straight from the socket (clone() made the full Request and split its body into
      // two web streams, about 0.4 ms of a GraphQL request: bench/api.ts).
      const raw = c.req.raw;
      const text = await raw.text();
      const form = type.includes('x-www-form-urlencoded') && /%00/.test(text);
      if (form || text.includes('\u0000') || text.includes('\\u0000')) {
        return c.json({ message: NUL_MESSAGE }, 400);
      }
      c.set('bodyText', text);
      // GraphQL hands the text on itself (app.ts); making a Request is a good part of a request's cost.
      if (c.req.path !== '/graphql') {
        c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body: text, signal: raw.signal });
      }
      return next();
    };
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) {
      // The answer check returns (a refusal) passes back through bodyLimit, which returns it.
      return counted(c, check as () => Promise<void>);
    }
    return Number(declared) > MAX_TEXT_BODY_BYTES ? tooLarge(c) : check();
  };
}
