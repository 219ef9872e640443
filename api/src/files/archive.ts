import { Hono } from 'hono';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { viewerContext } from '../http/helpers.ts';
import { contentDisposition } from '../http/serve-bytes.ts';
import { NotFoundError } from '../shared/errors.ts';
import { safeFileName } from '../shared/names.ts';
import type { ObjectInfo, ObjectStore } from '../infra/objects/store.ts';
import { archiveEntries, type ArchiveEntry } from './bulk.ts';

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
    return zipResponse(
      deps.store,
      entries,
      contentDisposition(`scoutbase-${entries.length}-files.zip`, { ascii: true }),
    );
  });
  return routes;
}

const STAT_BATCH = 32;

/** An entry of a ZIP: stored bytes, or a small document made for the archive (records as JSON). */
export type ZipEntry = ArchiveEntry | { name: string; content: Buffer };

export interface ZipOptions {
  /** Names are paths ("Scouting/Barn/gate.jpg"): each part is made safe and the folders are kept. */
  folders?: boolean;
  /** Leaves out entries whose bytes are gone instead of refusing the whole archive with a 404. */
  skipMissing?: boolean;
}

/**
 * A ZIP of the entries' stored bytes, streamed: the objects are read one after another while the
 * archive is sent, so neither the archive nor a whole file is ever held in memory. Two entries of
 * one name become "name.jpg" and "name (1).jpg", as a computer's own download folder would do.
 * The caller has decided the viewer may read every entry.
 */
export async function zipResponse(
  store: ObjectStore,
  entries: ZipEntry[],
  disposition: string,
  options: ZipOptions = {},
) {
  // Every object is looked up before the first byte goes out: a missing one is a 404 now,
  // not a download that breaks off halfway.
  // A few at a time: a gallery of 10,000 photos on S3 would otherwise send 10,000 HEADs at once.
  const sizes: (ObjectInfo | null)[] = [];
  for (let i = 0; i < entries.length; i += STAT_BATCH) {
    sizes.push(
      ...(await Promise.all(
        entries
          .slice(i, i + STAT_BATCH)
          .map((e) => ('objectKey' in e ? store.stat(e.objectKey) : { size: e.content.length })),
      )),
    );
  }
  if (!options.skipMissing && sizes.some((info) => info === null)) throw new NotFoundError('File');

  const zip = new ZipFile();
  // A file that cannot be read halfway through ends the download (the browser shows it failed)
  // instead of an unhandled error event ending the server.
  zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error));
  const names = entries.map((entry) => safeEntryName(entry.name, options.folders === true));
  // A folder's name is taken before any file's: a file "Barn" beside a folder "Barn" becomes
  // "Barn (1)", never an entry the folder's files would have to go inside.
  const taken = new Set(names.flatMap(foldersOf));
  for (const [i, entry] of entries.entries()) {
    const size = sizes[i]?.size;
    if (size === undefined) continue;
    const name = uniqueEntryName(names[i] ?? entry.name, taken);
    // Stored as they are: photos and videos are compressed already (no CPU spent), and every size
    // is then known before the first byte, so the download has a length and a progress bar.
    if (!('objectKey' in entry)) {
      zip.addBuffer(entry.content, name, { compress: false });
      continue;
    }
    zip.addReadStreamLazy(name, { compress: false, size }, (done) => {
      store.get(entry.objectKey).then(
        (stream) => (stream ? done(null, stream) : done(new NotFoundError('File'), Readable.from([]))),
        (error: unknown) => done(error, Readable.from([])),
      );
    });
  }
  // The total is known at once (every size is); -1 would mean unknown. (@types/yazl leaves the
  // callback's argument out.)
  const length = await new Promise<number>((resolve) =>
    zip.end(undefined, (...total: number[]) => resolve(total[0] ?? -1)),
  );
  const headers = new Headers({
    'Content-Type': 'application/zip',
    'Content-Disposition': disposition,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  if (length >= 0) headers.set('Content-Length', String(length));
  return new Response(Readable.toWeb(zip.outputStream as Readable) as ReadableStream, { headers });
}

/**
 * Every ZIP entry name is made here, from any name ever stored: each part made safe for a disk
 * (shared/names.ts: no "..", drive colons, control or text-direction characters). Without
 * `folders` a name is one part (its slashes become "_"); with it the slashes stay and each part
 * between them is made safe, so nothing climbs out when unpacked.
 */
function safeEntryName(name: string, folders: boolean) {
  return folders ? name.split('/').map(safeFileName).join('/') : safeFileName(name);
}

/** "a/b/c.jpg" → "a", "a/b" (lower case, as names are compared). */
function foldersOf(name: string) {
  const parts = name.toLowerCase().split('/');
  return parts.slice(0, -1).map((_, n) => parts.slice(0, n + 1).join('/'));
}

function uniqueEntryName(safe: string, taken: Set<string>) {
  // The number goes before the extension of the name's last part, never into a folder's name.
  const dot = safe.lastIndexOf('.');
  const [stem, ext] = dot > safe.lastIndexOf('/') + 1 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
  let candidate = safe;
  for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
