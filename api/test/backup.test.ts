// pnpm backup / pnpm restore (issue 18): a populated instance backed up while it runs, restored into
// an empty one, has the same object files byte for byte, the same file records, and its people sign
// in (with their old sessions too). On the embedded database the running server takes the snapshot
// over its admin socket; on PostgreSQL pg_dump / pg_restore into a database the test creates.
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileRecord, uploaded } from '../src/storage/testing.ts';
import {
  person,
  postgresReachable,
  scratchPostgresDatabase,
  settingsFor,
  signIn,
  signedInUser,
  startedApp,
  type TestApp,
} from './harness.ts';
import { scratchFolders } from './scratch.ts';
import { runScript } from './server-process.ts';
const folder = scratchFolders();

/** Every object file under a data folder: relative name to SHA-256. */
async function objectFiles(dataDir: string) {
  const out = new Map<string, string>();
  async function walk(dir: string, prefix: string) {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === '.tmp') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, `${prefix}${entry.name}/`);
      else
        out.set(
          `${prefix}${entry.name}`,
          createHash('sha256')
            .update(await readFile(full))
            .digest('hex'),
        );
    }
  }
  await walk(path.join(dataDir, 'objects'), '');
  return out;
}

/** A populated instance: people, files with bytes, a session; what it holds, read back. */
async function populate(app: TestApp) {
  const people = [person(), person(), person()];
  const sessions: string[] = [];
  for (const who of people) {
    const signedIn = await signedInUser(app, who);
    const user = (await (await app.request('/api/auth/user', { cookie: signedIn.jar.header })).json()) as {
      id: string;
    };
    sessions.push(signedIn.jar.header);
    for (const bytes of [
      `call sheet of ${who.name}\n`.repeat(50),
      Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(200_000)]),
    ]) {
      const upload = await uploaded(app, { id: user.id, cookie: signedIn.jar.header }, bytes);
      await fileRecord(app, { id: user.id, cookie: signedIn.jar.header }, upload.uploadURL, {
        name: `file-${randomBytes(3).toString('hex')}.bin`,
      });
    }
  }
  return { people, sessions };
}

async function holdings(app: TestApp) {
  const files = await app.database.prisma.file.findMany({
    select: { id: true, name: true, checksum: true, objectPath: true, size: true },
    orderBy: { id: 'asc' },
  });
  const users = await app.database.prisma.user.findMany({ select: { id: true, email: true }, orderBy: { id: 'asc' } });
  return { files, users };
}

async function expectSameInstance(
  restored: TestApp,
  original: { holdings: Awaited<ReturnType<typeof holdings>>; objects: Map<string, string> },
  people: ReturnType<typeof person>[],
  sessions: string[],
) {
  expect(await holdings(restored)).toEqual(original.holdings);
  expect(original.objects.size).toBeGreaterThanOrEqual(6);
  expect(await objectFiles(restored.dataDir)).toEqual(original.objects);
  for (const who of people) {
    const { jar } = await signIn(restored, who);
    const user = await restored.request('/api/auth/user', { cookie: jar.header });
    expect(user.status, who.email).toBe(200);
  }
  // The sessions of the backed-up instance still work (its secret came along).
  for (const cookie of sessions) expect((await restored.request('/api/auth/user', { cookie })).status).toBe(200);
}

it('embedded database: a backup taken through the running server restores into an empty folder', async () => {
  const source = await folder('backup-source');
  const target = await folder('backup-target');
  const archive = path.join(await folder('backup-archive'), 'backup.zip');
  const app = await startedApp(settingsFor(source));
  let original: { holdings: Awaited<ReturnType<typeof holdings>>; objects: Map<string, string> };
  let filled: Awaited<ReturnType<typeof populate>>;
  try {
    filled = await populate(app);
    // The server holds the database: the command must go through it (it could not open the folder).
    const backup = await runScript('scripts/backup.ts', ['--out', archive], settingsFor(source));
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`Backup written to ${archive}`);
    expect((await stat(archive)).mode & 0o777).toBe(0o600);
    original = { holdings: await holdings(app), objects: await objectFiles(source) };
  } finally {
    await app.close();
  }

  const restore = await runScript('scripts/restore.ts', [archive], settingsFor(target));
  expect(restore.stderr).toBe('');
  expect(restore.code).toBe(0);
  // A folder that is not empty any more is refused, in one line.
  const again = await runScript('scripts/restore.ts', [archive], settingsFor(target));
  expect(again.code).toBe(1);
  expect(again.stderr.trim().split('\n')).toHaveLength(1);
  expect(again.stderr).toContain('is not empty');

  const restored = await startedApp(settingsFor(target));
  try {
    await expectSameInstance(restored, original, filled.people, filled.sessions);
  } finally {
    await restored.close();
  }
}, 300_000);

describe.runIf(await postgresReachable())('PostgreSQL', () => {
  it('pg_dump of a running instance restores into a fresh database and an empty folder', async () => {
    const sourceDb = await scratchPostgresDatabase('backup_source');
    const targetDb = await scratchPostgresDatabase('backup_target');
    try {
      const source = await folder('backup-pg-source');
      const target = await folder('backup-pg-target');
      const archive = path.join(await folder('backup-pg-archive'), 'backup.zip');
      const app = await startedApp(settingsFor(source, sourceDb.url));
      let original: { holdings: Awaited<ReturnType<typeof holdings>>; objects: Map<string, string> };
      let filled: Awaited<ReturnType<typeof populate>>;
      try {
        filled = await populate(app);
        const backup = await runScript('scripts/backup.ts', ['--out', archive], settingsFor(source, sourceDb.url));
        expect(backup.stderr).toBe('');
        expect(backup.code).toBe(0);
        original = { holdings: await holdings(app), objects: await objectFiles(source) };
      } finally {
        await app.close();
      }
      // An embedded target cannot take a PostgreSQL backup: said, nothing loaded.
      const wrongKind = await runScript('scripts/restore.ts', [archive], settingsFor(await folder('backup-pg-wrong')));
      expect(wrongKind.code).toBe(1);
      expect(wrongKind.stderr).toContain('PostgreSQL database');

      const restore = await runScript('scripts/restore.ts', [archive], settingsFor(target, targetDb.url));
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
      const restored = await startedApp(settingsFor(target, targetDb.url));
      try {
        await expectSameInstance(restored, original, filled.people, filled.sessions);
      } finally {
        await restored.close();
      }
    } finally {
      await sourceDb.drop();
      await targetDb.drop();
    }
  }, 300_000);
});
