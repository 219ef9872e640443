import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, type SignedInUser, type TestApp } from '../../test/harness.ts';
import { type Listening, listeningApp } from '../../test/live.ts';
import { makeGallery } from '../galleries/testing.ts';
import { answerEncoding } from './compression.ts';

let app: TestApp, server: Listening, user: SignedInUser;
beforeAll(async () => {
  [app, server] = await listeningApp();
  user = await signedInUser(app);
  for (let i = 0; i < 30; i++) await makeGallery(app, user.cookie, { name: `Harbour location ${i}` });
});
afterAll(() => server?.close());

const LIST = '{ galleries(first: 30) { edges { node { id name description projectName location } } } }';

/** A POST /graphql on the wire, as a browser sends it, with the raw bytes of the answer. */
function post(query: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }>(
    (resolve, reject) => {
      const body = JSON.stringify({ query });
      const sent = request(
        `${server.http}/graphql`,
        {
          method: 'POST',
          headers: { cookie: user.cookie, 'content-type': 'application/json', accept: 'application/json', ...headers },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () =>
            resolve({ status: answer.statusCode ?? 0, headers: answer.headers, bytes: Buffer.concat(chunks) }),
          );
        },
      );
      sent.on('error', reject);
      sent.end(body);
    },
  );
}

describe('GraphQL answers on the wire', () => {
  it('come compressed with brotli, else gzip, to a client that accepts it, and read the same', async () => {
    const plain = await post(LIST, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    const text = plain.bytes.toString();
    expect(JSON.parse(text).data.galleries.edges).toHaveLength(30);

    const br = await post(LIST, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.bytes.byteLength);
    expect(br.bytes.byteLength).toBeLessThan(text.length / 3);
    expect(brotliDecompressSync(br.bytes).toString()).toBe(text);

    const gz = await post(LIST, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.bytes).toString()).toBe(text);
  });

  it('stay plain when small, or when the client asks for no encoding it knows', async () => {
    const small = await post('{ viewer { id } }', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString()).data.viewer.id).toBeTruthy();
    const identity = await post(LIST, { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(identity.bytes.toString()).data.galleries.edges).toHaveLength(30);
  });

  it('reads Accept-Encoding as HTTP says: spaces, case and a zero weight', () => {
    expect(answerEncoding('gzip, deflate, br')).toBe('br');
    expect(answerEncoding(' GZIP ')).toBe('gzip');
    expect(answerEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(answerEncoding('br; q=0.0')).toBeNull();
    expect(answerEncoding(null)).toBeNull();
    expect(answerEncoding('deflate')).toBeNull();
  });
});
