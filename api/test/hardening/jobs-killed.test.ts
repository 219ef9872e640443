import { randomBytes } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { person, postgresReachable } from '../harness.ts';
import { freshProductionSettings, signUpOver, startServer } from '../server-process.ts';

// The server is killed (SIGKILL: no shutdown, no hand-back of jobs) while an import copies files
// and while pictures wait for or go through their processing job. A new process on the same data
// finishes both: every file of the import is imported exactly once, every picture gets its
// thumbnails. Once on the embedded database, once on PostgreSQL.

const reachable = await postgresReachable();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const IMPORTED = 40;
const PHOTOS = 12;

async function setUp(kind: 'pglite' | 'postgres'): Promise<Record<string, string>> {
  const { dataDir, env } = await freshProductionSettings(`jobs-killed-${kind}`, cleanups, {
    postgres: kind === 'postgres',
  });
  const importDir = path.join(dataDir, 'drop');
  await mkdir(importDir, { recursive: true });
  // Big enough that the import takes a few seconds, so the kill lands in the middle of it.
  for (let i = 0; i < IMPORTED; i++) {
    const bytes = randomBytes(1024 * 1024);
    bytes.write('%PDF-1.7\n', 0);
    await writeFile(path.join(importDir, `sheet-${String(i).padStart(2, '0')}.pdf`), bytes);
  }
  return { ...env, IMPORT_DIR: importDir, DUE_REMINDER_INTERVAL_SECONDS: '0', RATE_LIMITS: 'false' };
}

/**
 * Photos big enough (24 MP) that their thumbnails take a while to make. The noise is drawn at a
 * quarter of the size and enlarged: drawing 24 MP of noise takes seconds per photo, and made between
 * uploads it let the server finish each photo before the next arrived, so the kill found none left.
 */
async function photo(i: number) {
  const noise = await sharp({
    create: {
      width: 1500,
      height: 1000,
      channels: 3,
      background: '#000000',
      noise: { type: 'gaussian', mean: 60 + i * 10, sigma: 50 },
    },
  })
    .png()
    .toBuffer();
  return sharp(noise).resize(6000, 4000, { kernel: 'nearest' }).jpeg({ quality: 85 }).toBuffer();
}

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function scenario(kind: 'pglite' | 'postgres') {
  const env = await setUp(kind);
  const first = await startServer(env);
  let second: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const { cookie } = await signUpOver(first.origin, person());
    const headers = { cookie, 'content-type': 'application/json' };

    // Pictures: uploaded back to back and filed; the upload answers before their thumbnails exist.
    const bytes = await Promise.all(Array.from({ length: PHOTOS }, (_, i) => photo(i)));
    const photos: { id: string; objectPath: string }[] = [];
    for (const [i, body] of bytes.entries()) {
      const { uploadURL } = await json<{ uploadURL: string }>(
        await fetch(`${first.origin}/api/objects/upload`, { method: 'POST', headers: { cookie } }),
      );
      const put = await json<{ metadata: object }>(
        await fetch(uploadURL, { method: 'PUT', headers: { cookie }, body }),
      );
      expect(put.metadata).toEqual({ processing: true });
      const filed = await json<{ id: string; objectPath: string }>(
        await fetch(`${first.origin}/api/files`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `set-${i}.jpg`, objectUrl: uploadURL }),
        }),
      );
      photos.push(filed);
    }

    const itemIds = Array.from({ length: IMPORTED }, (_, i) => `sheet-${String(i).padStart(2, '0')}.pdf`);
    const started = await json<{ id: string }>(
      await fetch(`${first.origin}/api/imports`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ source: 'local', itemIds }),
      }),
    );
    const progress = () =>
      fetch(`${first.origin}/api/imports/${started.id}`, { headers: { cookie } }).then((r) =>
        json<{ status: string; done: number; total: number }>(r),
      );
    const hasThumbnail = (origin: string, p: { objectPath: string }) =>
      fetch(`${origin}${p.objectPath}?variant=grid`, { headers: { cookie } }).then((r) => r.status === 200);

    // Killed once the import is under way and the first picture is done, the others still to do.
    await until('the import to be under way', async () => (await progress()).done >= 3);
    await until('a first thumbnail', () => hasThumbnail(first.origin, photos[0] as { objectPath: string }), 60_000);
    await first.kill();
    expect(first.child.signalCode).toBe('SIGKILL');

    // Read from the disk while no server runs: which pictures the killed process had not finished.
    const notDoneAtKill = (
      await Promise.all(
        photos.map((p) =>
          stat(path.join(env.DATA_DIR as string, `${p.objectPath.slice(1)}.grid.webp`)).catch(() => null),
        ),
      )
    ).filter((found) => found === null).length;

    second = await startServer(env);
    const origin = second.origin;
    const job = await until('the import to finish after the restart', async () => {
      const state = await json<{
        status: string;
        done: number;
        imported: number;
        failed: unknown[];
        fileIds: string[];
      }>(await fetch(`${origin}/api/imports/${started.id}`, { headers: { cookie } }));
      return state.status !== 'running' && state;
    });
    expect(job).toMatchObject({ status: 'completed', done: IMPORTED, imported: IMPORTED, failed: [] });
    const files = await json<{ name: string; metadata: Record<string, unknown> }[]>(
      await fetch(`${origin}/api/files`, { headers: { cookie } }),
    );
    const names = files.map((f) => f.name).sort();
    // Every file once: no second copy ("sheet-03 (1).pdf"), none missing.
    expect(names.filter((n) => n.startsWith('sheet-'))).toEqual(itemIds);

    for (const p of photos) {
      await until(`the thumbnail of ${p.objectPath}`, () => hasThumbnail(origin, p), 120_000);
    }
    const pictures = await json<{ name: string; metadata: Record<string, unknown> }[]>(
      await fetch(`${origin}/api/files`, { headers: { cookie } }),
    ).then((all) => all.filter((f) => f.name.startsWith('set-')));
    expect(pictures).toHaveLength(PHOTOS);
    for (const picture of pictures) {
      expect(picture.metadata).toMatchObject({ thumbnails: { grid: true, preview: true }, image: { width: 6000 } });
      expect(picture.metadata).not.toHaveProperty('processing');
    }
    // The kill left work to do (else this test would prove nothing about the restart).
    return { notDoneAtKill };
  } finally {
    await first.kill();
    await second?.stop();
  }
}

describe('jobs survive a SIGKILL', () => {
  it('on the embedded database: the import finishes, each file once; every picture gets its thumbnails', async () => {
    const { notDoneAtKill } = await scenario('pglite');
    expect(notDoneAtKill).toBeGreaterThan(0);
  }, 600_000);

  it.skipIf(!reachable)(
    'on PostgreSQL: the import finishes, each file once; every picture gets its thumbnails',
    async () => {
      const { notDoneAtKill } = await scenario('postgres');
      expect(notDoneAtKill).toBeGreaterThan(0);
    },
    600_000,
  );
});
