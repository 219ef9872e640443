import { createHash } from 'node:crypto';
import type { TestApp } from '../../test/harness.ts';
import { claimUpload } from './uploads.ts';

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
