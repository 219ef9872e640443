import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsDir } from './migrations.ts';

// @prisma/adapter-pg runs a migration on a PostgreSQL server by splitting its text at every ';'
// (comments and quoted text included), so a semicolon anywhere but at the end of a statement
// breaks the migration there while PGlite, which runs the whole script, applies it fine.
describe('migrations', () => {
  it('hold semicolons only where a statement ends, so a PostgreSQL server applies them as PGlite does', async () => {
    const misplaced: string[] = [];
    for (const dir of (await readdir(migrationsDir, { withFileTypes: true })).filter((d) => d.isDirectory())) {
      const sql = await readFile(path.join(migrationsDir, dir.name, 'migration.sql'), 'utf8');
      sql.split('\n').forEach((line, i) => {
        const at = line.indexOf(';');
        const endsStatement = at === line.trimEnd().length - 1 && !line.trimStart().startsWith('--');
        if (at !== -1 && !endsStatement) misplaced.push(`${dir.name}/migration.sql:${i + 1}: ${line.trim()}`);
      });
    }
    expect(misplaced).toEqual([]);
  });
});
