// pnpm restore FILE
// Loads a `pnpm backup` archive into an empty data folder (DATA_DIR) or, with DATABASE_URL, into an
// empty PostgreSQL database plus DATA_DIR's objects. Nothing that exists is overwritten.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../src/config.ts';
import { BackupError, restoreArchive } from '../src/infra/backup.ts';
import { exitOnKnownError } from './cli.ts';
import { tightenPermissions } from '../src/infra/private-files.ts';

const { positionals } = parseArgs({ allowPositionals: true, strict: true });
if (positionals.length !== 1) {
  console.error('usage: pnpm restore <backup.zip>');
  process.exit(2);
}
const archive = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0] as string);

try {
  const config = readConfig(process.env);
  const { objects, manifest } = await restoreArchive(archive, config);
  // The embedded database's files come out of its archive 0666: the owner's alone, like the rest.
  await tightenPermissions(config.dataDir);
  const target = config.database.kind === 'postgres' ? 'the PostgreSQL database' : config.dataDir;
  console.log(`Restored the backup of ${manifest.createdAt} into ${target}: database and ${objects} object file(s)`);
} catch (error) {
  exitOnKnownError(error, [BackupError]);
}
