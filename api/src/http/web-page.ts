import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { readCookie, sessionIdFromCookies } from '../auth/sessions.ts';
import { answerEncoding, compressingStream } from '../graphql/compression.ts';
import type { PageRender } from './page-render.ts';
import {
  type BrowserFacts,
  CARRIED_PROFILE,
  CARRIED_READ_AT,
  HELD_PRESSES,
  type Profile,
  PUSH_PERMISSION_COOKIE,
  TIME_ZONE_COOKIE,
} from '../users/contract.ts';

/** A persisted query as the web app sends it first on a screen; `:name` stands for the address's part. */
export interface PageQuery {
  id: string;
  variables: Record<string, unknown>;
  /** Where the screen's first pictures are in the answer, so the page can ask for them itself. */
  firstImages?: FirstImages;
}

/**
 * The first `count` items of the list at `list` (dotted, from the answer's `data`), each item's
 * image at `url` with `suffix` added (the thumbnail the screen shows), skipping an item whose
 * `unless` is true (a photo still being processed has no thumbnail yet). An item whose `dense.when`
 * is there (true, or a URL) also has an image for screens of two device pixels per CSS pixel, at `url` with
 * `dense.suffix`: the browser picks between the two as it does for the screen's `<img srcset>`.
 */
export interface FirstImages {
  list: string;
  url: string;
  suffix: string;
  unless?: string;
  dense?: { when: string; suffix: string };
  count: number;
}

/** What the web build lists (web/build/preloads.ts): each step's scripts, by who asks and where. */
interface Preloads {
  signedOut: string[];
  signedIn: string[];
  screens: { path: string; files: string[]; queries?: PageQuery[] }[];
}

/** How the page gets what it carries for the person asking; null when signed out, refused or failed. */
export interface PageAnswers {
  /** A query's answer, as JSON text. */
  query(c: Context, query: PageQuery): Promise<string | null>;
  /** The person's profile, as GET /api/auth/user gives it. */
  profile(c: Context): Promise<Profile | null>;
}

/** The address's parts named in `pattern` (`/galleries/:id`), or null when it is not that route. */
function matches(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = have[i] as string;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) return null;
  }
  return params;
}

const valueAt = (value: unknown, dotted: string) =>
  dotted.split('.').reduce<unknown>((inner, key) => (inner as Record<string, unknown> | null)?.[key], value);

/**
 * The pictures the screen shows first, from its carried answer, as preloads: the browser asks for
 * them with the page instead of after the app's code has run and rendered. Only paths on this
 * server; every character that could leave the attribute is escaped.
 */
export function imagePreloads(text: string, rule: FirstImages) {
  let list: unknown;
  try {
    list = valueAt(JSON.parse(text), `data.${rule.list}`);
  } catch {
    return '';
  }
  if (!Array.isArray(list)) return '';
  const attribute = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  const urlOf = (item: unknown) => valueAt(item, rule.url);
  return list
    .filter((item) => rule.unless === undefined || valueAt(item, rule.unless) !== true)
    .filter((item) => {
      const url = urlOf(item);
      return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//');
    })
    .slice(0, rule.count)
    .map((item) => {
      const url = urlOf(item) as string;
      const href = attribute(`${url}${rule.suffix}`);
      const dense =
        rule.dense && valueAt(item, rule.dense.when)
          ? ` imagesrcset="${href} 1x, ${attribute(`${url}${rule.dense.suffix}`)} 2x"`
          : '';
      return `    <link rel="preload" as="image" href="${href}"${dense} fetchpriority="high">\n`;
    })
    .join('');
}

/** The screen the web app routes this address to, with the address's parts. */
function screenAt(preloads: Preloads, pathname: string) {
  for (const screen of preloads.screens) {
    const params = matches(screen.path, pathname);
    if (params) return { screen, params };
  }
  return undefined;
}

/** The query with the address's parts in place of its `:name` variables. */
function withParams(query: PageQuery, params: Record<string, string>): PageQuery {
  const variables = Object.fromEntries(
    Object.entries(query.variables).map(([name, value]) => [
      name,
      typeof value === 'string' && value.startsWith(':') ? (params[value.slice(1)] ?? value) : value,
    ]),
  );
  return { ...query, variables };
}

/**
 * The answers as the page carries them (web/src/relay/prefetch.ts reads them): keyed as the web app
 * keys a request (the profile by CARRIED_PROFILE), in a JSON block the browser never runs. Every `<`
 * is escaped, so no text in an answer (a gallery named `</script>`) can end the block.
 */
function answersBlock(answers: { key: string; text: string }[]) {
  const entries = answers.map(({ key, text }) => `${JSON.stringify(key)}:${text}`);
  const json = `{${entries.join(',')}}`.replaceAll('<', '\\u003c');
  return `    <script type="application/json" id="scoutbase-answers">${json}</script>\n`;
}

const ROOT = '<div id="root">';
/** The head's list of the app's scripts, the entry first, for a page that asks for them itself. */
const SCRIPTS_META = 'scoutbase-scripts';
const ENTRY = /\s*<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/g;
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g;

/**
 * The one inline script of a page the server renders (first in its body), which the content
 * security policy allows by its hash. The page shows its buttons before the app's scripts have
 * run, and a press meanwhile would do nothing: it holds such presses for the app to make again once
 * it has taken the page over (web/src/lib/takeover.ts); a link needs no help. And it asks for the
 * app's scripts (named by the head's scoutbase-scripts) only once the screen has painted: the
 * screen needs only its stylesheet, and on a phone's link the scripts would share the bandwidth
 * with it and hold the paint back. A tab opened in the background never paints: it asks at once.
 */
export const TAKE_OVER_SCRIPT = `(function () {
  var held = { buttons: [], hold: function (event) {
    var button = event.target instanceof Element ? event.target.closest('button') : null;
    if (!button) return;
    event.preventDefault();
    event.stopPropagation();
    if (held.buttons.indexOf(button) < 0) held.buttons.push(button);
  } };
  window.${HELD_PRESSES} = held;
  document.addEventListener('click', held.hold, true);
  var asked = false;
  function ask() {
    if (asked) return;
    asked = true;
    var names = document.querySelector('meta[name="${SCRIPTS_META}"]');
    var files = names ? names.content.split(' ') : [];
    for (var i = files.length - 1; i >= 0; i--) {
      var tag = document.createElement(i === 0 ? 'script' : 'link');
      if (i === 0) { tag.type = 'module'; tag.src = files[i]; } else { tag.rel = 'modulepreload'; tag.href = files[i]; }
      tag.crossOrigin = '';
      document.head.appendChild(tag);
    }
  }
  function afterPaint() {
    if (document.visibilityState === 'hidden') return ask();
    requestAnimationFrame(function () { setTimeout(ask, 0); });
  }
  document.addEventListener('DOMContentLoaded', function () {
    var sheet = document.querySelector('link[rel="stylesheet"]');
    if (!sheet || sheet.sheet) return afterPaint();
    sheet.addEventListener('load', afterPaint);
    sheet.addEventListener('error', ask);
  });
})();`;
export const TAKE_OVER_SCRIPT_HASH = `'sha256-${createHash('sha256').update(TAKE_OVER_SCRIPT).digest('base64')}'`;
/** Where index.html's loading screen ends, #root's own end follows it. */
const BOOT_END = '<!--/boot-->';
const STYLESHEET = /<link rel="stylesheet"[^>]*>/g;

/**
 * What the browser has told of itself (web/src/main.tsx), or null when it has not yet said its time
 * zone: its dates could not be shown as it will show them.
 */
function browserFacts(cookies: string | null): BrowserFacts | null {
  const timeZone = readCookie(cookies, TIME_ZONE_COOKIE);
  return timeZone ? { timeZone, pushPermission: readCookie(cookies, PUSH_PERMISSION_COOKIE) ?? null } : null;
}

/** The screen rendered from the carried answers, or null (then the browser renders it). */
async function renderedScreen(
  render: PageRender,
  address: string,
  carried: { key: string; text: string }[],
  browser: BrowserFacts,
) {
  try {
    const answers = Object.fromEntries(carried.map(({ key, text }) => [key, JSON.parse(text)]));
    return await render(address, answers, browser);
  } catch {
    return null;
  }
}

/**
 * The app's page (index.html), for every address the web app routes itself. The entry finds out
 * who is signed in and then loads that app and its screen: on a phone, round trips one after the
 * other. The cookie already says which app it will be (decoding it reads no database), so the page
 * names those scripts as modulepreloads and the browser fetches them together with the entry.
 * For a signed-in person at a screen's bare address, the page also carries their profile and the
 * answers to the screen's and the shell's first queries (`answers` runs them as that person, through
 * the same GraphQL server and rules), so the screen shows once its code has run, without another
 * round trip.
 */
export function appPage(
  distDir: string,
  secret: string,
  answers?: PageAnswers,
  render?: PageRender,
): MiddlewareHandler {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const listFile = path.join(distDir, 'preloads.json');
  const preloads: Preloads | null = existsSync(listFile) ? JSON.parse(readFileSync(listFile, 'utf8')) : null;
  // A handful of variants (signed out, and signed in on each screen), each built and compressed once.
  const variants = new Map<string, { html: string; br: Buffer; gzip: Buffer }>();

  const variant = (signedIn: boolean, files: string[], rendered: boolean) => {
    const key = `${signedIn} ${rendered} ${files.join(' ')}`;
    let page = variants.get(key);
    if (!page) {
      // The mark tells the entry to start the signed-in app at once (web/src/App.tsx).
      const mark = signedIn ? '    <meta name="scoutbase-session" content="">\n' : '';
      const links = files
        .filter((file) => !html.includes(`"${file}"`))
        .map((file) => `    <link rel="modulepreload" crossorigin href="${file}">\n`)
        .join('');
      let text = html.replace('</head>', `${mark}${links}  </head>`);
      if (rendered) {
        // The page's script asks for these once the screen has painted (TAKE_OVER_SCRIPT).
        const head = text.slice(0, text.indexOf('</head>'));
        const files = [...head.matchAll(ENTRY), ...head.matchAll(MODULE_PRELOAD)].map((found) => found[1]);
        const meta = `    <meta name="${SCRIPTS_META}" content="${files.join(' ')}">\n`;
        text = `${head.replace(ENTRY, '').replace(MODULE_PRELOAD, '')}\n${meta}${text.slice(head.length)}`;
      }
      page = { html: text, br: brotliCompressSync(text), gzip: gzipSync(text) };
      variants.set(key, page);
    }
    return page;
  };

  /**
   * The profile and the answers to this screen's first queries; none without the profile, whose
   * absence means no valid session.
   */
  const answersFor = async (c: Context, pageAnswers: PageAnswers, queries: PageQuery[]) => {
    // Before any answer is read: whatever changes after it, the live connection is told of.
    const readAt = new Date().toISOString();
    const [profile, ...texts] = await Promise.all([
      pageAnswers.profile(c).catch(() => null),
      ...queries.map((query) => pageAnswers.query(c, query).catch(() => null)),
    ]);
    if (!profile) return [];
    return [
      { key: CARRIED_PROFILE, text: JSON.stringify(profile), images: '' },
      { key: CARRIED_READ_AT, text: JSON.stringify(readAt), images: '' },
      ...queries.flatMap((query, i) => {
        const text = texts[i];
        const images = text && query.firstImages ? imagePreloads(text, query.firstImages) : '';
        return text ? [{ key: `${query.id} ${JSON.stringify(query.variables)}`, text, images }] : [];
      }),
    ];
  };

  /**
   * What ends the page: the pictures it asks for, the answers it carries, then its own end (from
   * `</body>` on). When the screen is to be rendered here (`browser` known), the page was cut at
   * its #root instead: the rendered screen goes there (the stylesheet before it, so it never
   * paints unstyled), or index.html's loading screen should the render not come about; either
   * way after the script that asks for the app's scripts (the head does not name them then).
   */
  const pageEnd = async (
    c: Context,
    pageAnswers: PageAnswers,
    queries: PageQuery[],
    end: string,
    browser: BrowserFacts | null,
  ) => {
    const carried = await answersFor(c, pageAnswers, queries).catch(() => []);
    const cut = end.lastIndexOf('</body>');
    // The script first: after a stylesheet still on its way it would wait for it, and the page with it.
    const script = browser ? `<script>${TAKE_OVER_SCRIPT}</script>\n    ` : '';
    if (carried.length === 0) return `${script}${end}`;
    const answers = answersBlock(carried);
    const rendered = render && browser && (await renderedScreen(render, c.req.path, carried, browser));
    if (!rendered)
      return `${script}${end.slice(0, cut)}${carried.map((answer) => answer.images).join('')}${answers}${end.slice(cut)}`;
    const stylesheets = end.match(STYLESHEET) ?? [];
    const rest = end.slice(end.indexOf('</div>', end.indexOf(BOOT_END)), cut).replaceAll(STYLESHEET, '');
    const attributes = rendered.dark ? ' data-rendered="" class="dark"' : ' data-rendered=""';
    return `${script}${stylesheets.join('')}\n    <div id="root"${attributes}>${rendered.html}${rest}${answers}${end.slice(cut)}`;
  };

  return async (c) => {
    const signedIn = (await sessionIdFromCookies(c.req.header('cookie') ?? null, secret)) !== null;
    const at = signedIn && preloads ? screenAt(preloads, c.req.path) : undefined;
    const files = !preloads
      ? []
      : signedIn
        ? [...new Set([...preloads.signedIn, ...(at?.screen.files ?? [])])]
        : preloads.signedOut;
    const queries = answers && new URL(c.req.url).search === '' ? at?.screen.queries : undefined;
    const browser = queries && render ? browserFacts(c.req.header('cookie') ?? null) : null;
    const page = variant(signedIn, files, Boolean(browser));
    c.header('Content-Type', 'text/html; charset=UTF-8');
    c.header('Vary', 'Accept-Encoding, Cookie');
    const encoding = answerEncoding(c.req.header('accept-encoding') ?? null);
    if (encoding) c.header('Content-Encoding', encoding);
    if (answers && at && queries) {
      // One person's data: kept by no cache, the browser's included.
      c.header('Cache-Control', 'private, no-store');
      // The head goes at once, so the browser fetches the scripts while the answers are made (the
      // stylesheet, for a screen to be rendered here), and the loading screen with it unless the
      // screen is to be rendered. The scripts are modules, which run once the page has ended, so
      // they find the answers there.
      const cut = browser ? page.html.indexOf(ROOT) : page.html.lastIndexOf('</body>');
      const asked = queries.map((query) => withParams(query, at.params));
      const end = pageEnd(c, answers, asked, page.html.slice(cut), browser);
      const { stream, flush } = encoding ? compressingStream(encoding) : { stream: new PassThrough(), flush: () => {} };
      stream.write(page.html.slice(0, cut));
      flush();
      // A reader gone meanwhile (the tab closed) destroyed the stream: nothing is left to end.
      void end.then((text) => stream.destroyed || stream.end(text));
      return c.body(Readable.toWeb(stream) as ReadableStream<Uint8Array>);
    }
    // It names the current build's files, so it is checked on every visit (see webCacheHeaders).
    c.header('Cache-Control', 'no-cache');
    return c.body(
      encoding === 'br' ? new Uint8Array(page.br) : encoding === 'gzip' ? new Uint8Array(page.gzip) : page.html,
    );
  };
}
