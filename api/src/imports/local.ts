import { createReadStream, type Dirent } from 'node:fs';
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { thumbnail as makeThumbnail } from '../storage/images.ts';
import {
  byFolderThenName,
  type ImportItem,
  kindOf,
  type SourceConnector,
  SourceUnavailableError,
} from '../infra/import-sources/connector.ts';
import { thumbnailUrl } from './sources.ts';

/** A search walks at most this many entries, and answers at most this many matches. */
const SEARCH_VISITS = 20_000;
const SEARCH_RESULTS = 200;
const LIST_LIMIT = 1000;

/**
 * The server-side import folder (IMPORT_DIR). Item ids are paths relative to it with '/'
 * separators. Nothing outside it can be named: every path is resolved and must stay inside the
 * folder, also after following symlinks; hidden entries (dot files) are not offered.
 */
export function localFolderSource(root: string): SourceConnector {
  const item404 = () => new NotFoundError('Import item');

  async function realRoot() {
    try {
      const real = await realpath(root);
      if (!(await stat(real)).isDirectory()) throw new Error('not a folder');
      return real;
    } catch {
      throw new SourceUnavailableError();
    }
  }

  /** The real path of an id inside the folder, or a 404 (also for anything that would leave it). */
  async function resolve(id: string): Promise<{ real: string; relative: string }> {
    const base = await realRoot();
    if (id === '' || id === '/') return { real: base, relative: '' };
    if (id.length > 4096 || id.includes('\0') || id.includes('\\') || path.posix.isAbsolute(id)) throw item404();
    const parts = id.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.some((p) => p === '..' || p.startsWith('.'))) throw item404();
    const joined = path.join(base, ...parts);
    let real: string;
    try {
      real = await realpath(joined);
    } catch {
      throw item404();
    }
    const relative = path.relative(base, real);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) throw item404();
    return { real, relative: relative.split(path.sep).join('/') };
  }

  async function itemAt(real: string, relative: string): Promise<ImportItem | null> {
    const info = await stat(real).catch(() => null);
    if (!info) return null;
    const name = path.basename(real);
    if (info.isDirectory()) {
      return { id: relative, name, type: 'folder', size: null, modifiedAt: info.mtime.toISOString() };
    }
    if (!info.isFile()) return null;
    const type = kindOf(name);
    return {
      id: relative,
      name,
      type,
      size: info.size,
      modifiedAt: info.mtime.toISOString(),
      ...(type === 'image' && { thumbnail: thumbnailUrl('local', relative) }),
    };
  }

  /** An entry of a listing, if it is shown: no dot files, and no symlink that leads outside. */
  async function entryItem(base: string, dir: string, entry: Dirent): Promise<ImportItem | null> {
    if (entry.name.startsWith('.')) return null;
    const full = path.join(dir, entry.name);
    const relative = path.relative(base, full).split(path.sep).join('/');
    if (entry.isSymbolicLink()) {
      const target = await realpath(full).catch(() => null);
      const inside = target && !path.relative(base, target).startsWith('..') && target !== base;
      if (!inside) return null;
    }
    const item = await itemAt(full, relative);
    // A link to a file is offered under its own name, but downloads follow the same checks.
    return item ? { ...item, id: relative, name: entry.name } : null;
  }

  async function folderOf(id: string | undefined) {
    const { real } = await resolve(id ?? '');
    const info = await lstat(real).catch(() => null);
    if (!info?.isDirectory()) throw new ValidationError('Only folders can be opened.', 'folder');
    return real;
  }

  return {
    async list({ folder, search }) {
      const base = await realRoot();
      const start = await folderOf(folder);
      const needle = search?.trim().toLowerCase();
      const items: ImportItem[] = [];
      if (!needle) {
        const dir = await opendir(start);
        for await (const entry of dir) {
          const item = await entryItem(base, start, entry);
          if (item) items.push(item);
          if (items.length >= LIST_LIMIT) break;
        }
        return items.sort(byFolderThenName);
      }
      // Breadth-first under the folder, never following links into folders (no loops).
      const queue = [start];
      let visits = 0;
      while (queue.length > 0 && visits < SEARCH_VISITS && items.length < SEARCH_RESULTS) {
        const dir = queue.shift() as string;
        const handle = await opendir(dir).catch(() => null);
        if (!handle) continue;
        for await (const entry of handle) {
          visits += 1;
          if (entry.name.startsWith('.')) continue;
          if (entry.isDirectory()) queue.push(path.join(dir, entry.name));
          if (!entry.name.toLowerCase().includes(needle)) continue;
          const item = await entryItem(base, dir, entry);
          if (item) items.push(item);
          if (items.length >= SEARCH_RESULTS || visits >= SEARCH_VISITS) break;
        }
      }
      return items.sort(byFolderThenName);
    },

    async describe(id) {
      const { real, relative } = await resolve(id);
      const item = await itemAt(real, relative);
      if (!item) throw item404();
      return item;
    },

    async download(id) {
      const { real } = await resolve(id);
      const info = await stat(real).catch(() => null);
      if (!info?.isFile()) throw item404();
      const body = Readable.toWeb(createReadStream(real)) as ReadableStream<Uint8Array>;
      return { body, size: info.size };
    },

    async thumbnail(id) {
      const { real, relative } = await resolve(id);
      const item = await itemAt(real, relative);
      if (item?.type !== 'image') throw new NotFoundError('Thumbnail');
      try {
        return { body: new Uint8Array(await makeThumbnail(real, 'grid')), contentType: 'image/webp' };
      } catch {
        throw new NotFoundError('Thumbnail');
      }
    },
  };
}
