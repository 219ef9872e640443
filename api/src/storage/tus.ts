import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { EVENTS, Server, type Upload as TusUpload } from '@tus/server';
import type { Context } from 'hono';
import type { Viewer } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { requireViewer } from '../http/helpers.ts';
import { ConflictError, DomainError, NotFoundError } from '../shared/errors.ts';
import {
  finishUpload,
  PayloadTooLargeError,
  removeTusLeftovers,
  storageUsage,
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
      const upload = await deps.db.upload.findUnique({ where: { id }, select: { maxSize: true } });
      return Number(upload?.maxSize ?? deps.config.storage.maxUploadSize);
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
      if (upload.size !== undefined) {
        const usage = await storageUsage(deps, viewer.id);
        if (usage.usedBytes + upload.size > usage.quotaBytes) {
          throw asTusError(
            new PayloadTooLargeError(
              `Storage quota exceeded: this file needs more room than is left. Delete some files to make room.`,
            ),
          );
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
        const usage = await storageUsage(deps, upload.userId);
        if (usage.usedBytes + size > usage.quotaBytes) {
          throw new PayloadTooLargeError('Storage quota exceeded: this file needs more room than is left.');
        }
        const result = await finishUpload(deps, upload, file, { size, checksum: await sha256Of(file) });
        deps.events.publish('upload:progress', upload.userId, {
          uploadId: upload.id,
          received: size,
          total: size,
          status: 'uploaded',
        });
        return {
          status_code: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(result),
        };
      } catch (error) {
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

  /** Answers one tus request for the signed-in viewer. */
  return async function handle(c: Context<AppEnv>) {
    const viewer = requireViewer(c);
    const id = c.req.param('id');
    if (id !== undefined) {
      const upload = uploadIdFrom(`/objects/uploads/${id}`)
        ? await deps.db.upload.findUnique({ where: { id: id.toLowerCase() } })
        : null;
      if (!upload || upload.userId !== viewer.id) throw new NotFoundError('Upload');
    }
    if (c.req.method === 'GET') return c.json({ message: 'Resumable uploads take HEAD, PATCH and DELETE here.' }, 405);
    const request = c.req.raw;
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
      response = await server.handleWeb(request);
    } finally {
      if (patching) {
        deps.receiving.delete(patching);
        uploaders.delete(patching);
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
