import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
import { makeGallery } from '../galleries/testing.ts';
import { uploaded } from '../storage/testing.ts';
import { newFolder, send } from './testing.ts';

// Uploads whose name already exists in the target folder (issue #16, 'Upload conflicts are never silent').

let app: TestApp, owner: User, stranger: User;
const db = () => app.database.prisma;

beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

// Real JPEGs, each its own picture (a gallery takes photos and videos only): the words pick the colour.
async function photo(words: string) {
  const hash = createHash('sha256').update(words).digest();
  return sharp({ create: { width: 16, height: 16, channels: 3, background: { r: hash[0], g: hash[1], b: hash[2] } } })
    .jpeg()
    .toBuffer();
}

/** Sends bytes through the real upload protocol and files them under `name`. */
async function upload(who: User, name: string, fields: Record<string, unknown> = {}, words = name) {
  const bytes = await uploaded(app, who, await photo(`${words} ${Math.random()}`));
  const answer = await send(app, who.cookie, 'POST', '/api/files', {
    name,
    objectUrl: bytes.uploadURL,
    folderId: null,
    ...fields,
  });
  return { ...answer, bytes };
}

async function galleryPhotos(galleryId: string) {
  const items = await send(app, owner.cookie, 'GET', `/api/galleries/${galleryId}/items`);
  expect(items.status).toBe(200);
  return (items.body as { file: { id: string; name: string; objectPath: string } }[]).map((i) => i.file);
}

describe('a gallery shows the photo it was given', () => {
  it('keeps showing the old photo after an upload of the same name that did not ask to replace it', async () => {
    const folder = await newFolder(app, owner.cookie, 'Barn recce');
    const barn = await upload(owner, 'barn-sunset.jpg', { folderId: folder.id }, 'the barn at sunset');
    expect(barn.status).toBe(201);
    const gallery = await makeGallery(app, owner.cookie);
    expect(
      (await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [barn.body.id] })).status,
    ).toBe(201);

    const diner = await upload(owner, 'barn-sunset.jpg', { folderId: folder.id }, 'the diner');
    expect(diner.status).toBe(201);

    const [shown] = await galleryPhotos(gallery.id);
    expect(shown).toMatchObject({ id: barn.body.id, name: 'barn-sunset.jpg', objectPath: barn.bytes.objectPath });
    expect(diner.body).toMatchObject({ name: 'barn-sunset (1).jpg', objectPath: diner.bytes.objectPath, version: 1 });
    expect(diner.body.id).not.toBe(barn.body.id);
  });
});

const usedBytes = async (who: User) =>
  (await send(app, who.cookie, 'GET', '/api/storage/usage')).body.usedBytes as number;

describe('POST /api/files onConflict', () => {
  it('keeps both by default, numbering the new one with the first free name', async () => {
    const folder = await newFolder(app, owner.cookie, 'Diner');
    const first = await upload(owner, 'diner.jpg', { folderId: folder.id });
    const second = await upload(owner, 'diner.jpg', { folderId: folder.id });
    const third = await upload(owner, 'diner.jpg', { folderId: folder.id, onConflict: 'keepBoth' });
    expect([first.status, second.status, third.status]).toEqual([201, 201, 201]);
    expect(first.body).toMatchObject({ name: 'diner.jpg', renamedFrom: null, version: 1 });
    expect(second.body).toMatchObject({ name: 'diner (1).jpg', renamedFrom: 'diner.jpg', version: 1 });
    expect(third.body).toMatchObject({ name: 'diner (2).jpg', renamedFrom: 'diner.jpg', version: 1 });
    // A gap left by a deleted file is the first free name again.
    expect((await send(app, owner.cookie, 'DELETE', `/api/files/${second.body.id}`)).status).toBe(200);
    const fourth = await upload(owner, 'diner.jpg', { folderId: folder.id });
    expect(fourth.body.name).toBe('diner (1).jpg');
    // Names without an extension get the number at the end.
    await upload(owner, 'NOTES', { folderId: folder.id });
    expect((await upload(owner, 'NOTES', { folderId: folder.id })).body.name).toBe('NOTES (1)');
  });

  it('replaces only when asked: the existing file gets a new version, and its galleries show it', async () => {
    const folder = await newFolder(app, owner.cookie, 'Warehouse');
    const old = await upload(owner, 'dock.jpg', { folderId: folder.id });
    const gallery = await makeGallery(app, owner.cookie, { name: 'Docks' });
    await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [old.body.id] });
    const replaced = await upload(owner, 'dock.jpg', { folderId: folder.id, onConflict: 'replace' });
    expect(replaced.status).toBe(201);
    expect(replaced.body).toMatchObject({ id: old.body.id, name: 'dock.jpg', version: 2, renamedFrom: null });
    const [shown] = await galleryPhotos(gallery.id);
    expect(shown).toMatchObject({ id: old.body.id, objectPath: replaced.bytes.objectPath });
    // A name that is free is simply filed, whatever the choice.
    const fresh = await upload(owner, 'yard.jpg', { folderId: folder.id, onConflict: 'replace' });
    expect(fresh.body).toMatchObject({ name: 'yard.jpg', version: 1 });
  });

  it('skips when asked: files nothing, says so, and the skipped bytes stop counting against the quota', async () => {
    const uploader = await signedInUser(app);
    const kept = await upload(uploader, 'roof.jpg');
    const before = await usedBytes(uploader);
    const skipped = await upload(uploader, 'roof.jpg', { onConflict: 'skip' });
    expect(skipped.status).toBe(200);
    expect(skipped.body).toEqual({
      skipped: true,
      existing: expect.objectContaining({ id: kept.body.id, name: 'roof.jpg' }),
    });
    expect(await db().file.count({ where: { ownerId: uploader.id } })).toBe(1);
    expect(await usedBytes(uploader)).toBe(before);
    const released = await db().upload.findUniqueOrThrow({ where: { id: skipped.bytes.uploadId } });
    expect(released.status).toBe('released');
    // The skipped upload cannot be filed afterwards either.
    const again = await send(app, uploader.cookie, 'POST', '/api/files', {
      name: 'other.jpg',
      objectUrl: skipped.bytes.uploadURL,
    });
    expect(again.status).toBe(400);
    // Free names are filed even when skip was chosen for the batch.
    expect((await upload(uploader, 'porch.jpg', { onConflict: 'skip' })).status).toBe(201);
  });

  it('refuses an unknown choice with a 400 and files nothing', async () => {
    const uploader = await signedInUser(app);
    const refused = await upload(uploader, 'a.jpg', { onConflict: 'overwrite' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('onConflict must be one of keepBoth, replace, skip.');
    expect(await db().file.count({ where: { ownerId: uploader.id } })).toBe(0);
  });

  it('gives simultaneous keep-both uploads of one name each their own name', async () => {
    const uploader = await signedInUser(app);
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => upload(uploader, 'burst.jpg')));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(results.map((r) => r.body.name).sort()).toEqual([
      'burst (1).jpg',
      'burst (2).jpg',
      'burst (3).jpg',
      'burst (4).jpg',
      'burst.jpg',
    ]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(5);
  });

  it('keeps a numbered name and a rename to it apart when both happen at once', async () => {
    const uploader = await signedInUser(app);
    await upload(uploader, 'lot.jpg');
    const other = await upload(uploader, 'other.jpg');
    const [renamed, kept] = await Promise.all([
      send(app, uploader.cookie, 'PATCH', `/api/files/${other.body.id}`, { name: 'lot (1).jpg' }),
      upload(uploader, 'lot.jpg'),
    ]);
    const names = (await db().file.findMany({ where: { ownerId: uploader.id }, select: { name: true } })).map(
      (f) => f.name,
    );
    expect(new Set(names).size).toBe(names.length);
    expect(kept.status).toBe(201);
    expect([200, 409]).toContain(renamed.status);
  });
});

describe('GET /api/files/conflicts', () => {
  it('answers which names are taken in the folder, with what keep-both would call the upload', async () => {
    const folder = await newFolder(app, owner.cookie, 'Motel');
    const sign = await upload(owner, 'sign.jpg', { folderId: folder.id });
    await upload(owner, 'sign.jpg', { folderId: folder.id });
    await upload(owner, 'sign.jpg'); // the same name at the top level is another folder
    const query = `/api/files/conflicts?folderId=${folder.id}&names=sign.jpg&names=${encodeURIComponent('pool, night.jpg')}`;
    const answer = await send(app, owner.cookie, 'GET', query);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      conflicts: [
        {
          name: 'sign.jpg',
          existing: expect.objectContaining({ id: sign.body.id, name: 'sign.jpg' }),
          keepBothName: 'sign (2).jpg',
        },
      ],
    });
    const top = await send(app, owner.cookie, 'GET', '/api/files/conflicts?names=sign.jpg&names=none.jpg');
    expect(top.body.conflicts.map((c: { name: string }) => c.name)).toEqual(['sign.jpg']);
  });

  it('answers only about the viewer’s own folders, and refuses a question without names', async () => {
    const folder = await newFolder(app, owner.cookie, 'Private set');
    await upload(owner, 'secret.jpg', { folderId: folder.id });
    const foreign = await send(
      app,
      stranger.cookie,
      'GET',
      `/api/files/conflicts?folderId=${folder.id}&names=secret.jpg`,
    );
    expect(foreign.status).toBe(404);
    // The stranger's own top level knows nothing of the owner's files.
    const own = await send(app, stranger.cookie, 'GET', '/api/files/conflicts?names=secret.jpg&names=diner.jpg');
    expect(own.body).toEqual({ conflicts: [] });
    const empty = await send(app, owner.cookie, 'GET', '/api/files/conflicts');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Name at least one file.');
    expect((await app.request('/api/files/conflicts?names=a.jpg')).status).toBe(401);
  });
});

describe('GraphQL createFile(onConflict:) and fileNameConflicts', () => {
  const CREATE = `mutation($input: CreateFileInput!, $onConflict: UploadConflictChoice) {
    createFile(input: $input, onConflict: $onConflict) {
      __typename
      ... on MutationCreateFileSuccess { data { id name currentVersion } }
      ... on UploadSkipped { message existing { id name } }
      ... on Error { message }
    }
  }`;

  async function create(who: User, name: string, onConflict?: string) {
    const bytes = await uploaded(app, who, await photo(`${name} ${Math.random()}`));
    // biome-ignore lint/suspicious/noExplicitAny: the test reads whichever result type came back and asserts on it
    const result = await graphql<{ createFile: Record<string, any> }>(app, who.cookie, CREATE, {
      input: { name, objectUrl: bytes.uploadURL },
      ...(onConflict && { onConflict }),
    });
    expect(result.errors).toBeUndefined();
    return result.data!.createFile;
  }

  it('keeps both by default, replaces or skips when asked', async () => {
    const uploader = await signedInUser(app);
    const first = await create(uploader, 'gas-station.jpg');
    const both = await create(uploader, 'gas-station.jpg');
    expect(both).toMatchObject({
      __typename: 'MutationCreateFileSuccess',
      data: { name: 'gas-station (1).jpg', currentVersion: 1 },
    });
    const replaced = await create(uploader, 'gas-station.jpg', 'REPLACE');
    expect(replaced.data).toEqual({ id: first.data.id, name: 'gas-station.jpg', currentVersion: 2 });
    const before = await usedBytes(uploader);
    const skipped = await create(uploader, 'gas-station.jpg', 'SKIP');
    expect(skipped).toMatchObject({
      __typename: 'UploadSkipped',
      message: '"gas-station.jpg" already exists here; the upload was skipped.',
      existing: { id: first.data.id, name: 'gas-station.jpg' },
    });
    expect(await usedBytes(uploader)).toBe(before);
    expect(await db().file.count({ where: { ownerId: uploader.id } })).toBe(2);
  });

  it('names the taken names of the viewer’s own folder, and hides another person’s folder', async () => {
    const folder = await newFolder(app, owner.cookie, 'Gas stations');
    const taken = await upload(owner, 'pump.jpg', { folderId: folder.id });
    const folderNode = await graphql<{ folders: { edges: { node: { id: string; name: string } }[] } }>(
      app,
      owner.cookie,
      '{ folders(first: 100) { edges { node { id name } } } }',
    );
    const folderId = folderNode.data!.folders.edges.find((e) => e.node.name === 'Gas stations')!.node.id;
    const QUERY = `query($folderId: ID, $names: [String!]!) {
      fileNameConflicts(folderId: $folderId, names: $names) { name keepBothName existing { id name } }
    }`;
    const mine = await graphql<{
      fileNameConflicts: { name: string; keepBothName: string; existing: { id: string } }[];
    }>(app, owner.cookie, QUERY, { folderId, names: ['pump.jpg', 'canopy.jpg'] });
    expect(mine.errors).toBeUndefined();
    expect(mine.data!.fileNameConflicts).toEqual([
      { name: 'pump.jpg', keepBothName: 'pump (1).jpg', existing: { id: expect.any(String), name: 'pump.jpg' } },
    ]);
    expect(mine.data!.fileNameConflicts[0]!.existing.id).not.toBe(taken.body.id); // a global id, not the raw one
    const theirs = await graphql(app, stranger.cookie, QUERY, { folderId, names: ['pump.jpg'] });
    expect(theirs.data).toBeNull();
    expect(theirs.errors?.[0]?.message).toBe('Folder not found');
  });
});
