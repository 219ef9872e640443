import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type Database, openDatabase } from '../src/infra/db/database.ts';
import { createJobQueue } from '../src/infra/jobs/queue.ts';

// The job queue's tables too (pg-boss creates them at start, which takes seconds on PGlite).
async function installJobQueue(db: Database) {
  await (await createJobQueue(db, { workers: false })).close();
}

// Migrate once, then give every test file its own copy: a PGlite data-dir snapshot, or a
// PostgreSQL database cloned from a template when TEST_DATABASE_URL is set.
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `scoutbase_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    const db = await openDatabase({ kind: 'postgres', url: url.toString() }, { migrate: true });
    await installJobQueue(db);
    await db.close();
    project.provide('postgresTemplate', template);
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
    };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'scoutbase-test-'));
  const client = new PGlite({ extensions: { pg_trgm } });
  const db = await openDatabase({ kind: 'pglite', client }, { migrate: true });
  await installJobQueue(db);
  const snapshot = await client.dumpDataDir('none');
  await db.close();
  const file = path.join(dir, 'migrated.tar');
  await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return () => rm(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
  }
}
