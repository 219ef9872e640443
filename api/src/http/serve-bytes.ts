import { Readable } from 'node:stream';
import { encodeExtended } from 'content-disposition';
import fresh from 'fresh';
import { parse as parseRange } from 'range-parser';
import type { ByteRange } from '../infra/objects/store.ts';
import { safeFileName } from '../shared/names.ts';

// The one way stored bytes leave the app (a file, a thumbnail, a review link's photo): validators,
// conditional requests and one byte range (RFC 9110 sections 13 and 14), whatever route names them.

/** One object's bytes as served: their size, validators and a way to read them. */
export interface ServedBytes {
  size: number;
  /** A strong entity tag, quoted; the same bytes always carry the same one. */
  etag: string;
  /** When the bytes were written. */
  modified: Date;
  /** The bytes, or the inclusive range of them asked for. */
  open(range: ByteRange | undefined): Promise<Readable>;
}

/**
 * The answer to a GET or HEAD of `bytes`. `headers` are the route's own (type, caching, sandbox,
 * disposition); ETag, Last-Modified, Accept-Ranges and the lengths are added here. Preconditions
 * come in RFC 9110 section 13.2.2's order: a failed If-Match / If-Unmodified-Since is 412, a fresh
 * copy 304, then a Range is 206 (or 416). Refusals are JSON { message }.
 */
export async function serveBytes(request: Request, bytes: ServedBytes, headers: Headers): Promise<Response> {
  const ask = (name: string) => request.headers.get(name) ?? undefined;
  const head = request.method === 'HEAD';
  // HTTP dates have whole seconds; the comparisons below are made on what the client was sent.
  const modified = Math.floor(bytes.modified.getTime() / 1000) * 1000;
  const lastModified = new Date(modified).toUTCString();
  headers.set('ETag', bytes.etag);
  headers.set('Accept-Ranges', 'bytes');
  headers.set('Last-Modified', lastModified);
  const refuse = (status: 412 | 416, message: string) => {
    headers.set('Content-Type', 'application/json');
    headers.delete('Content-Disposition');
    return new Response(head ? null : JSON.stringify({ message }), { status, headers });
  };

  const ifMatch = ask('if-match');
  const ifUnmodifiedSince = httpDate(ask('if-unmodified-since'));
  if (
    ifMatch !== undefined
      ? !strongMatch(ifMatch, bytes.etag)
      : ifUnmodifiedSince !== null && modified > ifUnmodifiedSince
  ) {
    return refuse(412, 'The file is not the version the request was made for.');
  }
  if (notModified(request, bytes.etag, lastModified)) return new Response(null, { status: 304, headers });

  const range = ifRangeHolds(ask('if-range'), bytes.etag, modified) ? byteRange(ask('range'), bytes.size) : undefined;
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${bytes.size}`);
    return refuse(416, 'The requested range is outside the file.');
  }
  const status = range ? 206 : 200;
  if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${bytes.size}`);
  headers.set('Content-Length', String(range ? range.end - range.start + 1 : bytes.size));
  if (head) return new Response(null, { status, headers });
  return new Response(Readable.toWeb(await bytes.open(range)) as ReadableStream, { status, headers });
}

/**
 * Whether the client's copy is current: If-None-Match (compared weakly), else If-Modified-Since.
 * `fresh` sees only the header that counts. Given the whole request it would answer 200 whenever
 * Cache-Control says no-cache and read any date Date.parse takes; here a tag we issued always
 * counts, and only an HTTP date does (RFC 9110 13.1.3), as these routes have always answered.
 */
export function notModified(request: Request, etag: string, lastModified?: string) {
  const ifNoneMatch = request.headers.get('if-none-match');
  // HTTP's optional whitespace is a space or a tab; fresh splits the list on spaces only.
  if (ifNoneMatch !== null) return fresh({ 'if-none-match': ifNoneMatch.replace(/\t/g, ' ') }, { etag });
  const ifModifiedSince = request.headers.get('if-modified-since') ?? undefined;
  if (lastModified === undefined || httpDate(ifModifiedSince) === null) return false;
  return fresh({ 'if-modified-since': ifModifiedSince }, { 'last-modified': lastModified });
}

/** If-Match compares strongly: a weak tag never matches. */
function strongMatch(header: string, etag: string) {
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim() === etag);
}

/** Milliseconds of an HTTP date, or null for anything else (an invalid date is ignored, RFC 9110 13.1.3). */
function httpDate(header: string | undefined) {
  if (!header || !/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(header.trim())) return null;
  const time = Date.parse(header);
  return Number.isNaN(time) ? null : time;
}

/** Whether a Range applies: no If-Range, or one naming exactly these bytes (a strong ETag, or the exact Last-Modified). */
function ifRangeHolds(header: string | undefined, etag: string, modified: number) {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  return httpDate(value) === modified;
}

/**
 * One range, `bytes=a-b`, `bytes=a-` or `bytes=-n`, fitted to the size by range-parser; undefined
 * (the whole file, which RFC 9110 section 14.2 allows) for several ranges, other units or
 * spellings and a malformed range such as a reversed one, so no multipart/byteranges is ever sent.
 */
function byteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const value = header?.trim();
  if (!value || !/^bytes=\d*-\d*$/.test(value)) return undefined;
  const { code, ranges } = parseRange(size, value);
  // Bit 1: malformed (a reversed range, a lone "-"); otherwise no range left means none fits.
  if (code & 1) return undefined;
  return ranges[0] ?? 'unsatisfiable';
}

export interface DispositionOptions {
  /** Shown in place (a picture, a PDF) rather than saved. */
  inline?: boolean;
  /** The name a derived file takes from the original's safe name (a thumbnail's). */
  rename?: (safeName: string) => string;
  /** A name we made, ASCII already: the quoted filename alone, as those downloads have always been named. */
  ascii?: boolean;
}

/**
 * Content-Disposition for a file: its name as a disk takes it (shared/names.ts: no control or
 * text-direction characters, quotes, slashes or backslashes reach the header), quoted in ASCII for
 * old clients and whole in filename* (RFC 8187, content-disposition's encoder). The package's own
 * header is not used: it leaves a name of token characters unquoted and filename* out of an ASCII
 * name, and downloads have always carried both, quoted.
 */
export function contentDisposition(name: string, { inline = false, rename, ascii = false }: DispositionOptions = {}) {
  let clean = safeFileName(name).slice(0, 200).trim();
  if (clean === '_' && name.trim() !== '_') clean = 'file';
  if (rename) clean = rename(clean);
  const fallback = clean.replace(/[^\x20-\x7e]/g, '_').replace(/[%;]/g, '_');
  const header = `${inline ? 'inline' : 'attachment'}; filename="${fallback}"`;
  return ascii ? header : `${header}; filename*=${encodeExtended(clean)}`;
}
