import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Anthropic's Messages API (POST /v1/messages), speaking its JSON and its
 * server-sent-event stream, so the real SDK can be pointed at it through baseURL.
 */

export type FakeStep =
  | {
      text?: string;
      toolUses?: { id: string; name: string; input: unknown }[];
      /** Stream this many words of the text, then wait for release() before the rest. */
      holdAfterWords?: number;
    }
  | { status: number; errorType: string; message?: string }
  | { hangMs: number };

export interface RecordedRequest {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    stream?: boolean;
    system?: string;
    tools?: { name: string }[];
    messages: { role: string; content: unknown }[];
  };
}

function sse(res: ServerResponse, type: string, data: object) {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

/** The key and model a server pointed at the fake sends it (see `settings`). */
export const FAKE_ANTHROPIC_KEY = 'sk-ant-test-key';
export const FAKE_ANTHROPIC_MODEL = 'claude-test-model';

export async function fakeAnthropic() {
  const requests: RecordedRequest[] = [];
  let steps: FakeStep[] = [];
  let fallback: FakeStep = { text: 'OK' };
  let counter = 0;
  // A held stream waits on `released`; `reachedHold` tells the test it is waiting there.
  let release: () => void = () => {};
  let released = Promise.resolve();
  let reachedHold: () => void = () => {};
  let held = new Promise<void>((resolve) => {
    reachedHold = resolve;
  });

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
    requests.push({ headers: req.headers, body });
    const step = steps.shift() ?? fallback;

    if ('hangMs' in step) {
      const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), step.hangMs);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if ('status' in step) {
      res.writeHead(step.status, { 'content-type': 'application/json', 'retry-after-ms': '1' });
      res.end(
        JSON.stringify({ type: 'error', error: { type: step.errorType, message: step.message ?? step.errorType } }),
      );
      return;
    }

    counter += 1;
    const content: object[] = [];
    if (step.text) content.push({ type: 'text', text: step.text });
    for (const use of step.toolUses ?? [])
      content.push({ type: 'tool_use', id: use.id, name: use.name, input: use.input });
    const stopReason = step.toolUses?.length ? 'tool_use' : 'end_turn';
    const message = {
      id: `msg_${counter}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 10 },
    };
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    sse(res, 'message_start', { message: { ...message, content: [], stop_reason: null } });
    let index = 0;
    if (step.text) {
      sse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      // Word by word, as a real stream arrives.
      const pieces = step.text.match(/\S+\s*/g) ?? [];
      for (const [i, piece] of pieces.entries()) {
        if (i === step.holdAfterWords) {
          reachedHold();
          await released;
        }
        sse(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
      }
      sse(res, 'content_block_stop', { index });
      index += 1;
    }
    for (const use of step.toolUses ?? []) {
      sse(res, 'content_block_start', {
        index,
        content_block: { type: 'tool_use', id: use.id, name: use.name, input: {} },
      });
      sse(res, 'content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(use.input) },
      });
      sse(res, 'content_block_stop', { index });
      index += 1;
    }
    sse(res, 'message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 10 },
    });
    sse(res, 'message_stop', {});
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    /** The server settings that send the assistant to this fake. */
    settings: { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: url, ANTHROPIC_MODEL: FAKE_ANTHROPIC_MODEL },
    requests,
    /** The answers to the next requests, in order; after them, `fallback`. */
    script(next: FakeStep[], otherwise: FakeStep = { text: 'OK' }) {
      steps = [...next];
      fallback = otherwise;
      requests.length = 0;
      released = new Promise<void>((resolve) => {
        release = resolve;
      });
      held = new Promise<void>((resolve) => {
        reachedHold = resolve;
      });
      // Only a step that holds waits for release(); the others stream straight through.
      if (!next.some((step) => 'holdAfterWords' in step)) release();
    },
    /** Resolves once a held stream has sent its first words and is waiting for release(). */
    held: () => held,
    /** Lets a held stream send the rest. */
    release: () => release(),
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
