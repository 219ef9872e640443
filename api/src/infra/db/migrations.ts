import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { SchemaEngine, type MigrationList } from '@prisma/schema-engine-wasm';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const schemaPath = path.join(repoRoot, 'prisma/schema.prisma');
export const migrationsDir = path.join(repoRoot, 'prisma/migrations');
const filters = { externalTables: [], externalEnums: [] };
const EMPTY = '-- This is an empty migration.';

export async function loadMigrations(dir = migrationsDir): Promise<MigrationList> {
  const entries = existsSync(dir) ? await readdir(dir, { withFileTypes: true }) : [];
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockPath = path.join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: {
      path: 'migration_lock.toml',
      content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null,
    },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: {
            tag: 'ok' as const,
            value: await readFile(path.join(dir, name, 'migration.sql'), 'utf8'),
          },
        },
      })),
    ),
  };
}

async function openEngine(factory: SqlMigrationAwareDriverAdapterFactory) {
  const datamodel = await readFile(schemaPath, 'utf8');
  const logs: string[] = [];
  const engine = await SchemaEngine.new(
    { datamodels: [[schemaPath, datamodel]] },
    (line: string) => logs.push(line),
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  return { engine, datamodel };
}

/** Applies every committed migration that the database has not seen yet. */
export async function applyMigrations(factory: SqlMigrationAwareDriverAdapterFactory) {
  const { engine } = await openEngine(factory);
  try {
    const out = await engine.applyMigrations({ migrationsList: await loadMigrations(), filters });
    return out.appliedMigrationNames;
  } finally {
    engine.free();
  }
}

// The diff replays the migrations into a throw-away embedded database, so creating and checking
// migrations needs no server and no internet.
function scratchFactory(): SqlMigrationAwareDriverAdapterFactory & { close(): Promise<void> } {
  const opened: PGlite[] = [];
  const open = () => {
    const db = new PGlite({ extensions: { pg_trgm } });
    opened.push(db);
    return db;
  };
  const main = new PrismaPGlite(open());
  return {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: () => main.connect(),
    connectToShadowDb: () => new PrismaPGlite(open()).connect(),
    close: async () => {
      await Promise.all(opened.map((db) => db.close()));
    },
  };
}

/** SQL that brings the committed migrations to the current schema.prisma, or null if none. */
export async function pendingSchemaChange(): Promise<string | null> {
  const factory = scratchFactory();
  const { engine, datamodel } = await openEngine(factory);
  try {
    const list = await loadMigrations();
    const result = await engine.diff({
      from: list.migrationDirectories.length ? { tag: 'migrations', ...list } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: datamodel }] },
      script: true,
      exitCode: null,
      filters,
    });
    const applied = list.migrationDirectories.map((d) => d.migrationFile.content.value ?? '').join('\n');
    const sql = withoutKnownExtensions((result.stdout ?? '').trim(), applied);
    return sql === '' || sql === EMPTY ? null : `${sql}\n`;
  } finally {
    engine.free();
    await factory.close();
  }
}

// The engine does not see extensions when it replays migrations into the embedded shadow
// database, so it asks again for ones a committed migration already creates.
function withoutKnownExtensions(sql: string, applied: string): string {
  return sql
    .replace(/-- CreateExtension\n(CREATE EXTENSION IF NOT EXISTS "[^"]+";)\n*/g, (block, statement: string) =>
      applied.includes(statement) ? '' : block,
    )
    .trim();
}

/** Writes the next migration folder from the schema change; returns its folder or null. */
export async function createMigration(name: string): Promise<string | null> {
  const sql = await pendingSchemaChange();
  if (!sql) return null;
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '') || 'change';
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(migrationsDir, `${stamp}_${slug}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'migration.sql'), sql);
  const lock = path.join(migrationsDir, 'migration_lock.toml');
  if (!existsSync(lock)) {
    await writeFile(
      lock,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
  }
  return dir;
}
