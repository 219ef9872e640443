import { Hono } from 'hono';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { viewerContext } from '../http/helpers.ts';
import { NotFoundError } from '../shared/errors.ts';
import type { ObjectInfo, ObjectStore } from '../infra/objects/store.ts';
import { type ArchiveEntry, archiveEntries } from './files.ts';

/**
 * GET /api/files/archive?ids=a,b,c: several files the viewer may read as one ZIP, streamed. Mounted
 * with the storage routes, which own the store.
 */
export function fileArchiveRoutes(deps: Services & { store: ObjectStore }) {
  const routes = new Hono<AppEnv>();
  routes.get('/api/files/archive', async (c) => {
    const ids = (c.req.query('ids') ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    const entries = await archiveEntries(viewerContext(c, deps), ids);
    return zipResponse(deps.store, entries, `attachment; filename="scoutbase-${entries.length}-files.zip"`);
  });
  return routes;
}

const STAT_BATCH = 32;

/**
 * A ZIP of the entries' stored bytes, streamed: the objects are read one after another while the
 * archive is sent, so neither the archive nor a whole file is ever held in memory. Two entries of
 * one name become "name.jpg" and "name (1).jpg", as a computer's own download folder would do.
 * The caller has decided the viewer may read every entry.
 */
export async function zipResponse(store: ObjectStore, entries: ArchiveEntry[], contentDisposition: string) {
  // Every object is looked up before the first byte goes out: a missing one is a 404 now,
  // not a download that breaks off halfway.
  // A few at a time: a gallery of 10,000 photos on S3 would otherwise send 10,000 HEADs at once.
  const sizes: (ObjectInfo | null)[] = [];
  for (let i = 0; i < entries.length; i += STAT_BATCH) {
    sizes.push(...(await Promise.all(entries.slice(i, i + STAT_BATCH).map((e) => store.stat(e.objectKey)))));
  }
  if (sizes.some((info) => info === null)) throw new NotFoundError('File');

  const zip = new ZipFile();
  // A file that cannot be read halfway through ends the download (the browser shows it failed)
  // instead of an unhandled error event ending the server.
  zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error));
  const taken = new Set<string>();
  entries.forEach((entry, i) => {
    // Photos and videos are compressed already; storing them as they are costs no CPU.
    zip.addReadStreamLazy(uniqueEntryName(entry.name, taken), { compress: false, size: sizes[i]?.size }, (done) => {
      store.get(entry.objectKey).then(
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
    'Content-Disposition': contentDisposition,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  if (length >= 0) headers.set('Content-Length', String(length));
  return new Response(Readable.toWeb(zip.outputStream as Readable) as ReadableStream, { headers });
}

function uniqueEntryName(name: string, taken: Set<string>) {
  // A ZIP entry name with slashes would make folders (or climb out of them when unpacked).
  const safe = name.replace(/[/\\]/g, '_');
  const dot = safe.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
  let candidate = safe;
  for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
