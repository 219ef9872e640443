import { createHash } from 'node:crypto';
import type { TestApp } from '../../test/harness.ts';
import { isProcessing } from './processing.ts';
import { claimUpload, uploadIdFrom } from './uploads.ts';

// Helpers for tests that move bytes through the real upload protocol.

export interface Uploader {
  id: string;
  cookie: string;
}

export async function uploadUrl(app: TestApp, who: Uploader) {
  const response = await app.request('/api/objects/upload', { method: 'POST', cookie: who.cookie });
  if (response.status !== 200) throw new Error(`upload URL refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { uploadURL: string }).uploadURL;
}

/** PUTs the bytes to a fresh upload URL; returns the URL and the raw response. */
export async function put(app: TestApp, who: Uploader, bytes: Uint8Array | string, url?: string) {
  const uploadURL = url ?? (await uploadUrl(app, who));
  const body = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const response = await app.request(uploadURL, { method: 'PUT', cookie: who.cookie, body: body as BodyInit });
  return { uploadURL, response };
}

/**
 * A PUT whose first bytes have arrived and whose body then stays open until `end` closes it (the
 * rest never comes) or cuts it off (a lost connection). Resolves once the server is receiving it.
 */
export async function arrivingPut(app: TestApp, who: Uploader, first: Uint8Array, url?: string) {
  const uploadURL = url ?? (await uploadUrl(app, who));
  let end: (how: 'close' | 'cut') => void = () => {};
  const ended = new Promise<'close' | 'cut'>((resolve) => {
    end = resolve;
  });
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(first);
        return;
      }
      if ((await ended) === 'close') controller.close();
      else controller.error(new Error('connection lost'));
    },
  });
  const answer = app.request(uploadURL, { method: 'PUT', cookie: who.cookie, body, duplex: 'half' } as RequestInit);
  const id = uploadIdFrom(uploadURL) as string;
  for (let i = 0; i < 200 && !app.storage.deps.receiving.has(id); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { uploadURL, id, answer, end };
}

/** Uploads bytes that must be accepted; returns what the server derived. */
export async function uploaded(app: TestApp, who: Uploader, bytes: Uint8Array | string) {
  const { uploadURL, response } = await put(app, who, bytes);
  if (response.status !== 200) throw new Error(`upload refused: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as {
    uploadId: string;
    objectPath: string;
    size: number;
    checksum: string;
    mimeType: string;
    metadata: Record<string, unknown>;
  };
  return { uploadURL, ...body };
}

/** Files an upload as a file record, as POST /api/files does (claim in the same transaction). */
export async function fileRecord(
  app: TestApp,
  who: Uploader,
  uploadURL: string,
  { name = 'location.jpg', isPublic = false }: { name?: string; isPublic?: boolean } = {},
) {
  return app.database.prisma.$transaction(async (tx) => {
    const claim = await claimUpload(tx, { id: who.id } as never, uploadURL);
    return tx.file.create({
      data: {
        ownerId: who.id,
        name,
        originalName: name,
        mimeType: claim.mimeType ?? 'application/octet-stream',
        size: claim.size,
        checksum: claim.checksum,
        objectUrl: uploadURL,
        objectPath: claim.objectPath,
        isPublic,
        metadata: claim.metadata ?? {},
      },
    });
  });
}

export function sha256(bytes: Uint8Array | string) {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Waits until the processing job of an upload (thumbnails, EXIF) has finished: listens for its
 * `upload:processed` event, after checking the row so an event already gone by is not waited for.
 */
export async function processed(app: TestApp, uploadIdOrUrl: string, timeoutMs = 60_000) {
  const uploadId = uploadIdFrom(uploadIdOrUrl) ?? uploadIdOrUrl;
  const db = app.database.prisma;
  const { userId } = await db.upload.findUniqueOrThrow({ where: { id: uploadId }, select: { userId: true } });
  const events = app.services.events.subscribe('upload:processed', userId);
  // The first next() starts listening (the pub/sub's iterators are lazy): before the row is read.
  let next = events.next();
  const timer = setTimeout(() => events.return?.(), timeoutMs);
  try {
    const row = await db.upload.findUniqueOrThrow({ where: { id: uploadId } });
    if (!isProcessing(row.metadata)) return row;
    for (;;) {
      const event = await next;
      if (event.done) throw new Error(`upload ${uploadId} was not processed within ${timeoutMs} ms`);
      if (event.value.uploadId === uploadId) return await db.upload.findUniqueOrThrow({ where: { id: uploadId } });
      next = events.next();
    }
  } finally {
    clearTimeout(timer);
    await events.return?.();
  }
}

/** Uploads bytes that must be accepted and waits for their processing; returns the processed metadata. */
export async function uploadedAndProcessed(app: TestApp, who: Uploader, bytes: Uint8Array | string) {
  const result = await uploaded(app, who, bytes);
  const row = await processed(app, result.uploadId);
  return { ...result, metadata: row.metadata as Record<string, unknown> };
}

/** Collects the uploader's upload:progress events; `finished` answers them all once one says 'uploaded'. */
export function uploadProgress(app: TestApp, userId: string) {
  const iterator = app.services.events.subscribe('upload:progress', userId)[Symbol.asyncIterator]();
  const events: { uploadId: string; status: string; received: number; total: number | null }[] = [];
  const collecting = (async () => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      events.push(next.value);
      if (next.value.status === 'uploaded') break;
    }
  })();
  return {
    async finished() {
      await collecting;
      await iterator.return?.();
      return events;
    },
  };
}
