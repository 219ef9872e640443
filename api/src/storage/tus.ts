import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { EVENTS, Server, type Upload as TusUpload } from '@tus/server';
import type { Context } from 'hono';
import type { Viewer } from '../context.ts';
import type { Upload as UploadRow } from '../generated/prisma/client.ts';
import type { AppEnv } from '../http/env.ts';
import { requireViewer } from '../http/helpers.ts';
import { ConflictError, DomainError, NotFoundError } from '../shared/errors.ts';
import {
  finishUpload,
  releaseReservation,
  removeTusLeftovers,
  reserveQuota,
  tusDirectory,
  uploadForToken,
  type StorageDeps,
} from './rules.ts';
import { uploadIdFrom } from './uploads.ts';

// Resumable uploads (the tus protocol) for large files on the local backend. A tus upload is the
// same Upload row as a plain PUT: the client first asks POST /api/objects/upload for an upload URL
// and passes it as the `uploadURL` metadata of the tus creation request; the tus id is the upload
// id, and POST /api/files later claims the same URL. Only the user the URL was made for can send,
// resume or look at it; anyone else gets a 404. POST /api/objects/upload also answers a ready
// tusEndpoint (this path with the upload URL in its query) for clients that send no metadata.

/** The tus endpoint for one upload URL. */
export function tusEndpointFor(origin: string, uploadURL: string) {
  return `${origin}${TUS_PATH}?uploadURL=${encodeURIComponent(uploadURL)}`;
}

export const TUS_PATH = '/api/objects/tus';

function numberHeader(request: Request, name: string) {
  const value = request.headers.get(name);
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

const viewers = new WeakMap<Request, Viewer>();

function asTusError(error: unknown) {
  if (error instanceof DomainError) return { status_code: error.status, body: error.message };
  return error;
}

async function sha256Of(file: string) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function createTusServer(deps: StorageDeps) {
  const directory = tusDirectory(deps.config.dataDir);
  const server = new Server({
    path: TUS_PATH,
    datastore: new FileStore({ directory }),
    relativeLocation: true,
    respectForwardedHeaders: deps.config.trustProxy !== undefined,
    postReceiveInterval: 250,
    maxSize: async (_req, id) => {
      if (!id) return deps.config.storage.maxUploadSize;
      const upload = await deps.db.upload.findUnique({ where: { id }, select: { maxSize: true, reservedBytes: true } });
      const limit = Number(upload?.maxSize ?? deps.config.storage.maxUploadSize);
      // Bytes past the room the upload holds in the quota are not taken (a length declared late).
      const reserved = Number(upload?.reservedBytes ?? 0);
      return reserved > 0 ? Math.min(limit, reserved) : limit;
    },
    async namingFunction(req, metadata) {
      const viewer = viewers.get(req) as Viewer;
      // The upload URL comes as metadata, or in the endpoint's query (tusEndpoint of POST /api/objects/upload).
      const query = new URL(req.url).searchParams;
      const url = metadata?.uploadURL ?? query.get('uploadURL') ?? '';
      const id = uploadIdFrom(url);
      const token = (() => {
        try {
          return new URL(url, 'http://relative.invalid').searchParams.get('token') ?? undefined;
        } catch {
          return undefined;
        }
      })();
      try {
        const upload = await uploadForToken(deps, viewer, id ?? '', token);
        return upload.id;
      } catch (error) {
        throw asTusError(error);
      }
    },
    async onUploadCreate(req, upload) {
      const viewer = viewers.get(req) as Viewer;
      // The whole length is held from the creation on, so uploads racing each other cannot all fit.
      if (upload.size !== undefined) {
        try {
          await reserveQuota(deps, { id: upload.id, userId: viewer.id }, upload.size);
        } catch (error) {
          throw asTusError(error);
        }
      }
      return {};
    },
    async onIncomingRequest(_req, id) {
      // A resumed upload stays alive while its bytes keep coming.
      await deps.db.upload.updateMany({
        where: { id, status: 'pending' },
        data: { expiresAt: new Date(Date.now() + deps.config.storage.uploadUrlTtlSeconds * 1000) },
      });
    },
    async onUploadFinish(_req, tus: TusUpload) {
      const file = path.join(directory, tus.id);
      try {
        const upload = await deps.db.upload.findUnique({ where: { id: tus.id } });
        if (upload?.status !== 'pending') throw new NotFoundError('Upload');
        const size = tus.offset;
        // The bytes fit the room reserved for them (maxSize above holds a PATCH to it).
        const result = await finishUpload(deps, upload, file, { size, checksum: await sha256Of(file) });
        deps.events.publish('upload:progress', upload.userId, {
          uploadId: upload.id,
          received: size,
          total: size,
          status: 'uploaded',
        });
        // tus 1.0 answers the last PATCH 204 and a finishing creation 201 with its Location, so
        // nothing is sent here: what the server made of the bytes is in the X-Upload-* headers
        // and in a HEAD of /objects/uploads/<id> (ETag: the sha256).
        return {
          headers: {
            'X-Upload-Checksum': result.checksum,
            'X-Upload-Mime-Type': result.mimeType,
            'X-Upload-Object-Path': result.objectPath,
          },
        };
      } catch (error) {
        await releaseReservation(deps.db, tus.id).catch(() => {});
        throw asTusError(error);
      } finally {
        await removeTusLeftovers(deps.config.dataDir, tus.id);
      }
    },
  });
  // Whose upload a PATCH is feeding (the progress event carries only the upload).
  const uploaders = new Map<string, string>();
  server.on(EVENTS.POST_RECEIVE, (_req, upload) => {
    const userId = uploaders.get(upload.id);
    if (!userId) return;
    deps.events.publish('upload:progress', userId, {
      uploadId: upload.id,
      received: upload.offset,
      total: upload.size ?? 0,
      status: 'uploading',
    });
  });

  /** Whether a PATCH may go on: the room for its bytes is held (again, if the hold lapsed). */
  async function holdRoomFor(request: Request, upload: { id: string; userId: string; maxSize: bigint }) {
    const stored = await server.datastore.getUpload(upload.id).catch(() => null);
    if (!stored) return;
    const declared = numberHeader(request, 'upload-length');
    const length = stored.size ?? declared;
    if (length !== null && length !== undefined) {
      await reserveQuota(deps, upload, length);
      return;
    }
    // Length deferred and not told yet: this PATCH's bytes, or a step at a time for a chunked one.
    const chunk = numberHeader(request, 'content-length');
    const max = Number(upload.maxSize);
    const atLeast = Math.min(max, stored.offset + (chunk ?? 1));
    await reserveQuota(
      deps,
      upload,
      atLeast,
      chunk === null ? Math.min(max, stored.offset + 4 * 1024 * 1024) : atLeast,
    );
  }

  /** Answers one tus request for the signed-in viewer. */
  return async function handle(c: Context<AppEnv>) {
    // Discovery (tus 1.0 OPTIONS: versions, extensions, size limit) tells nothing about anyone.
    if (c.req.method === 'OPTIONS') {
      const answer = await server.handleWeb(c.req.raw);
      const headers = new Headers(answer.headers);
      headers.set('Tus-Resumable', '1.0.0');
      return new Response(null, { status: 204, headers });
    }
    const viewer = requireViewer(c);
    const version = c.req.header('tus-resumable');
    if (version !== undefined && version !== '1.0.0') {
      return c.json({ message: `This server speaks tus 1.0.0, not ${version}.` }, 412, {
        'Tus-Version': '1.0.0',
        'Tus-Resumable': '1.0.0',
      });
    }
    const id = c.req.param('id');
    let upload: UploadRow | null = null;
    if (id !== undefined) {
      upload = uploadIdFrom(`/objects/uploads/${id}`)
        ? await deps.db.upload.findUnique({ where: { id: id.toLowerCase() } })
        : null;
      if (!upload || upload.userId !== viewer.id) throw new NotFoundError('Upload');
    }
    if (c.req.method === 'HEAD' && upload && (upload.status === 'uploaded' || upload.status === 'claimed')) {
      // The tus bookkeeping is gone once the bytes are filed away; the upload is still complete.
      const size = String(upload.size ?? 0n);
      return new Response(null, {
        status: 200,
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': size,
          'Upload-Length': size,
          'Cache-Control': 'no-store',
        },
      });
    }
    if (c.req.method === 'GET') return c.json({ message: 'Resumable uploads take HEAD, PATCH and DELETE here.' }, 405);
    const request = c.req.raw;
    if (request.method === 'PATCH') {
      const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/offset+octet-stream') {
        return c.json(
          { message: 'A PATCH of a resumable upload has Content-Type application/offset+octet-stream.' },
          415,
          { 'Tus-Resumable': '1.0.0' },
        );
      }
    }
    viewers.set(request, viewer);
    const patching = id !== undefined && request.method === 'PATCH' ? id.toLowerCase() : null;
    if (patching) {
      // One writer at a time per upload, whether it comes by PUT or by tus.
      if (deps.receiving.has(patching)) throw new ConflictError('The bytes of this upload are already arriving.');
      deps.receiving.add(patching);
      uploaders.set(patching, viewer.id);
    }
    let response: Response;
    try {
      if (patching && upload?.status === 'pending') await holdRoomFor(request, upload);
      response = await server.handleWeb(request);
      // A terminated upload gives its room back (its row goes with the cleanup pass).
      if (request.method === 'DELETE' && response.status === 204 && upload)
        await releaseReservation(deps.db, upload.id);
    } finally {
      if (patching) {
        deps.receiving.delete(patching);
        uploaders.delete(patching);
      }
    }
    if (response.status < 300 && ['POST', 'PATCH', 'HEAD'].includes(request.method)) {
      if (!response.headers.has('x-upload-checksum') && (request.method === 'POST' || upload?.status === 'pending')) {
        // The expiration extension: an unfinished upload lives on while its bytes keep coming
        // (each request moves its expiresAt on, see onIncomingRequest and reserveQuota).
        const expires = new Date(Date.now() + deps.config.storage.uploadUrlTtlSeconds * 1000).toUTCString();
        const headers = new Headers(response.headers);
        headers.set('Upload-Expires', expires);
        return new Response(response.body, { status: response.status, headers });
      }
    }
    if (response.status < 400 || request.method === 'HEAD') return response;
    // Refusals explain themselves the way every other endpoint does: {message}.
    const message = (await response.text()).trim() || response.statusText;
    const headers = new Headers(response.headers);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    return new Response(JSON.stringify({ message }), { status: response.status, headers });
  };
}
