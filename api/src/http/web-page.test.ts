import { describe, expect, it } from 'vitest';
import { imagePreloads } from './web-page.ts';

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

  it('names none for an answer without the list (refused, another shape, cut short)', () => {
    for (const text of [JSON.stringify({ data: { gallery: null } }), JSON.stringify({ errors: [{}] }), '{"data":']) {
      expect(imagePreloads(text, rule)).toBe('');
    }
  });
});
