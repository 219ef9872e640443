import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TEXT_BODY_BYTES } from '../../src/http/security.ts';
import { signedInUser, testApp, type TestApp } from '../harness.ts';

// On a Node server, GraphQL answers are written by yoga straight to the socket (app.ts), not through
// the web Response every other route returns: the same checks and headers must hold on that path.
let app: TestApp;
let cookie: string;
let origin: string;
let server: ReturnType<typeof serve>;
beforeAll(async () => {
  app = await testApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://scout.example.com' });
  cookie = (await signedInUser(app)).cookie;
  server = serve({ fetch: (req, env) => app.fetch(req, env as never), port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await app.close();
});

const storageQuery = async () => {
  const persisted = JSON.parse(await readFile(app.config.persistedOperationsFile, 'utf8')) as Record<string, string>;
  return Object.entries(persisted).find(([, text]) => text.startsWith('query StorageUsageSlotQuery '))?.[0];
};

function post(body: string, headers: Record<string, string> = {}) {
  return fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, ...headers },
    body,
  });
}

describe('GraphQL on a Node server', () => {
  it('answers with the security headers every other answer carries', async () => {
    const response = await post(JSON.stringify({ doc_id: await storageQuery(), variables: {} }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data?: { viewer?: { storage?: unknown } } };
    expect(body.data?.viewer?.storage).toBeTruthy();
    const page = await fetch(`${origin}/api/health`);
    for (const name of [
      'content-security-policy',
      'strict-transport-security',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
    ]) {
      expect(response.headers.get(name), name).toBe(page.headers.get(name));
      expect(response.headers.get(name), name).toBeTruthy();
    }
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('refuses strangers, other sites, other content types, NUL characters and operation text', async () => {
    const id = await storageQuery();
    const anonymous = await post(JSON.stringify({ doc_id: id }), { cookie: '' });
    expect(anonymous.status).toBe(401);
    const crossSite = await post(JSON.stringify({ doc_id: id }), { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const form = await post(JSON.stringify({ doc_id: id }), { 'content-type': 'text/plain' });
    expect(form.status).toBe(415);
    const nul = await post(JSON.stringify({ doc_id: id, variables: { x: 'a\u0000b' } }));
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({ message: 'The request contains a NUL character, which no field accepts.' });
    const text = await post(JSON.stringify({ query: '{ viewer { id } }' }));
    expect(JSON.stringify(await text.json())).toContain('Only the operations of the Scoutbase web app are accepted.');
  });

  it('refuses a body over the limit, declared or sent in chunks, and keeps serving', async () => {
    const declared = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, 'content-length': String(MAX_TEXT_BODY_BYTES + 1) },
      });
      req.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write('{"doc_id":"');
    });
    expect(declared).toBe(413);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
      });
      req.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(1_000_000, 'a');
      let sent = 0;
      const pump = () => {
        while (sent <= MAX_TEXT_BODY_BYTES) {
          sent += chunk.length;
          if (!req.write(chunk)) return req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(chunked).toBe(413);
    const after = await post(JSON.stringify({ doc_id: await storageQuery(), variables: {} }));
    expect(after.status).toBe(200);
  });
});
