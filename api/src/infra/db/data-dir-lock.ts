import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * One writer for the embedded database. PGlite has no lock of its own: two processes on one folder
 * each keep their own copy of the pages in memory and overwrite each other's writes (acknowledged
 * writes vanished after a restart, once the folder no longer opened at all). Whoever opens the
 * database holds `<DATA_DIR>/db.lock`, a file made with O_EXCL holding its process id.
 *
 * A pid file rather than proper-lockfile: that library knows a lock is stale only once its mtime is
 * older than `stale` (10 s or more), so a restart right after a crash (SIGKILL, OOM, a supervisor
 * restarting at once) would be refused, and it does not say who holds the lock. Here a lock whose
 * process is gone is taken over at once; a process id reused after a reboot is told apart by the
 * process's start time (Linux) and by the host name.
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by process ${pid} (another Scoutbase server or command). Stop it first, or use another DATA_DIR.`,
    );
    this.name = 'DataDirInUseError';
  }
}

interface Holder {
  pid: number;
  host: string;
  /** The process's start time in clock ticks since boot (Linux), to tell a reused pid apart. */
  started: string | null;
}

/** Locks this process holds, so a second open in the same process is refused too. */
const held = new Set<string>();

export interface DataDirLock {
  readonly file: string;
  release(): Promise<void>;
}

/** The lock file for an embedded database kept in `dbDir` (`<DATA_DIR>/db`): `<DATA_DIR>/db.lock`. */
export function lockFileFor(dbDir: string) {
  return `${path.resolve(dbDir)}.lock`;
}

export async function lockDataDir(dbDir: string): Promise<DataDirLock> {
  const file = lockFileFor(dbDir);
  const dataDir = path.dirname(file);
  await mkdir(dataDir, { recursive: true });
  if (held.has(file)) throw new DataDirInUseError(dataDir, process.pid);
  const me: Holder = { pid: process.pid, host: os.hostname(), started: startTimeOf(process.pid) };
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, `${JSON.stringify(me)}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw error;
    }
    const holder = await readHolder(file);
    if (holder && isAlive(holder, file)) throw new DataDirInUseError(dataDir, holder.pid);
    await takeOverStale(file, holder);
  }
  held.add(file);
  let released = false;
  return {
    file,
    async release() {
      if (released) return;
      released = true;
      held.delete(file);
      // Only our own lock: never remove one another process took over.
      const holder = await readHolder(file);
      if (holder?.pid === me.pid && holder.host === me.host) await unlink(file).catch(() => {});
    },
  };
}

/** Who holds the data folder now, or null when nobody does (a stale lock counts as nobody). */
export async function dataDirHolder(dbDir: string): Promise<number | null> {
  const file = lockFileFor(dbDir);
  const holder = await readHolder(file);
  return holder && isAlive(holder, file) ? holder.pid : null;
}

async function readHolder(file: string): Promise<Holder | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    if (typeof parsed.pid === 'number') {
      return { pid: parsed.pid, host: String(parsed.host ?? ''), started: parsed.started ?? null };
    }
  } catch {}
  // Empty or torn: a process died between creating and writing it (or is writing it right now).
  const age = await stat(file).then(
    (s) => Date.now() - s.mtimeMs,
    () => Infinity,
  );
  return age < 2_000 ? { pid: 0, host: os.hostname(), started: null } : null;
}

function isAlive(holder: Holder, file: string): boolean {
  // Another machine's process (a folder on shared storage): we cannot tell, so it holds.
  if (holder.host && holder.host !== os.hostname()) return true;
  // pid 0 marks a lock being written this instant.
  if (holder.pid === 0) return true;
  // Our own pid on a lock we do not hold: left by an earlier life of this container or machine.
  if (holder.pid === process.pid) return held.has(file);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, but another user's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = startTimeOf(holder.pid);
  return !(holder.started && started && holder.started !== started);
}

/**
 * Two starts may find the same stale lock. A second O_EXCL file serializes the take-over, and the
 * lock is removed only if it still names the dead holder, so neither removes the other's new lock.
 */
async function takeOverStale(file: string, stale: Holder | null) {
  const guard = `${file}.takeover`;
  try {
    await writeFile(guard, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A take-over left behind by a process that died during it is cleared after a few seconds.
    const age = await stat(guard).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > 5_000) await rm(guard, { force: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    return;
  }
  try {
    const now = await readHolder(file);
    if (now === null || (stale && now.pid === stale.pid && now.started === stale.started)) {
      await rm(file, { force: true });
    }
  } finally {
    await rm(guard, { force: true });
  }
}

function startTimeOf(pid: number): string | null {
  try {
    // /proc/<pid>/stat: the 22nd field is the start time; the command name (2nd) may hold spaces.
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}
