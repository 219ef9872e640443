import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Answers smaller than this gain less from compression than its headers and CPU cost. */
const SMALLEST = 1024;
const JSON_ANSWER = /^application\/(?:graphql-response\+)?json\b/i;

/** The encoding to use among those a client accepts (`br` before `gzip`), or null. */
export function answerEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, weight]) => !/^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(weight ?? ''))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

// Brotli quality 4 packs JSON as tight as gzip -6 in about the same time (quality 5 took twice as
// long); gzip level 1 packs JSON full of ids within a few per cent of level 6, twice as fast.
const brotliParams = (sizeHint = 0) => ({
  [constants.BROTLI_PARAM_QUALITY]: 4,
  [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
});
const GZIP_LEVEL = 1;

/** Text made per request (an answer), packed for the wire. */
export function compressText(text: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(text, { params: brotliParams(text.byteLength) })
    : gzipped(text, { level: GZIP_LEVEL });
}

/**
 * Text sent in parts as it is made (a page whose head goes before the answers it carries), packed
 * as one stream: `flush` sends what was written so far.
 */
export function compressingStream(encoding: 'br' | 'gzip') {
  const stream =
    encoding === 'br' ? createBrotliCompress({ params: brotliParams() }) : createGzip({ level: GZIP_LEVEL });
  return {
    stream,
    flush: () => stream.flush(encoding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH),
  };
}

/**
 * Compresses GraphQL answers that come whole (JSON, not event streams). A screen's data is the one
 * text the build cannot compress ahead: a gallery's first page of photos is tens of kilobytes of
 * JSON, which on a phone's network is most of the wait before its thumbnails are asked for.
 * Done on libuv's threads, so the event loop goes on meanwhile. (Compressed answers that mix a
 * secret with text an attacker chose could leak it, BREACH-style, but another site cannot send
 * signed-in GraphQL requests: the session cookie is SameSite and http/security.ts refuses them.)
 */
export const compressAnswers: Plugin = {
  async onResponse({ request, response, setResponse, fetchAPI }) {
    const encoding = answerEncoding(request.headers.get('accept-encoding'));
    const type = response.headers.get('content-type') ?? '';
    if (!encoding || !response.body || response.headers.has('content-encoding') || !JSON_ANSWER.test(type)) return;
    const text = Buffer.from(await response.arrayBuffer());
    const headers = new fetchAPI.Headers(response.headers);
    headers.append('vary', 'Accept-Encoding');
    let body: Buffer = text;
    if (text.byteLength >= SMALLEST) {
      body = await compressText(text, encoding);
      headers.set('content-encoding', encoding);
    }
    headers.set('content-length', String(body.byteLength));
    // zlib's and arrayBuffer()'s buffers are plain ArrayBuffers, never shared ones.
    setResponse(
      new fetchAPI.Response(body as Uint8Array<ArrayBuffer>, {
        status: response.status,
        statusText: response.statusText,
        headers,
      }),
    );
  },
};
