import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { createFileRecord } from '../files/uploads.ts';
import { uploaded } from '../storage/testing.ts';
import { IMPORT_JOB } from './rules.ts';
import { call, finished } from './testing.ts';

// An import is a durable job: a run cut short (the process died) resumes at the first file it had
// not noted, and a file it had filed just before dying is not filed a second time.

let app: TestApp;
let importDir: string;
beforeAll(async () => {
  importDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-resume-'));
  for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) await writeFile(path.join(importDir, name), `${name}\n`);
  app = await testApp({ IMPORT_DIR: importDir });
});
afterAll(async () => {
  await app.close();
  await rm(importDir, { recursive: true, force: true });
});

describe('an import interrupted mid-way', () => {
  it('finishes the remaining files when its job runs again, each file imported once', async () => {
    const owner = await signedInUser(app);
    const db = app.database.prisma;
    const ctx = { ...app.services, viewer: { id: owner.id, email: 'x', sessionId: 'test' } };
    const item = (id: string) => ({ id, name: id, size: 6, onConflict: 'keepBoth' });
    // What a run killed while filing b.txt leaves: a.txt filed and noted, b.txt filed but not noted.
    const job = await db.importJob.create({
      data: {
        userId: owner.id,
        source: 'local',
        total: 4,
        done: 1,
        items: [
          { ...item('a.txt'), outcome: 'imported', storedAs: 'a.txt' },
          item('b.txt'),
          item('c.txt'),
          item('d.txt'),
        ],
        fileIds: [],
      },
    });
    const fileFor = async (name: string) => {
      const bytes = await uploaded(app, owner, `${name}\n`);
      const filed = await createFileRecord(ctx, {
        name,
        objectUrl: bytes.objectPath,
        metadata: { importedFrom: { source: 'local', itemId: name, importId: job.id } },
      });
      if (filed.skipped) throw new Error('skipped');
      return filed.file.id;
    };
    const a = await fileFor('a.txt');
    await db.importJob.update({
      where: { id: job.id },
      data: {
        fileIds: [a],
        items: [
          { ...item('a.txt'), outcome: 'imported', storedAs: 'a.txt', fileId: a },
          item('b.txt'),
          item('c.txt'),
          item('d.txt'),
        ],
      },
    });
    const b = await fileFor('b.txt');

    // The queue runs the job again (as it does after a restart).
    await app.services.jobs.send(IMPORT_JOB, { importId: job.id });
    const done = await finished(app, owner.cookie, job.id);
    expect(done).toMatchObject({ status: 'completed', total: 4, done: 4, imported: 4, failed: [], renamed: [] });
    const files = await db.file.findMany({ where: { ownerId: owner.id }, orderBy: { name: 'asc' } });
    expect(files.map((f) => f.name)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    expect(done.fileIds).toEqual([a, b, ...files.slice(2).map((f) => f.id)]);
    // Running it yet again changes nothing.
    await app.services.jobs.send(IMPORT_JOB, { importId: job.id });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await db.file.count({ where: { ownerId: owner.id } })).toBe(4);
    expect((await call(app, owner.cookie, 'GET', `/api/imports/${job.id}`)).body).toMatchObject({
      done: 4,
      imported: 4,
    });
  });
});
