import { createReadStream } from 'node:fs';
import { fileTypeFromFile } from 'file-type';

/** The kinds of file the workspace takes. */
export const ACCEPTED_EXTENSIONS = [
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'mp4',
  'mov',
  'avi',
  'mkv',
  'pdf',
  'txt',
  'md',
  'doc',
  'docx',
];

// What the bytes' signature says (file-type's names) → the type we store and serve.
const BY_SIGNATURE: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  // Old Word files are OLE compound files; checked further below (so are .msi installers).
  cfb: 'application/msword',
};

export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export type Detected = { ok: true; mimeType: string } | { ok: false; found: string };

/**
 * The type of a stored file judged from its bytes, never from its name: a renamed program is
 * refused whatever it is called. Plain text and Markdown have no signature; they pass when the
 * bytes are UTF-8 text.
 */
export async function detectFileType(file: string): Promise<Detected> {
  const found = await fileTypeFromFile(file);
  if (found) {
    const mimeType = BY_SIGNATURE[found.ext];
    if (!mimeType) return { ok: false, found: found.ext };
    if (found.ext === 'cfb' && !(await containsWordStream(file))) return { ok: false, found: 'cfb' };
    return { ok: true, mimeType };
  }
  return (await isUtf8Text(file)) ? { ok: true, mimeType: 'text/plain' } : { ok: false, found: 'binary data' };
}

async function isUtf8Text(file: string) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(file)) {
      const bytes = chunk as Buffer;
      // NUL never appears in text; other control bytes (tab, newline, form feed…) may.
      if (bytes.includes(0)) return false;
      decoder.decode(bytes, { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** A Word document's compound file has a "WordDocument" stream in its directory. */
async function containsWordStream(file: string) {
  const marker = Buffer.from('WordDocument', 'utf16le');
  let tail = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { end: 8 * 1024 * 1024 })) {
    const window = Buffer.concat([tail, chunk as Buffer]);
    if (window.includes(marker)) return true;
    tail = window.subarray(Math.max(0, window.length - marker.length));
  }
  return false;
}

export function describeAccepted() {
  return ACCEPTED_EXTENSIONS.join(', ');
}
