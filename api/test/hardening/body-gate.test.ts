import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from '../harness.ts';
import { freePort, signUpOver, startServer } from '../server-process.ts';

// Every request body passes one gate (src/http/security.ts): the small limit of JSON, form and text
// routes whatever the Content-Type says or omits, counted while the bytes arrive; NUL characters,
// invalid UTF-8 and deeply nested JSON refused. Run against the real server process, whose event
// loop and memory are what a hostile body attacks.

let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;
let cookie: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-body-gate-'));
  const port = await freePort();
  server = await startServer({
    NODE_ENV: 'development',
    PORT: String(port),
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    DUE_REMINDER_INTERVAL_SECONDS: '0',
    // The limits on sign-ups per address would refuse the many sign-up posts below before their bodies.
    RATE_LIMITS: 'false',
  });
  cookie = (await signUpOver(server.origin, person())).cookie;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The server's resident memory, in bytes, from the kernel. */
function rss() {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
}

/**
 * Sends a body with node:http (fetch would refuse to read an answer that comes before the body is
 * all sent). Resolves with the answer; a connection the server closes after refusing is expected.
 */
function send(
  pathname: string,
  headers: Record<string, string>,
  body: Buffer | { chunk: Buffer; times: number },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // Its own connection, never pooled: the server may close it while the rest of the body is being written.
    const req = httpRequest(`${server.origin}${pathname}`, { method: 'POST', headers, agent: false });
    req.on('socket', (socket) => socket.on('error', () => {}));
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    // Streamed in slices, as a client on a real network sends, so it stops once the server has answered.
    const slices = Buffer.isBuffer(body)
      ? Array.from({ length: Math.ceil(body.length / 65_536) }, (_, i) => body.subarray(i * 65_536, (i + 1) * 65_536))
      : null;
    const times = slices ? slices.length : (body as { times: number }).times;
    // One slice at a time, the next once the last was taken: what is still in flight when the answer
    // comes is little, and the server discards it (@hono/node-server drains a refused body for 500 ms).
    let sent = 0;
    const write = () => {
      if (answered || req.destroyed || sent >= times) return req.end();
      const chunk = slices ? (slices[sent] as Buffer) : (body as { chunk: Buffer }).chunk;
      sent += 1;
      req.write(chunk, () => setImmediate(write));
    };
    write();
  });
}

/** /api/health's slowest answer while `work` runs, polling without pause. */
async function healthWhile(work: Promise<unknown>) {
  let done = false;
  const finished = work.then(
    () => (done = true),
    () => (done = true),
  );
  let slowest = 0;
  let answers = 0;
  while (!done) {
    const started = performance.now();
    const response = await fetch(`${server.origin}/api/health`);
    await response.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
    answers += 1;
  }
  await finished;
  return { slowest, answers };
}

const graphqlBody = (size: number) =>
  Buffer.from(JSON.stringify({ query: '{ viewer { id } }', variables: { padding: 'x'.repeat(size) } }));

describe('oversized bodies', () => {
  it('refuses an 8 MB GraphQL body from a signed-in user with 413 and no stack, without stalling /api/health', async () => {
    const body = graphqlBody(8_000_000);
    const answer = send('/graphql', { 'content-type': 'application/json', cookie }, body);
    const health = await healthWhile(answer);
    const { status, text } = await answer;
    expect(status).toBe(413);
    expect(JSON.parse(text)).toEqual({ message: expect.stringContaining('too large') });
    expect(text).not.toMatch(/ at |node_modules|\/src\//);
    expect(health.answers).toBeGreaterThan(0);
    expect(health.slowest).toBeLessThan(1000);
    // …and GraphQL itself still answers.
    const viewer = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    expect(viewer.status).toBe(200);
  });

  it('lets a client that reads late, still writing its refused body, read the 413 rather than a reset', async () => {
    // A loaded client reads its socket after it writes: the refusal must still be there when it does.
    // Closing a connection with unread bytes sends a reset, and the client's next write then fails and
    // drops the answer; so the server sends its answer and stops reading, and closes only later.
    const { hostname, port } = new URL(server.origin);
    const socket = connect(Number(port), hostname);
    socket.pause();
    const chunk = Buffer.alloc(65_536, 'x');
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    socket.write(
      `POST /graphql HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncookie: ${cookie}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
    );
    const failure = new Promise<string>((resolve) =>
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error')),
    );
    // 300 ms of writing without reading: far past the 1 MB limit the server refuses at.
    const until = performance.now() + 300;
    while (performance.now() < until && !socket.destroyed) {
      if (!socket.write(frame))
        await Promise.race([new Promise((r) => socket.once('drain', r)), new Promise((r) => setTimeout(r, 20))]);
    }
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => (text += data));
    socket.resume();
    const outcome = await Promise.race([
      new Promise<string>((resolve) => socket.on('end', () => resolve('end'))),
      failure,
      new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 5_000)),
    ]);
    socket.destroy();
    expect({ outcome, status: text.split('\r\n')[0] }).toEqual({
      outcome: 'end',
      status: 'HTTP/1.1 413 Payload Too Large',
    });
    expect(text).toContain('too large');
  });

  it('keeps memory flat under large unauthenticated bodies of any or no type sent to sign-up', async () => {
    const before = rss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 20);
    const chunk = randomBytes(1 << 20);
    const types = ['application/octet-stream', 'APPLICATION/JSON', 'multipart/form-data; boundary=x', ''];
    const answers = await Promise.all(
      types.map((type) =>
        send('/api/auth/signup', type ? { 'content-type': type } : {}, { chunk, times: 64 }).catch(
          // The server may close the connection before the client finished writing: refused all the same.
          (error: NodeJS.ErrnoException) => ({
            status: error.code === 'EPIPE' || error.code === 'ECONNRESET' ? 413 : 0,
          }),
        ),
      ),
    );
    clearInterval(sampler);
    peak = Math.max(peak, rss());
    for (const answer of answers) expect(answer.status).toBe(413);
    // Four 64 MB bodies: buffering them would cost hundreds of MB; the gate reads at most 1 MB of each.
    expect(peak - before).toBeLessThan(60 * 1024 * 1024);
  });

  it('refuses a declared length over the limit before reading the body', async () => {
    const answer = await send(
      '/api/galleries',
      { 'content-type': 'application/json', cookie, 'content-length': String(50_000_000) },
      Buffer.from('{"name":'),
    ).catch(() => null);
    expect(answer?.status).toBe(413);
  });
});

describe('text bodies', () => {
  const nulGallery = JSON.stringify({ name: 'a\u0000b' });
  const cases: [string, () => RequestInit][] = [
    ['APPLICATION/JSON', () => ({ headers: { 'content-type': 'APPLICATION/JSON' }, body: nulGallery })],
    ['no type', () => ({ body: new TextEncoder().encode(nulGallery) })],
    ['octet-stream', () => ({ headers: { 'content-type': 'application/octet-stream' }, body: nulGallery })],
    [
      'multipart',
      () => {
        const form = new FormData();
        form.set('name', 'a\u0000b');
        return { body: form };
      },
    ],
  ];

  it.each(cases)('refuses a NUL character sent as %s with 400 and a message', async (_type, init) => {
    const given = init();
    const response = await fetch(`${server.origin}/api/galleries`, {
      method: 'POST',
      ...given,
      headers: { ...(given.headers as Record<string, string>), cookie },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'The request contains a NUL character, which no field accepts.' });
  });

  it('refuses bytes that are not UTF-8, whatever the type says', async () => {
    for (const type of ['application/json', 'application/x-www-form-urlencoded', '']) {
      const bytes = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9, 0xff]), Buffer.from('"}')]);
      const response = await fetch(`${server.origin}/api/galleries`, {
        method: 'POST',
        headers: type ? { 'content-type': type, cookie } : { cookie },
        body: bytes,
      });
      expect(response.status, type).toBe(400);
      expect(await response.json()).toEqual({ message: 'The request body is not valid UTF-8 text.' });
    }
  });

  it('keeps taking ordinary bodies of every form', async () => {
    const json = await fetch(`${server.origin}/api/galleries`, {
      method: 'POST',
      headers: { 'content-type': 'Application/JSON; charset=UTF-8', cookie },
      body: JSON.stringify({ name: 'Harbour café 🌊' }),
    });
    expect(json.status).toBe(201);
    expect(await json.json()).toMatchObject({ name: 'Harbour café 🌊' });
    const form = await fetch(`${server.origin}/api/galleries`, {
      method: 'POST',
      headers: { cookie },
      body: new URLSearchParams({ name: 'Dock' }),
    });
    expect(form.status).toBe(201);
  });
});

describe('JSON depth', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  async function textFile() {
    const slot = await fetch(`${server.origin}/api/objects/upload`, { method: 'POST', headers: { cookie } });
    const { uploadURL } = (await slot.json()) as { uploadURL: string };
    const put = await fetch(uploadURL, { method: 'PUT', headers: { cookie }, body: 'call sheet' });
    expect(put.status).toBe(200);
    const filed = await fetch(`${server.origin}/api/files`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        name: 'notes.txt',
        mimeType: 'text/plain',
        size: 10,
        objectUrl: uploadURL,
        folderId: 'root',
      }),
    });
    expect(filed.status).toBe(201);
    return ((await filed.json()) as { id: string }).id;
  }

  it.each([2_000, 5_000])('refuses metadata nested %i deep with 400 before it is stored', async (depth) => {
    const id = await textFile();
    const patched = await fetch(`${server.origin}/api/files/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', cookie },
      body: `{"metadata":{"deep":${nested(depth)}}}`,
    });
    expect(patched.status).toBe(400);
    expect(await patched.json()).toEqual({ message: expect.stringContaining('nested more than 64 levels deep') });
    const file = (await (await fetch(`${server.origin}/api/files/${id}`, { headers: { cookie } })).json()) as {
      metadata: Record<string, unknown>;
    };
    expect(file.metadata?.deep).toBeUndefined();
  });

  it('refuses deep GraphQL variables the same way, and takes ordinary nesting', async () => {
    const deep = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: `{"query":"{ viewer { id } }","variables":{"x":${nested(100)}}}`,
    });
    expect(deep.status).toBe(400);
    const fine = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: `{"query":"{ viewer { id } }","variables":{"x":${nested(40)}}}`,
    });
    expect(fine.status).toBe(200);
    expect(((await fine.json()) as { data?: unknown }).data).toBeTruthy();
  });
});
