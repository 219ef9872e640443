import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { sessionIdFromCookies } from '../auth/sessions.ts';

/** What the web build lists (web/build/preloads.ts): each step's scripts, by who asks and where. */
interface Preloads {
  signedOut: string[];
  signedIn: string[];
  screens: { path: string; files: string[] }[];
}

function matches(pattern: string, pathname: string) {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  return want.length === have.length && want.every((part, i) => part.startsWith(':') || part === have[i]);
}

/**
 * The app's page (index.html), for every address the web app routes itself. The entry finds out
 * who is signed in and then loads that app and its screen: on a phone, round trips one after the
 * other. The cookie already says which app it will be (decoding it reads no database), so the page
 * names those scripts as modulepreloads and the browser fetches them together with the entry.
 */
export function appPage(distDir: string, secret: string): MiddlewareHandler {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const listFile = path.join(distDir, 'preloads.json');
  const preloads: Preloads | null = existsSync(listFile) ? JSON.parse(readFileSync(listFile, 'utf8')) : null;
  // A handful of variants (signed out, and signed in on each screen), each built and compressed once.
  const variants = new Map<string, { html: string; br: Buffer; gzip: Buffer }>();

  const variant = (signedIn: boolean, files: string[]) => {
    const key = `${signedIn} ${files.join(' ')}`;
    let page = variants.get(key);
    if (!page) {
      // The mark tells the entry to start the signed-in app at once (web/src/App.tsx).
      const mark = signedIn ? '    <meta name="scoutbase-session" content="">\n' : '';
      const links = files
        .filter((file) => !html.includes(`"${file}"`))
        .map((file) => `    <link rel="modulepreload" crossorigin href="${file}">\n`)
        .join('');
      const text = html.replace('</head>', `${mark}${links}  </head>`);
      page = { html: text, br: brotliCompressSync(text), gzip: gzipSync(text) };
      variants.set(key, page);
    }
    return page;
  };

  return async (c) => {
    const signedIn = (await sessionIdFromCookies(c.req.header('cookie') ?? null, secret)) !== null;
    let files: string[] = [];
    if (preloads) {
      files = signedIn
        ? [
            ...new Set([
              ...preloads.signedIn,
              ...(preloads.screens.find((s) => matches(s.path, c.req.path))?.files ?? []),
            ]),
          ]
        : preloads.signedOut;
    }
    const page = variant(signedIn, files);
    c.header('Content-Type', 'text/html; charset=UTF-8');
    // It names the current build's files, so it is checked on every visit (see webCacheHeaders).
    c.header('Cache-Control', 'no-cache');
    c.header('Vary', 'Accept-Encoding, Cookie');
    const accepts = c.req.header('accept-encoding') ?? '';
    if (/\bbr\b/.test(accepts)) {
      c.header('Content-Encoding', 'br');
      return c.body(new Uint8Array(page.br));
    }
    if (/\bgzip\b/.test(accepts)) {
      c.header('Content-Encoding', 'gzip');
      return c.body(new Uint8Array(page.gzip));
    }
    return c.body(page.html);
  };
}
