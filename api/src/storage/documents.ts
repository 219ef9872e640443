import type { Readable } from 'node:stream';
import mammoth from 'mammoth';
import sanitizeHtml from 'sanitize-html';
import yauzl from 'yauzl';
import { domainError } from '../shared/errors.ts';
import { formatBytes } from '../shared/format.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import { nextEntry } from '../infra/zip-entries.ts';

// The File Manager's preview of a Word document: a .docx turned into HTML (mammoth), then cleaned
// (sanitize-html) down to text structure and embedded pictures. Documents are hostile input: the
// HTML is also shown only in a sandboxed frame without scripts (web FilePreview).

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const DOC_TYPE = 'application/msword';

/** Larger documents are not converted (the whole file is read into memory): they are downloaded. */
export const PREVIEW_MAX_BYTES = 20 * 1024 * 1024;
/** What a document's parts may unpack to, all together: a small ZIP may unpack to gigabytes. */
const UNPACKED_MAX_BYTES = 200 * 1024 * 1024;
const PARTS_MAX = 10_000;
/** Converted previews kept in memory per server, newest used last out. */
const CACHE_MAX_CHARS = 32 * 1024 * 1024;

export class NotPreviewableError extends domainError(422, 'NOT_PREVIEWABLE') {}

const DAMAGED =
  'This document could not be read: the .docx file is damaged or is not a Word document. Download it to open it.';

/** Why a stored file of this type has no HTML preview, or null when it has one. */
export function noPreviewReason(mimeType: string | null, size: number): string | null {
  if (mimeType === DOC_TYPE) return 'Preview is not available for .doc files; download to open it.';
  if (mimeType !== DOCX_TYPE) return 'Only Word documents (.docx) have a document preview.';
  if (size > PREVIEW_MAX_BYTES) {
    return `This document is ${formatBytes(size)}; previews are made for documents up to ${formatBytes(PREVIEW_MAX_BYTES)}. Download it to open it.`;
  }
  return null;
}

const DATA_IMAGE = /^data:image\/(png|jpeg|gif);base64,[a-z0-9+/=\s]*$/i;

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'blockquote',
    'ul',
    'ol',
    'li',
    'table',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'a',
    'img',
  ],
  allowedAttributes: {
    a: [
      'href',
      'id',
      { name: 'target', values: ['_blank'] },
      { name: 'rel', values: ['noopener', 'noreferrer'], multiple: true },
    ],
    img: ['src', 'alt'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    // Footnotes and endnotes link to their ids.
    li: ['id'],
  },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: { img: ['data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // A link goes out of the frame into a tab of its own; a link to a footnote stays in the document.
  transformTags: {
    a: (tagName, attribs) => {
      const { href, id } = attribs;
      const out: Record<string, string> = {};
      if (id) out.id = id;
      if (href?.startsWith('#')) out.href = href;
      else if (href && /^https?:\/\//i.test(href))
        Object.assign(out, { href, target: '_blank', rel: 'noopener noreferrer' });
      return { tagName, attribs: out };
    },
  },
  // Only pictures of the kinds every browser shows, inline: never SVG (it may carry script) or a URL.
  exclusiveFilter: (frame) => frame.tag === 'img' && !DATA_IMAGE.test(frame.attribs.src ?? ''),
};

/** Documents' HTML as the preview may show it: structure, emphasis, http(s) links and inline pictures. */
export function sanitizePreviewHtml(html: string) {
  return sanitizeHtml(html, SANITIZE);
}

/** A stored document's bytes, at most PREVIEW_MAX_BYTES of them (the row's size is checked first). */
export async function readDocument(store: ObjectStore, key: string): Promise<Buffer> {
  const stream = await store.get(key);
  if (!stream) throw new NotPreviewableError(DAMAGED);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > PREVIEW_MAX_BYTES) {
      stream.destroy();
      throw new NotPreviewableError(noPreviewReason(DOCX_TYPE, size) ?? DAMAGED);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif']);

/** The preview's HTML of a .docx's bytes; NotPreviewableError when they are not a readable document. */
export async function documentPreviewHtml(bytes: Buffer): Promise<string> {
  await checkUnpackedSize(bytes);
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      {
        // A document may carry its own style map (which could name any element) and link files
        // on the server's disk: neither is followed.
        includeEmbeddedStyleMap: false,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async (image) =>
          IMAGE_TYPES.has(image.contentType)
            ? { src: `data:${image.contentType};base64,${await image.readAsBase64String()}` }
            : { src: '' },
        ),
      },
    );
    html = result.value;
  } catch {
    throw new NotPreviewableError(DAMAGED);
  }
  return sanitizePreviewHtml(html);
}

/**
 * Reads every part of the ZIP once, counting what it unpacks to, before mammoth (JSZip) unpacks
 * the parts it needs into memory: a part that unpacks to more than its header says (yauzl checks)
 * or parts adding up past UNPACKED_MAX_BYTES are refused before they fill the memory.
 */
async function checkUnpackedSize(bytes: Buffer) {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  } catch {
    throw new NotPreviewableError(DAMAGED);
  }
  let total = 0;
  let parts = 0;
  try {
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) break;
      parts += 1;
      total += entry.uncompressedSize;
      if (parts > PARTS_MAX || total > UNPACKED_MAX_BYTES) {
        throw new NotPreviewableError(
          `This document unpacks to more than ${formatBytes(UNPACKED_MAX_BYTES)}, too much to preview. Download it to open it.`,
        );
      }
      if (!entry.fileName.endsWith('/')) await drain(await zip.openReadStreamPromise(entry));
    }
  } catch (error) {
    if (error instanceof NotPreviewableError) throw error;
    throw new NotPreviewableError(DAMAGED);
  } finally {
    zip.close();
  }
}

async function drain(stream: Readable) {
  for await (const _chunk of stream) {
    // Counted by yauzl against the part's declared size.
  }
}

/**
 * Previews made, by upload id (an upload's bytes never change: a new version is a new upload).
 * Two requests for the same document while it converts share the one conversion.
 */
export function createPreviewCache(maxChars = CACHE_MAX_CHARS) {
  const kept = new Map<string, string>();
  const converting = new Map<string, Promise<string>>();
  let chars = 0;
  const remember = (key: string, html: string) => {
    if (html.length > maxChars || kept.has(key)) return;
    kept.set(key, html);
    chars += html.length;
    for (const [oldest, value] of kept) {
      if (chars <= maxChars) break;
      kept.delete(oldest);
      chars -= value.length;
    }
  };
  return {
    get(key: string, convert: () => Promise<string>): Promise<string> {
      const hit = kept.get(key);
      if (hit !== undefined) {
        kept.delete(key);
        kept.set(key, hit);
        return Promise.resolve(hit);
      }
      let running = converting.get(key);
      if (!running) {
        running = convert().then(
          (html) => {
            converting.delete(key);
            remember(key, html);
            return html;
          },
          (error: unknown) => {
            converting.delete(key);
            throw error;
          },
        );
        converting.set(key, running);
      }
      return running;
    },
  };
}

export type PreviewCache = ReturnType<typeof createPreviewCache>;
