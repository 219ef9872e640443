import { type Dirent, existsSync } from 'node:fs';
import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * The data folder holds the database, uploads and secrets: nobody but the account that runs the
 * server may read or write any of it. Every folder the server or a command makes is 0700 and every
 * file 0600, whatever the host's umask is (src/main.ts and scripts/cli.ts call this first).
 */
export function keepFilesPrivate() {
  process.umask(0o077);
}

/** How many paths one pass looks at: a data folder of millions of objects must not hold up the start. */
const MAX_PATHS = 1_000_000;

/**
 * Takes the group's and others' bits off every folder and file under `dir` (and `dir` itself):
 * what an older release, a copy or a restore, or the embedded database (PGlite writes its files
 * 0666 whatever the umask) left open. Symbolic links are neither changed nor followed, and nothing
 * under `skip` is touched. Returns how many paths were tightened and whether the pass stopped early.
 */
export async function tightenPermissions(dir: string, { skip = [] }: { skip?: string[] } = {}) {
  let tightened = 0;
  let seen = 0;
  const skipped = new Set(skip.map((p) => path.resolve(p)));
  const pending = [path.resolve(dir)];
  while (pending.length > 0 && seen < MAX_PATHS) {
    const at = pending.pop() as string;
    if (skipped.has(at)) continue;
    seen++;
    const info = await lstat(at).catch(() => null);
    if (!info || info.isSymbolicLink()) continue;
    if ((info.mode & 0o077) !== 0) {
      // Gone meanwhile, or not ours to change: the next start tries again.
      if (
        await chmod(at, info.mode & 0o700).then(
          () => true,
          () => false,
        )
      )
        tightened++;
    }
    if (info.isDirectory()) {
      const entries: Dirent[] = await readdir(at, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) pending.push(path.join(at, entry.name));
    }
  }
  return { tightened, complete: pending.length === 0 };
}

/**
 * The start-up pass over DATA_DIR: what is open to others is closed, said in one line. Runs before
 * the database opens: a new embedded database (PGlite writes its files 0666) is closed right after
 * it is made, quietly, since nothing was ever open there (app.ts).
 */
export async function tightenDataDir(dataDir: string, logger: Logger) {
  if (!existsSync(dataDir)) return;
  const { tightened, complete } = await tightenPermissions(dataDir);
  if (tightened > 0) {
    logger.warn(
      { dataDir, tightened },
      `tightened permissions of ${tightened} ${tightened === 1 ? 'path' : 'paths'} under DATA_DIR`,
    );
  }
  if (!complete) {
    logger.warn({ dataDir }, `DATA_DIR holds more than ${MAX_PATHS} paths; only the first were checked`);
  }
}
