// pnpm backup [--out FILE]
// One consistent archive of the database and the object files, with a manifest of checksums.
// With the embedded database and a server running, the server takes the snapshot (it holds the
// database); otherwise this command opens the folder itself.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../src/config.ts';
import { askServerOrRunHere } from '../src/infra/admin-socket.ts';
import { BackupError, snapshotEmbedded, snapshotPostgres, writeArchive } from '../src/infra/backup.ts';
import { openDatabase } from '../src/infra/db/database.ts';
import { exitOnKnownError } from './cli.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } }, strict: true });
// pnpm runs scripts in api/: a relative --out is taken from where the command was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const out = path.resolve(
  cwd,
  values.out ?? `scoutbase-backup-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.zip`,
);

try {
  const config = readConfig(process.env);
  let snapshot: string;
  if (config.database.kind === 'postgres') {
    snapshot = await snapshotPostgres(config.database.url, config);
  } else {
    const database = config.database;
    ({ dir: snapshot } = await askServerOrRunHere<{ dir: string }>(config.dataDir, 'backup:snapshot', {}, async () => {
      const db = await openDatabase(database, { migrate: false });
      try {
        return { dir: await snapshotEmbedded(db.pglite as NonNullable<typeof db.pglite>, config) };
      } finally {
        await db.close();
      }
    }));
  }
  try {
    const { objects, bytes, manifest } = await writeArchive(snapshot, out, config);
    const where =
      manifest.objects === 'uploadthing'
        ? ' (object bytes stay in UploadThing)'
        : manifest.objects === 's3'
          ? ' (object bytes stay in the S3 bucket: back it up with its own tools, or copy it with pnpm storage:migrate --to local)'
          : '';
    console.log(
      `Backup written to ${out}: database, ${objects} object file(s)${where}, ${(bytes / 1024 ** 2).toFixed(1)} MB`,
    );
  } finally {
    await rm(snapshot, { recursive: true, force: true });
  }
} catch (error) {
  exitOnKnownError(error, [BackupError]);
}
