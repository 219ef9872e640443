import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { docxParts } from '../../test/docx.ts';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople } from '../../test/harness.ts';
import { createPreviewCache, DOC_TYPE, DOCX_TYPE, noPreviewReason, sanitizePreviewHtml } from './documents.ts';
import { fileRecord, uploaded } from './testing.ts';

// The File Manager's preview of Word documents: GET /objects/uploads/:id/html answers { html }.

let app: TestApp, owner: User, stranger: User;
beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

/** A .docx (a ZIP of XML parts) with `body` as its document's body and `links` as its hyperlinks. */
async function docx(body: string, { links = {} as Record<string, string>, extra = {} as Record<string, Buffer> } = {}) {
  const parts: Record<string, string | Buffer> = { ...docxParts(body, links), ...extra };
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(parts)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const paragraph = (text: string, style?: string) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const link = (id: string, text: string) => `<w:hyperlink r:id="${id}"><w:r><w:t>${text}</w:t></w:r></w:hyperlink>`;

/** Uploads and files the bytes as the owner's; answers the file's byte path. */
async function filed(bytes: Uint8Array, name: string, mimeType: string) {
  const upload = await uploaded(app, owner, bytes);
  expect(upload.mimeType).toBe(mimeType);
  await fileRecord(app, owner, upload.uploadURL, { name });
  return upload.objectPath;
}

async function preview(objectPath: string, who?: User, headers: Record<string, string> = {}) {
  const response = await app.request(`${objectPath}/html`, { cookie: who?.cookie, headers });
  const text = await response.text();
  return { response, body: (text ? JSON.parse(text) : null) as { html?: string; message?: string } | null };
}

describe('GET /objects/uploads/:id/html', () => {
  it('answers a .docx as cleaned HTML with its heading and text, to those who may read the file only', async () => {
    const bytes = await docx(
      paragraph('Call sheet', 'Heading1') +
        paragraph('Crew meets at the harbour gate at 06:00.') +
        paragraph('&lt;script&gt;alert(1)&lt;/script&gt; &lt;b onclick="steal()"&gt;bold&lt;/b&gt;') +
        `<w:p>${link('rIdBad', 'a trap')} ${link('rIdGood', 'the tide tables')}</w:p>`,
      { links: { rIdBad: 'javascript:alert(1)', rIdGood: 'https://example.com/tides' } },
    );
    const objectPath = await filed(bytes, 'call-sheet.docx', DOCX_TYPE);

    const { response, body } = await preview(objectPath, owner);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = body?.html ?? '';
    expect(html).toContain('<h1>Call sheet</h1>');
    expect(html).toContain('<p>Crew meets at the harbour gate at 06:00.</p>');
    // What the document says stays text; no element, handler or script link comes out of it.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<[^>]+\son\w+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain('<a>a trap</a>');
    expect(html).toContain('<a href="https://example.com/tides" target="_blank" rel="noopener noreferrer">');

    // The same version again: the browser's copy is still good.
    const again = await preview(objectPath, owner, { 'if-none-match': response.headers.get('etag') ?? '' });
    expect(again.response.status).toBe(304);

    // Somebody else, or nobody signed in, is told there is no such file, as for the bytes.
    for (const who of [stranger, undefined]) {
      const refused = await preview(objectPath, who);
      expect(refused.response.status).toBe(404);
      expect(refused.body?.html).toBeUndefined();
      expect((await app.request(objectPath, { cookie: who?.cookie })).status).toBe(404);
    }
  });

  it('answers a damaged .docx with a 422 and a message, never a 500', async () => {
    const brokenXml = await docx('<w:p><w:r><w:t>unclosed');
    const whole = await docx(paragraph('Cut short'));
    // The central directory (the ZIP's last part) is gone, as in a download cut off.
    const truncated = whole.subarray(0, whole.length - 60);
    for (const [name, bytes] of [
      ['broken-xml.docx', brokenXml],
      ['truncated.docx', truncated],
    ] as const) {
      const { response, body } = await preview(await filed(bytes, name, DOCX_TYPE), owner);
      expect(response.status, name).toBe(422);
      expect(body?.message).toMatch(/could not be read.*damaged/);
    }
  });

  it('refuses a document that unpacks to far more than it weighs', async () => {
    const bomb = await docx(paragraph('Tiny'), { extra: { 'word/media/pad.bin': Buffer.alloc(201 * 1024 * 1024) } });
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const objectPath = await filed(bomb, 'bomb.docx', DOCX_TYPE);
    const { response, body } = await preview(objectPath, owner);
    expect(response.status).toBe(422);
    expect(body?.message).toMatch(/unpacks to more than/);
  });

  it('says plainly that a legacy .doc has no preview', async () => {
    // An OLE compound file with a WordDocument stream: what Word 97–2003 writes.
    const doc = Buffer.alloc(2048);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(doc);
    Buffer.from('WordDocument', 'utf16le').copy(doc, 1024);
    const objectPath = await filed(doc, 'old-call-sheet.doc', DOC_TYPE);
    const { response, body } = await preview(objectPath, owner);
    expect(response.status).toBe(422);
    expect(body?.message).toBe('Preview is not available for .doc files; download to open it.');
  });

  it('makes no preview of other kinds of file', async () => {
    const objectPath = await filed(new TextEncoder().encode('plain notes\n'), 'notes.txt', 'text/plain');
    const { response, body } = await preview(objectPath, owner);
    expect(response.status).toBe(422);
    expect(body?.message).toMatch(/Only Word documents/);
  });
});

describe('the preview rules', () => {
  it('keeps structure, emphasis, http(s) links and PNG/JPEG/GIF pictures; drops everything else', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const html = sanitizePreviewHtml(
      '<h2 class="x" style="color:red">Title</h2><p onclick="steal()">Text <strong>bold</strong></p>' +
        '<script>alert(1)</script><style>p{}</style><iframe src="https://x"></iframe>' +
        `<img src="${png}" alt="gate" onerror="steal()"><img src="data:image/svg+xml;base64,PHN2Zz4="><img src="https://tracker.example/x.png">` +
        '<a href="javascript:alert(1)">js</a><a href="//evil.example/">rel</a><a href="#footnote-1" id="ref-1">[1]</a>' +
        '<table><tr><td colspan="2" onmouseover="x()">cell</td></tr></table><ol><li id="footnote-1">note</li></ol>',
    );
    expect(html).toBe(
      '<h2>Title</h2><p>Text <strong>bold</strong></p>' +
        `<img src="${png}" alt="gate" />` +
        '<a>js</a><a>rel</a><a id="ref-1" href="#footnote-1">[1]</a>' +
        '<table><tr><td colspan="2">cell</td></tr></table><ol><li id="footnote-1">note</li></ol>',
    );
  });

  it('converts documents up to 20 MB; a .doc and other types have no preview', () => {
    expect(noPreviewReason(DOCX_TYPE, 20 * 1024 * 1024)).toBeNull();
    expect(noPreviewReason(DOCX_TYPE, 20 * 1024 * 1024 + 1)).toMatch(/previews are made for documents up to 20/);
    expect(noPreviewReason(DOC_TYPE, 10)).toMatch(/not available for \.doc/);
    expect(noPreviewReason('application/pdf', 10)).not.toBeNull();
  });

  it('converts a version once while asked for it twice at the same time, and keeps what it made', async () => {
    // Room for two.
    const cache = createPreviewCache(20);
    let conversions = 0;
    const convert = async () => {
      conversions += 1;
      return '<p>x</p>';
    };
    expect(await Promise.all([cache.get('a', convert), cache.get('a', convert)])).toEqual(['<p>x</p>', '<p>x</p>']);
    expect(await cache.get('a', convert)).toBe('<p>x</p>');
    expect(conversions).toBe(1);
    // A failed conversion is not kept: the next request tries again.
    await expect(cache.get('b', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.get('b', convert)).toBe('<p>x</p>');
    expect(conversions).toBe(2);
    // Past its size the least recently used goes: a was used after b.
    await cache.get('a', convert);
    await cache.get('c', convert);
    await cache.get('a', convert);
    expect(conversions).toBe(3);
    await cache.get('b', convert);
    expect(conversions).toBe(4);
  });
});
