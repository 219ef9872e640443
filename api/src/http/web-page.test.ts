import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encode } from '@auth/core/jwt';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { CARRIED_PROFILE, CARRIED_READ_AT } from '../users/contract.ts';
import type { PageRender } from './page-render.ts';
import { appPage, TAKE_OVER_SCRIPT, TAKE_OVER_SCRIPT_HASH, imagePreloads } from './web-page.ts';

const rule = {
  list: 'gallery.items.edges',
  url: 'node.url',
  suffix: '?variant=grid',
  unless: 'node.file.metadata.processing',
  count: 2,
};
const answer = (urls: unknown[], processing: boolean[] = []) =>
  JSON.stringify({
    data: {
      gallery: {
        items: { edges: urls.map((url, i) => ({ node: { url, file: { metadata: { processing: processing[i] } } } })) },
      },
    },
  });
const hrefs = (html: string) =>
  [...html.matchAll(/<link rel="preload" as="image" href="([^"]*)" fetchpriority="high">/g)].map((m) => m[1]);

describe("a page's first pictures", () => {
  it('names the first ones the screen shows, as the screen asks for them', () => {
    expect(hrefs(imagePreloads(answer(['/objects/a', '/objects/b', '/objects/c']), rule))).toEqual([
      '/objects/a?variant=grid',
      '/objects/b?variant=grid',
    ]);
  });

  it('skips a photo still being processed (no thumbnail yet), and anything but a path on this server', () => {
    const text = answer(
      ['/objects/a', 'https://elsewhere.example/x', '//elsewhere.example/y', 42, '/objects/b', '/objects/c'],
      [true],
    );
    expect(hrefs(imagePreloads(text, rule))).toEqual(['/objects/b?variant=grid', '/objects/c?variant=grid']);
  });

  it('cannot leave the attribute, whatever the path holds', () => {
    const html = imagePreloads(answer(['/objects/"><script>alert(1)</script>&']), rule);
    expect(html).not.toContain('<script');
    expect(hrefs(html)).toEqual(['/objects/&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;&#38;?variant=grid']);
  });

  it("offers a photo's high-density thumbnail beside its grid one, as the grid's <img srcset> does", () => {
    const dense = { ...rule, dense: { when: 'node.file.metadata.thumbnails.grid2x', suffix: '?variant=grid2x' } };
    const edges = [
      { node: { url: '/objects/a', file: { metadata: { thumbnails: { grid: true, grid2x: true } } } } },
      { node: { url: '/objects/b"', file: { metadata: { thumbnails: { grid: true } } } } },
    ];
    const html = imagePreloads(JSON.stringify({ data: { gallery: { items: { edges } } } }), dense);
    expect(html).toBe(
      '    <link rel="preload" as="image" href="/objects/a?variant=grid" imagesrcset="/objects/a?variant=grid 1x, /objects/a?variant=grid2x 2x" fetchpriority="high">\n' +
        '    <link rel="preload" as="image" href="/objects/b&#34;?variant=grid" fetchpriority="high">\n',
    );
  });

  it("offers a cover's high-density thumbnail when the answer names one, not when it is null", () => {
    const covers = {
      list: 'galleries.edges',
      url: 'node.coverImageUrl',
      suffix: '?variant=grid',
      dense: { when: 'node.coverImage2xUrl', suffix: '?variant=grid2x' },
      count: 2,
    };
    const edges = [
      { node: { coverImageUrl: '/objects/a', coverImage2xUrl: '/objects/a?variant=grid2x' } },
      { node: { coverImageUrl: '/objects/b', coverImage2xUrl: null } },
    ];
    const html = imagePreloads(JSON.stringify({ data: { galleries: { edges } } }), covers);
    expect(html.split('\n').map((line) => line.includes('imagesrcset'))).toEqual([true, false, false]);
  });

  it('names none for an answer without the list (refused, another shape, cut short)', () => {
    for (const text of [JSON.stringify({ data: { gallery: null } }), JSON.stringify({ errors: [{}] }), '{"data":']) {
      expect(imagePreloads(text, rule)).toBe('');
    }
  });
});

describe("a signed-in screen's page", () => {
  it('sends its head before the answers it carries are made, then ends with them', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'scoutbase-page-'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><script type="module" src="/assets/entry.js"></script></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(
      path.join(dist, 'preloads.json'),
      JSON.stringify({
        signedOut: [],
        signedIn: ['/assets/app.js'],
        screens: [{ path: '/tasks', files: [], queries: [{ id: 'tasks', variables: {} }] }],
      }),
    );
    const secret = 'a secret long enough for the test, thirty-two bytes or more';
    const token = await encode({ token: { sid: 'a-session' }, secret, salt: SESSION_COOKIE });
    let answer = (_text: string) => {};
    const answered = new Promise<string>((resolve) => {
      answer = resolve;
    });
    const app = new Hono().get(
      '*',
      appPage(dist, secret, {
        query: () => answered,
        profile: async () => ({
          id: 'u1',
          email: 'ana@example.com',
          firstName: 'Ana',
          lastName: null,
          displayName: 'Ana',
          profileImageUrl: null,
          createdAt: '2026-11-28T00:00:00.000Z',
        }),
      }),
    );

    const asked = Date.now();
    const response = await Promise.race([
      app.request('/tasks', { headers: { cookie: `${SESSION_COOKIE}=${token}` } }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the page waited for its answers')), 2000)),
    ]);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    // The answer is still being made: the head, naming the scripts, is already here.
    const first = decoder.decode((await reader.read()).value);
    expect(first).toContain('<script type="module" src="/assets/entry.js">');
    expect(first).toContain('<link rel="modulepreload" crossorigin href="/assets/app.js">');
    expect(first).not.toContain('</body>');

    answer('{"data":{"tasks":[]}}');
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += decoder.decode(part.value);
    const block = rest.match(/<script type="application\/json" id="scoutbase-answers">(.*?)<\/script>/s)?.[1];
    expect(JSON.parse(block ?? 'null')).toMatchObject({
      [CARRIED_PROFILE]: { email: 'ana@example.com' },
      'tasks {}': { data: { tasks: [] } },
    });
    expect(rest).toMatch(/<\/body><\/html>$/);
    // When the answers were read, taken before any was: the live connection asks what changed since.
    const readAt = Date.parse(JSON.parse(block ?? '{}')[CARRIED_READ_AT]);
    expect(readAt).toBeGreaterThanOrEqual(asked);
    expect(readAt).toBeLessThanOrEqual(Date.now());
  });
});

describe("a signed-in screen's page rendered on the server", () => {
  const index =
    '<!doctype html><html><head><link rel="preload" as="style" href="/assets/app.css"></head><body>' +
    '<div id="root"><!--boot--><div class="boot">Loading</div><!--/boot--></div>' +
    '<link rel="stylesheet" href="/assets/app.css"></body></html>';
  const secret = 'a secret long enough for the test, thirty-two bytes or more';

  async function pageFor(render: PageRender, cookies = ['scoutbase-tz=Europe%2FLisbon'], page = index) {
    const dist = mkdtempSync(path.join(tmpdir(), 'scoutbase-page-'));
    writeFileSync(path.join(dist, 'index.html'), page);
    writeFileSync(
      path.join(dist, 'preloads.json'),
      JSON.stringify({
        signedOut: [],
        signedIn: [],
        screens: [{ path: '/tasks', files: [], queries: [{ id: 'tasks', variables: {} }] }],
      }),
    );
    const token = await encode({ token: { sid: 'a-session' }, secret, salt: SESSION_COOKIE });
    const profile = { id: 'u1', email: 'ana@example.com', firstName: 'Ana', lastName: null, displayName: 'Ana' };
    const app = new Hono().get(
      '*',
      appPage(
        dist,
        secret,
        {
          query: async () => '{"data":{"tasks":[]}}',
          profile: async () => ({ ...profile, profileImageUrl: null, createdAt: '' }),
        },
        render,
      ),
    );
    const response = await app.request('/tasks', {
      headers: { cookie: [`${SESSION_COOKIE}=${token}`, ...cookies].join('; ') },
    });
    return response.text();
  }

  it('renders the screen as the browser said it is: its time zone and its notification permission', async () => {
    const told: unknown[] = [];
    await pageFor(
      async (_address, _answers, browser) => {
        told.push(browser);
        return null;
      },
      ['scoutbase-tz=America%2FLima', 'scoutbase-push=denied'],
    );
    expect(told).toEqual([{ timeZone: 'America/Lima', pushPermission: 'denied' }]);
  });

  it('puts the screen in #root with the answers it was made from, the stylesheet before it', async () => {
    const asked: unknown[] = [];
    const html = await pageFor(async (address, answers, browser) => {
      asked.push({ address, answers, browser });
      return { html: '<main><h1>Task Management</h1></main>', dark: true };
    });
    expect(asked).toMatchObject([
      {
        address: '/tasks',
        browser: { timeZone: 'Europe/Lisbon', pushPermission: null },
        answers: { 'tasks {}': { data: { tasks: [] } }, [CARRIED_PROFILE]: { id: 'u1' } },
      },
    ]);
    const body = html.slice(html.indexOf('<body>'));
    expect(body).toMatch(
      /^<body><script>.*?<\/script>\s*<link rel="stylesheet" href="\/assets\/app.css">\s*<div id="root" data-rendered="" class="dark"><main><h1>Task Management<\/h1><\/main><\/div>\s*<script type="application\/json" id="scoutbase-answers">.*<\/script>\n<\/body><\/html>$/s,
    );
    expect(html).not.toContain('boot');
    // Its one inline script is the one the content security policy allows by its hash.
    const script = html.match(/<script>(.*?)<\/script>/s)?.[1] ?? '';
    expect(script).toBe(TAKE_OVER_SCRIPT);
    expect(TAKE_OVER_SCRIPT_HASH).toBe(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  });

  it('asks for its scripts once the screen has painted: on a phone they would hold the stylesheet back', async () => {
    const withScripts = index.replace(
      '</head>',
      '<script type="module" crossorigin src="/assets/entry.js"></script><link rel="modulepreload" crossorigin href="/assets/react.js"></head>',
    );
    const rendered = async () => ({ html: '<main></main>', dark: false });
    for (const html of [
      await pageFor(rendered, undefined, withScripts),
      await pageFor(async () => null, undefined, withScripts),
    ]) {
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head).not.toMatch(/<script|modulepreload/);
      expect(head).toContain('<meta name="scoutbase-scripts" content="/assets/entry.js /assets/react.js">');
      expect(html).toContain(`<script>${TAKE_OVER_SCRIPT}</script>`);
    }
    // Without the time zone the browser renders the screen: its scripts are what it waits for.
    const inBrowser = await pageFor(rendered, [], withScripts);
    expect(inBrowser).toContain(
      '<script type="module" crossorigin src="/assets/entry.js"></script><link rel="modulepreload" crossorigin href="/assets/react.js">',
    );
    expect(inBrowser).not.toContain('scoutbase-scripts');
  });

  it('keeps the loading screen when the screen cannot be rendered there, or the browser has not said its time zone', async () => {
    let renders = 0;
    const cannot: PageRender = async () => {
      renders += 1;
      return null;
    };
    const fails: PageRender = async () => {
      throw new Error('a render that broke');
    };
    for (const html of [await pageFor(cannot), await pageFor(fails), await pageFor(cannot, [])]) {
      expect(html).toContain('<div id="root"><!--boot--><div class="boot">Loading</div><!--/boot--></div>');
      expect(html).not.toContain('data-rendered');
      expect(html).toContain('id="scoutbase-answers"');
    }
    // The page without the time zone cookie was not rendered at all.
    expect(renders).toBe(1);
  });
});
