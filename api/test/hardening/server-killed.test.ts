import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';
import { person, postgresReachable, scratchPostgresDatabase } from '../harness.ts';
import { productionSettings, signUpOver, startServer } from '../server-process.ts';

// The server process is killed (SIGKILL) in the middle of a resumable upload; a new process on the
// same database and storage directory takes the upload over where it stopped.
const reachable = await postgresReachable();

let database: Awaited<ReturnType<typeof scratchPostgresDatabase>>;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  if (!reachable) return;
  database = await scratchPostgresDatabase('scoutbase_killed');
  dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-killed-'));
  env = { ...(await productionSettings(dataDir)), DATABASE_URL: database.url, DUE_REMINDER_INTERVAL_SECONDS: '0' };
});

afterAll(async () => {
  if (!reachable) return;
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

function pdf(size: number) {
  const bytes = randomBytes(size);
  bytes.write('%PDF-1.7\n', 0);
  return bytes;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * A PDF sent with tus-js-client as the web app sends it, or resumed at `uploadUrl`; fails when the
 * upload does (the server died under it, say). `onProgress` sees the bytes sent and the upload.
 */
function tusUpload(
  bytes: Buffer,
  options: {
    endpoint: string;
    uploadUrl?: string;
    filename: string;
    chunkSize: number;
    cookie: string;
    onProgress?: (sent: number, upload: Upload) => void;
  },
) {
  const { endpoint, uploadUrl, filename, chunkSize, cookie, onProgress } = options;
  return new Promise<void>((resolve, reject) => {
    const upload: Upload = new Upload(bytes, {
      endpoint,
      ...(uploadUrl ? { uploadUrl } : {}),
      chunkSize,
      headers: { cookie },
      metadata: { filename, filetype: 'application/pdf' },
      retryDelays: [],
      ...(onProgress ? { onProgress: (sent: number) => onProgress(sent, upload) } : {}),
      onError: reject,
      onSuccess: () => resolve(),
    });
    upload.start();
  });
}

it.skipIf(!reachable)(
  'resumes an upload on a new server process after the first was killed mid-upload; the cleanup pass leaves no orphans',
  async () => {
    const first = await startServer(env);
    const { cookie } = await signUpOver(first.origin, person());
    const bytes = pdf(4 * 1024 * 1024 + 7);
    const abandonedBytes = pdf(2 * 1024 * 1024);

    const uploadUrlOf = async (origin: string) =>
      (await (await fetch(`${origin}/api/objects/upload`, { method: 'POST', headers: { cookie } })).json()) as {
        uploadURL: string;
        tusEndpoint: string;
      };
    const kept = await uploadUrlOf(first.origin);
    const abandoned = await uploadUrlOf(first.origin);

    // Two uploads under way; the server dies when the first is about halfway.
    let keptUrl: string | null = null;
    let killing: Promise<void> | undefined;
    const killedMidway = tusUpload(bytes, {
      endpoint: kept.tusEndpoint,
      filename: 'call-sheet.pdf',
      chunkSize: 256 * 1024,
      cookie,
      onProgress: (sent, upload) => {
        keptUrl = upload.url;
        if (sent >= 2 * 1024 * 1024) killing ??= first.kill();
      },
    });
    const abandonedDone = tusUpload(abandonedBytes, {
      endpoint: abandoned.tusEndpoint,
      filename: 'scrap.pdf',
      chunkSize: 128 * 1024,
      cookie,
    });
    // Either may fail or finish: the server dies under them.
    await Promise.all([killedMidway.catch(() => {}), abandonedDone.catch(() => {})]);
    expect(killing).toBeDefined();
    await killing;
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(keptUrl).toBeTruthy();

    // A new process on the same port, database and storage directory.
    const second = await startServer(env);
    try {
      const head = await fetch(keptUrl as unknown as string, {
        method: 'HEAD',
        headers: { cookie, 'tus-resumable': '1.0.0' },
      });
      expect(head.status).toBe(200);
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(bytes.length);

      let resumedFrom = -1;
      await tusUpload(bytes, {
        endpoint: kept.tusEndpoint,
        uploadUrl: keptUrl as unknown as string,
        filename: 'call-sheet.pdf',
        chunkSize: 256 * 1024,
        cookie,
        onProgress: (sent) => {
          if (resumedFrom < 0) resumedFrom = sent;
        },
      });
      // It went on from where the bytes stopped, not from the start.
      expect(resumedFrom).toBeGreaterThanOrEqual(offset);

      const filed = await fetch(`${second.origin}/api/files`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'call-sheet.pdf', objectUrl: kept.uploadURL }),
      });
      expect(filed.status).toBe(201);
      const served = await fetch(`${second.origin}${new URL(kept.uploadURL).pathname}`, { headers: { cookie } });
      expect(served.status).toBe(200);
      expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
    } finally {
      await second.stop();
    }

    // The cleanup pass, once the grace period is over, removes the abandoned upload's bytes and row.
    const config = readConfig(env);
    const app = await createApp(config, { logger: pino({ level: 'silent' }) });
    try {
      await app.storage.cleanup({ now: new Date(Date.now() + 3 * 86_400_000) });
      const uploads = await app.database.prisma.upload.findMany();
      const keptId = new URL(kept.uploadURL).pathname.split('/').pop() as string;
      const abandonedId = new URL(abandoned.uploadURL).pathname.split('/').pop() as string;
      expect(uploads.map((u) => [u.id, u.status])).toEqual([[keptId, 'claimed']]);
      const left = [
        ...(await filesUnder(path.join(dataDir, 'objects'))),
        ...(await filesUnder(path.join(dataDir, 'tus'))),
      ];
      expect(left.filter((f) => f.includes(abandonedId))).toEqual([]);
      // Every byte left on disk belongs to the filed upload.
      expect(left.filter((f) => !f.includes(keptId))).toEqual([]);
      expect(left.some((f) => f.includes(keptId))).toBe(true);
    } finally {
      await app.close();
    }
  },
  // Two server starts (up to 120 s each on a loaded machine) and the upload itself.
  300_000,
);
