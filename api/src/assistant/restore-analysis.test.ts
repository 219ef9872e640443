import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, send } from '../../test/harness.ts';
import { uploaded } from '../storage/testing.ts';
import { TAG_PHOTO } from './photo-tagging-job.ts';
import { tagPhoto } from './tagging.ts';

// Issue 53 item 5: the analysis (AI tags, description) belongs to the bytes it looked at. Restoring
// an older version brings back that version's analysis; the tags the person typed stay.

let app: TestApp, alice: User;
beforeAll(async () => {
  [app, alice] = await appWithPeople(anyone);
});
afterAll(() => app?.close());

const db = () => app.database.prisma;

async function jpeg(background: string, w = 640, h = 400) {
  const bytes = await sharp({ create: { width: w, height: h, channels: 3, background } })
    .jpeg()
    .toBuffer();
  return uploaded(app, alice, new Uint8Array(bytes));
}

async function analyse(fileId: string) {
  const { status, body } = await send(app, alice.cookie, 'POST', '/api/ai/analyze-file', { fileId });
  expect(status).toBe(200);
  return body as { tags: string[]; description: string };
}

async function current(fileId: string) {
  const file = await db().file.findUniqueOrThrow({ where: { id: fileId } });
  const metadata = file.metadata as { autoTagged?: boolean; aiAnalysis?: { description: string; tags: string[] } };
  return { tags: file.tags, metadata };
}

/** A red landscape photo tagged "warehouse" by its owner and analysed, then a blue portrait as version 2, analysed. */
async function redThenBlue(analyseRed: boolean) {
  const red = await jpeg('#c82828');
  const created = await send(app, alice.cookie, 'POST', '/api/files', {
    name: `red-${Math.random().toString(36).slice(2)}.jpg`,
    objectUrl: red.uploadURL,
  });
  expect(created.status).toBe(201);
  const filed = created.body as { id: string };
  expect((await send(app, alice.cookie, 'PATCH', `/api/files/${filed.id}`, { tags: ['warehouse'] })).status).toBe(200);
  if (analyseRed) expect((await analyse(filed.id)).description).toMatch(/mostly red/);
  const blue = await jpeg('#1e46d2', 400, 640);
  const added = await send(app, alice.cookie, 'POST', `/api/files/${filed.id}/versions`, { objectUrl: blue.uploadURL });
  expect(added.status).toBe(201);
  expect((await analyse(filed.id)).description).toMatch(/Portrait photo, mostly blue/);
  const now = await current(filed.id);
  // The new version's analysis replaced the old one's tags; the person's own tag stayed.
  expect(now.tags).toEqual(expect.arrayContaining(['warehouse', 'portrait', 'blue']));
  expect(now.tags).not.toContain('red');
  return filed.id;
}

describe('restoring a version brings back the analysis of its bytes', () => {
  it('restores the analysed version’s own tags and description, keeping the tags the person typed', async () => {
    const fileId = await redThenBlue(true);
    const restored = await send(app, alice.cookie, 'POST', `/api/files/${fileId}/versions/1/restore`);
    expect(restored.status).toBe(200);
    const after = await current(fileId);
    expect(after.metadata.autoTagged).toBe(true);
    expect(after.metadata.aiAnalysis?.description).toMatch(/^Landscape photo, mostly red/);
    expect(after.tags).toEqual(expect.arrayContaining(['warehouse', 'landscape', 'red']));
    expect(after.tags).not.toContain('blue');
    expect(after.tags).not.toContain('portrait');
    // What the REST answer says is what was saved.
    expect(restored.body.tags).toEqual(after.tags);

    // And back to the blue one (now version 2 → restore as version 4): its analysis again, no second analysis needed.
    expect((await send(app, alice.cookie, 'POST', `/api/files/${fileId}/versions/2/restore`)).status).toBe(200);
    const again = await current(fileId);
    expect(again.metadata.aiAnalysis?.description).toMatch(/^Portrait photo, mostly blue/);
    expect(again.tags).toEqual(expect.arrayContaining(['warehouse', 'portrait', 'blue']));
    expect(again.tags).not.toContain('red');
  });

  it('restoring a version never analysed drops the newer analysis and analyses the restored bytes by the job', async () => {
    const fileId = await redThenBlue(false);
    await db().$executeRaw`DELETE FROM pgboss.job WHERE name = ${TAG_PHOTO} AND data->>'fileId' = ${fileId}`;
    expect((await send(app, alice.cookie, 'POST', `/api/files/${fileId}/versions/1/restore`)).status).toBe(200);
    const after = await current(fileId);
    expect(after.metadata).not.toHaveProperty('aiAnalysis');
    expect(after.metadata).not.toHaveProperty('autoTagged');
    expect(after.tags).toEqual(['warehouse']);
    const jobs = await db().$queryRaw<unknown[]>`
      SELECT 1 FROM pgboss.job WHERE name = ${TAG_PHOTO} AND data->>'fileId' = ${fileId}`;
    expect(jobs).toHaveLength(1);

    await tagPhoto(app.services, { store: app.storage.store }, fileId);
    const tagged = await current(fileId);
    expect(tagged.metadata.aiAnalysis?.description).toMatch(/^Landscape photo, mostly red/);
    expect(tagged.tags).toEqual(expect.arrayContaining(['warehouse', 'landscape', 'red']));
    expect(tagged.tags).not.toContain('blue');
  });
});
