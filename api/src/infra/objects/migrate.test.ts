import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SignedInUser as User,
  browserRequests,
  sendBody,
  signedInUser,
  testApp,
  type TestApp,
  borrowedDatabase,
} from '../../../test/harness.ts';
import { bucketSettings, startBucket, type TestBucket } from '../../../test/s3.ts';
import { runScript } from '../../../test/server-process.ts';
import { createApp } from '../../app.ts';
import { uploaded, uploadedAndProcessed } from '../../storage/testing.ts';
import { objectKeys } from './migrate.ts';
import { S3ObjectStore } from './s3.ts';
import { LocalObjectStore } from './store.ts';

// pnpm storage:migrate on a disk library with files, versions and thumbnails: to the bucket (and
// resumably again), then the app switched to the bucket serves the same bytes, and back to disk.

let bucket: TestBucket;
let app: TestApp;
let owner: User;
let bucketStore: S3ObjectStore;
const photoPaths: string[] = [];
const filePaths: string[] = [];

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function checksums(store: LocalObjectStore | S3ObjectStore) {
  const sums = new Map<string, string>();
  for await (const key of objectKeys(store)) {
    const chunks: Buffer[] = [];
    for await (const chunk of (await store.get(key)) as Readable) chunks.push(chunk as Buffer);
    sums.set(key, sha(Buffer.concat(chunks)));
  }
  return sums;
}

function migrate(to: 's3' | 'local', dataDir: string) {
  return runScript('scripts/storage-migrate.ts', ['--to', to], {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ...bucket.env,
    S3_PREFIX: 'migrated',
  });
}

beforeAll(async () => {
  bucket = await startBucket();
  app = await testApp();
  owner = await signedInUser(app);
  bucketStore = new S3ObjectStore(bucketSettings(bucket, 'migrated'));
  // Two photos (each with two thumbnails) and a text file with three versions.
  for (const colour of ['#304050', '#a05030']) {
    const bytes = new Uint8Array(
      await sharp({ create: { width: 700, height: 450, channels: 3, background: colour } })
        .jpeg()
        .toBuffer(),
    );
    const up = await uploadedAndProcessed(app, owner, bytes);
    expect(up.metadata.thumbnails).toEqual({ grid: true, grid2x: true, preview: true });
    const filed = await sendBody(app, owner.cookie, 'POST', '/api/files', {
      name: `scout-${colour.slice(1)}.jpg`,
      objectUrl: up.uploadURL,
      folderId: null,
    });
    expect(filed.status).toBe(201);
    photoPaths.push(up.objectPath);
  }
  const first = await uploaded(app, owner, 'Call sheet, version 1\n');
  const created = await sendBody(app, owner.cookie, 'POST', '/api/files', {
    name: 'call-sheet.txt',
    objectUrl: first.uploadURL,
    folderId: null,
  });
  const fileId = ((await created.json()) as { id: string }).id;
  filePaths.push(first.objectPath);
  for (const n of [2, 3]) {
    const next = await uploaded(app, owner, `Call sheet, version ${n}\n`);
    const added = await sendBody(app, owner.cookie, 'POST', `/api/files/${fileId}/versions`, {
      objectUrl: next.uploadURL,
    });
    expect(added.status).toBe(201);
    filePaths.push(next.objectPath);
  }
});
afterAll(async () => {
  await app?.close();
  await bucket?.close();
});

describe('pnpm storage:migrate', () => {
  it('copies every object, version and thumbnail to the bucket with equal checksums; a second run copies nothing', async () => {
    const local = app.storage.store as LocalObjectStore;
    const before = await checksums(local);
    // 2 photos × 4 objects (the original and its three thumbnails) + 3 versions.
    expect(before.size).toBe(11);

    const run = await migrate('s3', app.dataDir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Done: 11 object(s) copied');
    expect(run.stdout).toContain('Nothing was deleted from the source.');
    expect(run.stdout).toContain('To switch: put these S3_* settings');
    expect(await checksums(bucketStore)).toEqual(before);
    expect(await checksums(local)).toEqual(before);

    const again = await migrate('s3', app.dataDir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Done: 0 object(s) copied (0.0 MB), 11 already there with the same sha256');
  });

  it('resumes: an object missing or different in the bucket is copied again, the rest left alone', async () => {
    const keys = [...(await checksums(bucketStore)).keys()];
    await bucketStore.delete(keys[0] as string);
    const damaged = keys[1] as string;
    const size = (await bucketStore.stat(damaged))?.size ?? 0;
    await bucketStore.put(damaged, Readable.from([Buffer.alloc(size, 7)]));
    const run = await migrate('s3', app.dataDir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Done: 2 object\(s\) copied .*, 9 already there/);
    expect(await checksums(bucketStore)).toEqual(await checksums(app.storage.store as LocalObjectStore));
  });

  it('the app switched to the bucket serves the same files, versions and thumbnails', async () => {
    const switched = await createApp(
      {
        ...app.config,
        storage: { ...app.config.storage, s3: bucketSettings(bucket, 'migrated') },
      },
      {
        database: borrowedDatabase(app),
        logger: pino({ level: 'silent' }),
      },
    );
    try {
      expect(switched.storage.store.kind).toBe('s3');
      const request = browserRequests(switched);
      for (const objectPath of [...photoPaths, ...filePaths]) {
        const [before, after] = [
          await app.request(objectPath, { cookie: owner.cookie }),
          await request(objectPath, { cookie: owner.cookie }),
        ];
        expect(after.status).toBe(200);
        expect(sha(new Uint8Array(await after.arrayBuffer()))).toBe(sha(new Uint8Array(await before.arrayBuffer())));
      }
      const grid = await request(`${photoPaths[0]}?variant=preview`, { cookie: owner.cookie });
      expect(grid.status).toBe(200);
      expect(grid.headers.get('content-type')).toBe('image/webp');
    } finally {
      await switched.close();
    }
  });

  it('--to local copies the bucket into an empty data folder with equal checksums', async () => {
    const target = await mkdtemp(path.join(tmpdir(), 'scoutbase-migrate-back-'));
    try {
      const run = await migrate('local', target);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Done: 11 object(s) copied');
      expect(run.stdout).toContain('remove S3_BUCKET');
      const back = new LocalObjectStore(path.join(target, 'objects'));
      expect(await checksums(back)).toEqual(await checksums(app.storage.store as LocalObjectStore));
      const photoKey = `uploads/${photoPaths[0]?.split('/').pop()}.grid.webp`;
      expect(sha(await readFile(path.join(target, 'objects', photoKey)))).toBe(
        (await checksums(bucketStore)).get(photoKey),
      );
    } finally {
      await rm(target, { recursive: true, force: true });
    }
  });

  it('says what is missing instead of guessing', async () => {
    const noDirection = await runScript('scripts/storage-migrate.ts', [], { NODE_ENV: 'test', ...bucket.env });
    expect(noDirection.code).toBe(1);
    expect(noDirection.stderr).toContain('pnpm storage:migrate --to s3, or --to local');
    const noBucket = await runScript('scripts/storage-migrate.ts', ['--to', 's3'], {
      NODE_ENV: 'test',
      DATA_DIR: app.dataDir,
    });
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toContain('Set S3_BUCKET');
  });
});
