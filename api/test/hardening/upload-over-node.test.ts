import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { setTimeout } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploadUrl } from '../../src/storage/testing.ts';
import { signedInUser, type TestApp } from '../harness.ts';
import { type Listening, listeningApp } from '../live.ts';

// On a Node server a PUT's bytes go from the socket to the scratch file as Node streams: a web
// stream between them (the Request body, then Readable.fromWeb back) was work per chunk that the
// bytes do not need (bench/upload.ts, the 50 MB file).

let app: TestApp;
let server: Listening;
let origin: string;
beforeAll(async () => {
  [app, server] = await listeningApp();
  origin = server.http;
});
afterAll(() => server.close());

describe('a PUT to an upload URL on a Node server', () => {
  it('reads the bytes straight from the socket, with the same checksum', async () => {
    const who = await signedInUser(app);
    const url = new URL(await uploadUrl(app, who));
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3 * 1024 * 1024)]);
    const fromWeb = vi.spyOn(Readable, 'fromWeb');
    const answer = await fetch(`${origin}${url.pathname}${url.search}`, {
      method: 'PUT',
      headers: { cookie: who.cookie },
      body: bytes,
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      size: bytes.length,
      checksum: createHash('sha256').update(bytes).digest('hex'),
      mimeType: 'application/pdf',
    });
    expect(fromWeb).not.toHaveBeenCalled();
    fromWeb.mockRestore();
  });

  it('keeps the upload open for another try when the connection drops midway', async () => {
    const who = await signedInUser(app);
    const url = new URL(await uploadUrl(app, who));
    const id = url.pathname.split('/').pop() as string;
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1024 * 1024)]);
    const socket = connect(Number(new URL(origin).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${who.cookie}\r\n` +
        `Content-Length: ${bytes.length}\r\n\r\n`,
    );
    socket.write(bytes.subarray(0, 200 * 1024));
    for (let i = 0; i < 200 && !app.storage.deps.receiving.has(id); i++) await setTimeout(10);
    expect(app.storage.deps.receiving.has(id)).toBe(true);
    socket.destroy();
    for (let i = 0; i < 200 && app.storage.deps.receiving.has(id); i++) await setTimeout(10);
    expect(app.storage.deps.receiving.has(id)).toBe(false);
    const row = await app.database.prisma.upload.findUniqueOrThrow({ where: { id } });
    expect({ status: row.status, reservedBytes: row.reservedBytes }).toEqual({ status: 'pending', reservedBytes: 0n });
    const again = await fetch(`${origin}${url.pathname}${url.search}`, {
      method: 'PUT',
      headers: { cookie: who.cookie },
      body: bytes,
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ size: bytes.length });
  });
});
