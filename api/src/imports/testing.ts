import sharp from 'sharp';
import { sendBody, type TestApp } from '../../test/harness.ts';
import type { ImportJobJson } from './contract.ts';

// Shared arrangements for the imports tests (not part of the app).

export function jpeg(color = '#5a7d3c', width = 320, height = 200) {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

/** Like the harness's send, but an answer that is not JSON comes back as its text, with the headers. */
// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely and assert on them
export async function call<T = any>(...request: Parameters<typeof sendBody>) {
  const response = await sendBody(...request);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** Polls GET /api/imports/:id until the job has ended. */
export async function finished(app: TestApp, cookie: string, jobId: string, timeoutMs = 25_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await call<ImportJobJson>(app, cookie, 'GET', `/api/imports/${jobId}`);
    if (status !== 200) throw new Error(`job not readable: ${status} ${JSON.stringify(body)}`);
    if (body.status !== 'running') return body;
    if (Date.now() > until) throw new Error(`import still running: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
