import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import yauzl from 'yauzl';
import { z } from 'zod';
import { ZipFile } from 'yazl';
import type { Config } from '../config.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { nextEntry } from './zip-entries.ts';

/**
 * `pnpm backup` and `pnpm restore`: one ZIP holding the database, the object files and a manifest
 * with a SHA-256 of every entry.
 *
 * - The embedded database goes in as PGlite's own data directory (dumpDataDir), taken while no
 *   transaction runs, by the process that holds the database (the running server, over its admin
 *   socket, or the command itself when none runs). It restores with the same PGlite version only
 *   (the manifest names it).
 * - PostgreSQL goes in as `pg_dump --format=custom` (Debian: postgresql-client of the server's
 *   major version or newer), taken in a snapshot exported from a read-only transaction, and comes
 *   back with `pg_restore --single-transaction` into an empty database.
 * - Object files are hard-linked into a snapshot folder at the moment of the database snapshot
 *   (objects are written once, by rename, so a link is a stable copy), then zipped from there.
 *   With UploadThing the bytes stay there: the archive holds their keys (in the database) only.
 */

export const BACKUP_FORMAT = 'scoutbase-backup';
const BACKUP_VERSION = 1;
const PGLITE_ENTRY = 'database/pglite-datadir.tar.gz';
const POSTGRES_ENTRY = 'database/postgres.dump';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: { kind: 'pglite' | 'postgres'; entry: string; pgliteVersion?: string };
  /** `local`: the files are under objects/; `uploadthing` / `s3`: they stay in UploadThing or the bucket. */
  objects: 'local' | 'uploadthing' | 's3';
  entries: { name: string; size: number; sha256: string }[];
}

/** Bad input, a refused target, a damaged archive: said in one line by the command. */
export class BackupError extends Error {}

/** What restore relies on in a manifest, checked before it is used. */
const manifestShape = z.object({
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    entry: z.string(),
    pgliteVersion: z.string().optional(),
  }),
  entries: z.array(z.object({ name: z.string(), size: z.number(), sha256: z.string() })),
});

async function pgliteVersion(): Promise<string> {
  const file = fileURLToPath(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url));
  return (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version;
}

/** A fresh folder under DATA_DIR/tmp (same disk as the objects, so they can be hard-linked). */
async function snapshotFolder(dataDir: string) {
  const dir = path.join(dataDir, 'tmp', `backup-${randomUUID()}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * The embedded database and the objects as they are at one moment. Run by the process that holds
 * the database; no transaction runs meanwhile (they wait), so the dump is consistent.
 */
export async function snapshotEmbedded(client: PGlite, config: Config): Promise<string> {
  const dir = await snapshotFolder(config.dataDir);
  try {
    await client._runExclusiveTransaction(async () => {
      const dump = await client.dumpDataDir('gzip');
      await mkdir(path.join(dir, 'database'));
      await writeFile(path.join(dir, PGLITE_ENTRY), Buffer.from(await dump.arrayBuffer()));
      await snapshotObjects(config, dir);
    });
    return dir;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** PostgreSQL: an exported snapshot, the objects linked, then pg_dump of that very snapshot. */
export async function snapshotPostgres(url: string, config: Config): Promise<string> {
  const dir = await snapshotFolder(config.dataDir);
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
    await snapshotObjects(config, dir);
    await mkdir(path.join(dir, 'database'));
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--snapshot=${rows[0]?.id}`,
      `--file=${path.join(dir, POSTGRES_ENTRY)}`,
      `--dbname=${url}`,
    ]);
    await client.query('COMMIT');
    return dir;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

async function snapshotObjects(config: Config, dir: string) {
  if (!config.storage.uploadthingToken && !config.storage.s3) {
    await linkTree(path.join(config.dataDir, 'objects'), path.join(dir, 'objects'));
  }
  const secret = path.join(config.dataDir, 'auth-secret');
  // The development secret: sessions and signed upload URLs of the backup stay valid after a restore.
  if (!config.auth.secret) await copyFile(secret, path.join(dir, 'auth-secret')).catch(() => {});
}

/** Hard links of every finished object (partial writes in .tmp are left out). */
async function linkTree(from: string, to: string) {
  let names: string[];
  try {
    names = await readdir(from);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await mkdir(to, { recursive: true });
  for (const name of names) {
    if (name === '.tmp') continue;
    const source = path.join(from, name);
    const target = path.join(to, name);
    const info = await stat(source).catch(() => null);
    if (!info) continue; // removed meanwhile
    if (info.isDirectory()) await linkTree(source, target);
    else if (info.isFile()) {
      await link(source, target).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return;
        // Objects on another disk than DATA_DIR/tmp (a mount): a copy instead.
        if (error.code === 'EXDEV' || error.code === 'EPERM') await copyFile(source, target);
        else throw error;
      });
    }
  }
}

async function filesUnder(root: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await filesUnder(root, name)));
    else if (entry.isFile()) out.push(name);
  }
  return out.sort();
}

async function digest(file: string) {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** Zips a snapshot folder with its manifest into `out` (written aside, then renamed into place). */
export async function writeArchive(
  snapshot: string,
  out: string,
  config: Config,
): Promise<{ manifest: BackupManifest; objects: number; bytes: number }> {
  const kind = config.database.kind === 'postgres' ? 'postgres' : 'pglite';
  const names = await filesUnder(snapshot);
  const entries: BackupManifest['entries'] = [];
  for (const name of names) entries.push({ name, ...(await digest(path.join(snapshot, name))) });
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: new Date().toISOString(),
    database: {
      kind,
      entry: kind === 'postgres' ? POSTGRES_ENTRY : PGLITE_ENTRY,
      ...(kind === 'pglite' ? { pgliteVersion: await pgliteVersion() } : {}),
    },
    objects: config.storage.uploadthingToken ? 'uploadthing' : config.storage.s3 ? 's3' : 'local',
    entries,
  };
  const zip = new ZipFile();
  // Object bytes (photos, videos) and the dumps are compressed already: stored as they are.
  for (const name of names) zip.addFile(path.join(snapshot, name), name, { compress: false });
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json');
  zip.end();
  const partial = `${out}.partial-${process.pid}`;
  // Password hashes and perhaps the secret are inside: for the owner only.
  await pipeline(zip.outputStream, createWriteStream(partial, { mode: 0o600 }));
  await rename(partial, out);
  return {
    manifest,
    objects: names.filter((n) => n.startsWith('objects/')).length,
    bytes: (await stat(out)).size,
  };
}

/** Whether a folder is missing or holds nothing. */
async function isEmptyDir(dir: string) {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * Loads an archive into an empty data folder (embedded) or an empty database (PostgreSQL) and the
 * data folder's objects. Every entry is checked against the manifest before anything is loaded.
 */
export async function restoreArchive(
  archive: string,
  config: Config,
): Promise<{ manifest: BackupManifest; objects: number }> {
  const zip = await yauzl
    .openPromise(archive, { lazyEntries: true, validateEntrySizes: true, autoClose: false })
    .catch((error) => {
      throw new BackupError(`${archive} is not a Scoutbase backup (${(error as Error).message})`);
    });
  const staging = path.join(config.dataDir, 'tmp', `restore-${randomUUID()}`);
  try {
    const notABackup = (why: string) => new BackupError(`${archive} is not a Scoutbase backup (${why})`);
    const entries = new Map<string, yauzl.Entry>();
    for (;;) {
      // yauzl refuses a damaged directory and names such as ../x: said as a refusal, not a crash.
      const entry = await nextEntry(zip).catch((error: Error) => {
        throw notABackup(error.message);
      });
      if (!entry) break;
      entries.set(entry.fileName, entry);
    }
    const manifestEntry = entries.get('manifest.json');
    if (!manifestEntry) throw notABackup('no manifest.json');
    let manifestJson: unknown;
    try {
      manifestJson = JSON.parse(
        (await streamToBuffer(await zip.openReadStreamPromise(manifestEntry))).toString('utf8'),
      );
    } catch (error) {
      throw notABackup(`manifest.json is not readable JSON: ${(error as Error).message}`);
    }
    if (
      (manifestJson as Partial<BackupManifest> | null)?.format !== BACKUP_FORMAT ||
      (manifestJson as Partial<BackupManifest>).version !== BACKUP_VERSION
    ) {
      throw new BackupError(`${archive} is not a Scoutbase backup of a version this release reads`);
    }
    const checked = manifestShape.safeParse(manifestJson);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw notABackup(`manifest.json: ${issue?.path.join('.') || 'it'} ${issue?.message ?? 'is not as expected'}`);
    }
    const manifest = manifestJson as BackupManifest;
    // The dump is read from where the checked entries were written, never from a name of its own.
    if (!manifest.entries.some((e) => e.name === manifest.database.entry)) {
      throw notABackup('manifest.json names a database that is not among its entries');
    }
    const kind = config.database.kind === 'postgres' ? 'postgres' : 'pglite';
    if (manifest.database.kind !== kind) {
      throw new BackupError(
        `The backup holds a ${manifest.database.kind === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'} database; restore it with ${manifest.database.kind === 'pglite' ? 'DATABASE_URL unset' : 'DATABASE_URL set to an empty database'}.`,
      );
    }
    if (kind === 'pglite' && manifest.database.pgliteVersion !== (await pgliteVersion())) {
      throw new BackupError(
        `The backup was made with PGlite ${manifest.database.pgliteVersion}; this release runs ${await pgliteVersion()}. Restore it with the release that made it.`,
      );
    }

    // Nothing is overwritten: the target must be empty.
    const objectsDir = path.join(config.dataDir, 'objects');
    if (!(await isEmptyDir(objectsDir))) {
      throw new BackupError(`${objectsDir} is not empty: restore into an empty data folder (DATA_DIR).`);
    }
    const lock = config.database.kind === 'embedded' ? await lockDataDir(config.database.dataDir) : undefined;
    try {
      if (config.database.kind === 'embedded' && !(await isEmptyDir(config.database.dataDir))) {
        throw new BackupError(
          `${config.database.dataDir} holds a database: restore into an empty data folder (DATA_DIR).`,
        );
      }
      if (config.database.kind === 'postgres') await assertEmptyDatabase(config.database.url);

      // Every entry out and checked first: a damaged archive loads nothing.
      await mkdir(staging, { recursive: true, mode: 0o700 });
      for (const expected of manifest.entries) {
        const entry = entries.get(expected.name);
        if (!entry || !safeName(expected.name))
          throw new BackupError(`The archive is damaged: ${expected.name} is missing`);
        const target = path.join(staging, expected.name);
        await mkdir(path.dirname(target), { recursive: true });
        const hash = createHash('sha256');
        let size = 0;
        try {
          const source = await zip.openReadStreamPromise(entry);
          source.on('data', (chunk: Buffer) => {
            hash.update(chunk);
            size += chunk.length;
          });
          await pipeline(source, createWriteStream(target, { mode: 0o600 }));
        } catch (error) {
          // yauzl: bad compressed data, a size that does not match the directory's.
          if ((error as NodeJS.ErrnoException).code?.startsWith('E')) throw error;
          throw new BackupError(`The archive is damaged: ${expected.name}: ${(error as Error).message}`);
        }
        if (size !== expected.size || hash.digest('hex') !== expected.sha256) {
          throw new BackupError(`The archive is damaged: ${expected.name} does not match its checksum`);
        }
      }

      const dump = path.join(staging, manifest.database.entry);
      if (config.database.kind === 'embedded') {
        await mkdir(config.database.dataDir, { recursive: true });
        const client = await PGlite.create(config.database.dataDir, {
          loadDataDir: new Blob([await readFile(dump)]),
          extensions: { pg_trgm },
        });
        await client.query('SELECT 1');
        await client.close();
      } else {
        await run('pg_restore', [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          '--single-transaction',
          `--dbname=${config.database.url}`,
          dump,
        ]);
      }

      const stagedObjects = path.join(staging, 'objects');
      if (!(await isEmptyDir(stagedObjects))) {
        await rmdir(objectsDir).catch(() => {});
        await rename(stagedObjects, objectsDir);
      }
      const secret = path.join(config.dataDir, 'auth-secret');
      if (!config.auth.secret && (await stat(path.join(staging, 'auth-secret')).catch(() => null))) {
        await stat(secret).then(
          () => {},
          () => rename(path.join(staging, 'auth-secret'), secret),
        );
      }
    } finally {
      await lock?.release();
    }
    return { manifest, objects: manifest.entries.filter((e) => e.name.startsWith('objects/')).length };
  } finally {
    zip.close();
    await rm(staging, { recursive: true, force: true });
  }
}

function safeName(name: string) {
  return !name.startsWith('/') && !name.split('/').some((part) => part === '..' || part === '' || part === '.');
}

async function assertEmptyDatabase(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`,
    );
    if ((rows[0]?.count ?? 0) > 0) {
      throw new BackupError(
        'The database is not empty: restore into a new, empty database (createdb), before any server has started on it.',
      );
    }
  } finally {
    await client.end();
  }
}

async function streamToBuffer(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Runs a PostgreSQL client tool; its own error output becomes the message. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${command} was not found: install PostgreSQL's client tools of the server's major version or newer (Debian: apt-get install postgresql-client).`,
            )
          : error,
      ),
    );
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed: ${stderr.trim().split('\n').slice(-3).join(' ')}`)),
    );
  });
}
