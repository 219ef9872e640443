import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, signedInUser, testApp, sendBody } from '../../test/harness.ts';
import { runCleanup } from './rules.ts';
import type { LocalObjectStore } from '../infra/objects/store.ts';
import { put, uploaded, uploadedAndProcessed, uploadUrl } from './testing.ts';

let app: TestApp, owner: User;
beforeAll(async () => {
  [app, owner] = await appWithPeople(anyone);
});
afterAll(() => app.close());

const DAY = 86_400_000;

/** Every object file on disk (bytes and thumbnails), by name. */
async function objectsOnDisk() {
  const dir = path.join(app.dataDir, 'objects', 'uploads');
  return (await readdir(dir).catch(() => [])).sort();
}

async function filesPost(body: Record<string, unknown>) {
  const response = await sendBody(app, owner.cookie, 'POST', '/api/files', body);
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string };
}

function photo(color: string) {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

describe('cleanup pass', () => {
  it('deleting a file leaves no bytes, thumbnails or versions behind once the pass ran', async () => {
    const first = await uploadedAndProcessed(app, owner, await photo('#204060'));
    const file = await filesPost({ name: 'gate.jpg', originalName: 'gate.jpg', objectUrl: first.uploadURL });
    // Replacing the file of the same name makes the upload version 2 of it.
    const second = await uploadedAndProcessed(app, owner, await photo('#604020'));
    const again = await filesPost({
      name: 'gate.jpg',
      originalName: 'gate.jpg',
      objectUrl: second.uploadURL,
      onConflict: 'replace',
    });
    expect(again.id).toBe(file.id);
    const ids = [first.uploadId, second.uploadId];
    for (const id of ids) {
      expect(await objectsOnDisk()).toEqual(expect.arrayContaining([id, `${id}.grid.webp`, `${id}.preview.webp`]));
    }
    const usageBefore = (await (await app.request('/api/storage/usage', { cookie: owner.cookie })).json()) as {
      usedBytes: number;
    };
    expect(usageBefore.usedBytes).toBeGreaterThanOrEqual(first.size + second.size);

    const deleted = await app.request(`/api/files/${file.id}`, { method: 'DELETE', cookie: owner.cookie });
    expect(deleted.status).toBeLessThan(300);
    expect(await app.database.prisma.upload.count({ where: { id: { in: ids }, status: 'released' } })).toBe(2);
    // Released bytes are no longer served, even to their owner, before the pass runs.
    expect((await app.request(first.objectPath, { cookie: owner.cookie })).status).toBe(404);

    const report = await app.storage.cleanup();
    expect(report.failed).toBe(0);
    const left = await objectsOnDisk();
    for (const id of ids) expect(left.filter((name) => name.startsWith(id))).toEqual([]);
    expect(await app.database.prisma.upload.count({ where: { id: { in: ids } } })).toBe(0);
    // Idempotent: a second pass finds nothing to do.
    expect(await app.storage.cleanup()).toEqual({ removed: 0, failed: 0 });
  });

  it('removes unfiled uploads only after their time and the grace period, never filed ones', async () => {
    const unfiled = await uploaded(app, owner, 'never filed\n');
    const filed = await uploaded(app, owner, 'filed\n');
    await filesPost({ name: 'kept.txt', originalName: 'kept.txt', objectUrl: filed.uploadURL });
    const abandoned = await uploadUrl(app, owner);
    const abandonedId = new URL(abandoned).pathname.split('/').pop() as string;

    // Within the grace period nothing goes.
    await app.storage.cleanup({ now: new Date(Date.now() + DAY / 2) });
    expect(await app.database.prisma.upload.count({ where: { id: { in: [unfiled.uploadId, abandonedId] } } })).toBe(2);

    const report = await app.storage.cleanup({ now: new Date(Date.now() + 2 * DAY) });
    expect(report.removed).toBeGreaterThanOrEqual(2);
    expect(await app.database.prisma.upload.count({ where: { id: { in: [unfiled.uploadId, abandonedId] } } })).toBe(0);
    expect(await objectsOnDisk()).not.toContain(unfiled.uploadId);
    // The filed one is untouched and still served.
    expect(await objectsOnDisk()).toContain(filed.uploadId);
    expect((await app.request(filed.objectPath, { cookie: owner.cookie })).status).toBe(200);
    // The abandoned URL cannot be used any more.
    expect((await put(app, owner, 'late bytes', abandoned)).response.status).toBe(403);
  });

  it('never removes bytes a record still points at, even when marked released', async () => {
    const held = await uploaded(app, owner, 'still shown\n');
    await filesPost({ name: 'held.txt', originalName: 'held.txt', objectUrl: held.uploadURL });
    await app.database.prisma.upload.update({ where: { id: held.uploadId }, data: { status: 'released' } });
    await app.storage.cleanup();
    expect((await app.database.prisma.upload.findUniqueOrThrow({ where: { id: held.uploadId } })).status).toBe(
      'claimed',
    );
    expect(await objectsOnDisk()).toContain(held.uploadId);
  });

  it('a pass that dies midway is finished by the next one', async () => {
    const victims = [];
    // Processed first: a thumbnail job still running would write (then remove) its thumbnails
    // while the passes below run, a race of its own (processing.ts) that this test is not about.
    for (let i = 0; i < 4; i++) victims.push(await uploadedAndProcessed(app, owner, await photo(`#10${i}0${i}0`)));
    await app.database.prisma.upload.updateMany({
      where: { id: { in: victims.map((v) => v.uploadId) } },
      data: { status: 'released' },
    });
    // The disk fails after the first object: the pass must not lose track of the rest.
    const real = app.storage.store as LocalObjectStore;
    let calls = 0;
    const failing = Object.create(real) as LocalObjectStore;
    failing.deletePrefix = async (prefix: string) => {
      calls += 1;
      if (calls > 1) throw new Error('disk went away');
      return real.deletePrefix(prefix);
    };
    const crashed = await runCleanup({ ...app.storage.deps, store: failing });
    expect(crashed).toEqual({ removed: 1, failed: 3 });
    const remaining = await app.database.prisma.upload.findMany({
      where: { id: { in: victims.map((v) => v.uploadId) } },
    });
    expect(remaining).toHaveLength(3);
    expect(remaining.every((u) => u.status === 'released')).toBe(true);

    // Killed outright between deleting bytes and deleting the row: the next pass copes too.
    const half = remaining[0];
    if (!half) throw new Error('expected a remaining upload');
    await real.deletePrefix(half.objectKey);

    expect(await runCleanup(app.storage.deps)).toEqual({ removed: 3, failed: 0 });
    const left = await objectsOnDisk();
    for (const v of victims) expect(left.filter((name) => name.startsWith(v.uploadId))).toEqual([]);
    expect(await app.database.prisma.upload.count({ where: { id: { in: victims.map((v) => v.uploadId) } } })).toBe(0);
  });

  it('removes bytes whose upload row went with a deleted account, after the grace period', async () => {
    const leaving = await signedInUser(app);
    const left = await uploadedAndProcessed(app, leaving, await photo('#0a0a0a'));
    await app.database.prisma.user.delete({ where: { id: leaving.id } });
    expect(await app.database.prisma.upload.count({ where: { id: left.uploadId } })).toBe(0);
    await app.storage.cleanup();
    // The photo and its three thumbnails.
    expect((await objectsOnDisk()).filter((name) => name.startsWith(left.uploadId))).toHaveLength(4);
    await app.storage.cleanup({ now: new Date(Date.now() + 2 * DAY) });
    expect((await objectsOnDisk()).filter((name) => name.startsWith(left.uploadId))).toEqual([]);
    // Everyone else's bytes stay.
    expect((await objectsOnDisk()).length).toBeGreaterThan(0);
  });

  it('runs on its own timer while the app runs', async () => {
    const other = await testApp({ STORAGE_CLEANUP_INTERVAL: '1' });
    const user = await signedInUser(other);
    const stale = await uploaded(other, user, 'stale\n');
    await other.database.prisma.upload.update({ where: { id: stale.uploadId }, data: { status: 'released' } });
    // The app's own timer runs the pass.
    for (let i = 0; i < 40; i++) {
      if ((await other.database.prisma.upload.count({ where: { id: stale.uploadId } })) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await other.database.prisma.upload.count({ where: { id: stale.uploadId } })).toBe(0);
    await other.close();
  });
});
