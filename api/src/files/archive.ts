import { Hono } from 'hono';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { viewerContext } from '../http/helpers.ts';
import { NotFoundError } from '../shared/errors.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import { archiveEntries } from './files.ts';

/**
 * GET /api/files/archive?ids=a,b,c: several files the viewer may read as one ZIP, streamed. The
 * files are read one after another while the archive is sent, so neither the archive nor a whole
 * file is ever held in memory. Mounted with the storage routes, which own the store.
 */
export function fileArchiveRoutes(deps: Services & { store: ObjectStore }) {
  const routes = new Hono<AppEnv>();
  routes.get('/api/files/archive', async (c) => {
    const ids = (c.req.query('ids') ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    const entries = await archiveEntries(viewerContext(c, deps), ids);
    // Every object is looked up before the first byte goes out: a missing one is a 404 now,
    // not a download that breaks off halfway.
    const sizes = await Promise.all(entries.map((e) => deps.store.stat(e.objectKey)));
    if (sizes.some((info) => info === null)) throw new NotFoundError('File');

    const zip = new ZipFile();
    // A file that cannot be read halfway through ends the download (the browser shows it failed)
    // instead of an unhandled error event ending the server.
    zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error));
    entries.forEach((entry, i) => {
      // Photos and videos are compressed already; storing them as they are costs no CPU.
      zip.addReadStreamLazy(entry.name, { compress: false, size: sizes[i]?.size }, (done) => {
        deps.store.get(entry.objectKey).then(
          (stream) => (stream ? done(null, stream) : done(new NotFoundError('File'), Readable.from([]))),
          (error: unknown) => done(error, Readable.from([])),
        );
      });
    });
    // The total is known at once (every size is); -1 would mean unknown. (@types/yazl leaves the
    // callback's argument out.)
    const length = await new Promise<number>((resolve) =>
      zip.end(undefined, (...total: number[]) => resolve(total[0] ?? -1)),
    );
    const headers = new Headers({
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="scoutbase-${entries.length}-files.zip"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    if (length >= 0) headers.set('Content-Length', String(length));
    return new Response(Readable.toWeb(zip.outputStream as Readable) as ReadableStream, { headers });
  });
  return routes;
}
