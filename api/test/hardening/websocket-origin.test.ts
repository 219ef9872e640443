import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signedInUser, type TestApp } from '../harness.ts';
import { type Listening, listeningApp } from '../live.ts';

// A page on another site can open a WebSocket to us and the browser attaches the session cookie:
// such a connection must not be admitted, or that page would hear the user's live updates.
let app: TestApp, server: Listening, cookie: string;
beforeAll(async () => {
  [app, server] = await listeningApp();
  cookie = (await signedInUser(app)).cookie;
});
afterAll(() => server.close());

function connect(origin: string | undefined) {
  return new Promise<{ acked: boolean; code?: number }>((resolve) => {
    const socket = new WebSocket(server.ws, 'graphql-transport-ws', {
      headers: { cookie, ...(origin ? { origin } : {}) },
    });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'connection_ack') {
        socket.close();
        resolve({ acked: true });
      }
    });
    socket.on('close', (code) => resolve({ acked: false, code }));
  });
}

it('admits cookie connections from the app’s own pages and refuses them from other sites', async () => {
  expect(await connect(server.http)).toEqual({ acked: true });
  expect(await connect(undefined)).toEqual({ acked: true });
  expect(await connect('https://evil.example')).toEqual({ acked: false, code: 4403 });
});
