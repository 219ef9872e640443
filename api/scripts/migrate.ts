// pnpm migrate:new <name> | migrate:apply | migrate:check
import { readConfig } from '../src/config.ts';
import { openDatabase } from '../src/infra/db/database.ts';
import { keepFilesPrivate } from '../src/infra/private-files.ts';
import { applyMigrations, createMigration, pendingSchemaChange } from '../src/infra/db/migrations.ts';

const [command, name] = process.argv.slice(2);

if (command === 'new') {
  const dir = await createMigration(name ?? 'change');
  console.log(dir ? `Created ${dir}` : 'schema.prisma matches the migrations: nothing to create.');
} else if (command === 'check') {
  const sql = await pendingSchemaChange();
  if (sql) {
    console.error('schema.prisma and prisma/migrations disagree. Run `pnpm migrate:new <name>`. Missing SQL:\n');
    console.error(sql);
    process.exit(1);
  }
  console.log('Migrations match schema.prisma.');
} else if (command === 'apply') {
  // It may make the embedded database in DATA_DIR: for the owner alone (the migrations it writes
  // into the repository, `new`, keep the usual modes).
  keepFilesPrivate();
  const config = readConfig(process.env);
  const db = await openDatabase(config.database, { migrate: false });
  try {
    const applied = await applyMigrations(db.adapterFactory);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await db.close();
  }
} else {
  console.error('usage: migrate new <name> | apply | check');
  process.exit(2);
}
