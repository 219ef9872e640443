import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
import { makeGallery } from '../galleries/testing.ts';
import { newFolder, send, uploadFile } from './testing.ts';

// The name sort ignores case and puts numbers in number order, although the database's collation
// is byte-wise ('Z.jpg' < 'b.jpg' there); pages of a name-sorted list follow on without gaps.

let app: TestApp, owner: User;
beforeAll(async () => {
  [app, owner] = await appWithPeople(anyone);
});
afterAll(() => app.close());

const MIXED = ['b.jpg', 'Z.jpg', 'a.jpg', 'shot 10.jpg', 'Shot 9.jpg', 'C.jpg'];
const SORTED = ['a.jpg', 'b.jpg', 'C.jpg', 'Shot 9.jpg', 'shot 10.jpg', 'Z.jpg'];

const globalId = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');

const FILES_PAGE = `query($folderId: ID, $after: String) {
  files(folderId: $folderId, sort: NAME, first: 2, after: $after) {
    edges { cursor node { name } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const FOLDERS = `query($parentId: ID!) {
  folders(parentId: $parentId, first: 50) { edges { node { name } } }
  node(id: $parentId) { ... on Folder { folders(first: 50) { edges { node { name } } } } }
}`;

type Page = { files: { edges: { node: { name: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } };

async function allPagesByName(folderId: string) {
  const names: string[] = [];
  let after: string | undefined;
  for (let guard = 0; guard < 10; guard++) {
    const { data, errors } = await graphql<Page>(app, owner.cookie, FILES_PAGE, {
      folderId: globalId('Folder', folderId),
      after,
    });
    expect(errors).toBeUndefined();
    names.push(...data!.files.edges.map((e) => e.node.name));
    if (!data!.files.pageInfo.hasNextPage) break;
    after = data!.files.pageInfo.endCursor;
  }
  return names;
}

describe('name sort', () => {
  it('orders files case-insensitively and numbers as numbers, over REST and in GraphQL pages', async () => {
    const folder = await newFolder(app, owner.cookie, 'Mixed case');
    for (const name of MIXED) await uploadFile(app, owner, { name, folderId: folder.id });

    const listed = await send(app, owner.cookie, 'GET', `/api/files?folderId=${folder.id}&sort=name`);
    expect(listed.body.map((f: { name: string }) => f.name)).toEqual(SORTED);
    expect(listed.body[0]).not.toHaveProperty('sortName');
    expect(await allPagesByName(folder.id)).toEqual(SORTED);

    // A rename moves the file to its new place (the key follows the name).
    const a = listed.body[0] as { id: string };
    expect((await send(app, owner.cookie, 'PATCH', `/api/files/${a.id}`, { name: 'Zz.jpg' })).status).toBe(200);
    const renamed = [...SORTED.slice(1), 'Zz.jpg'];
    const after = await send(app, owner.cookie, 'GET', `/api/files?folderId=${folder.id}&sort=name`);
    expect(after.body.map((f: { name: string }) => f.name)).toEqual(renamed);
    expect(await allPagesByName(folder.id)).toEqual(renamed);

    // Type sorts by name within a type the same way.
    const byType = await send(app, owner.cookie, 'GET', `/api/files?folderId=${folder.id}&sort=type`);
    expect(byType.body.map((f: { name: string }) => f.name)).toEqual(renamed);
  });

  it('orders folders the same way, over REST and GraphQL', async () => {
    const parent = await newFolder(app, owner.cookie, 'Folder sort');
    for (const name of ['beta', 'Alpha', 'gamma 10', 'Gamma 9']) await newFolder(app, owner.cookie, name, parent.id);
    const expected = ['Alpha', 'beta', 'Gamma 9', 'gamma 10'];

    const listed = await send(app, owner.cookie, 'GET', `/api/folders?parentId=${parent.id}`);
    expect(listed.body.map((f: { name: string }) => f.name)).toEqual(expected);
    expect(listed.body[0]).not.toHaveProperty('sortName');
    const { data } = await graphql<{
      folders: { edges: { node: { name: string } }[] };
      node: { folders: { edges: { node: { name: string } }[] } };
    }>(app, owner.cookie, FOLDERS, { parentId: globalId('Folder', parent.id) });
    expect(data!.folders.edges.map((e) => e.node.name)).toEqual(expected);
    expect(data!.node.folders.edges.map((e) => e.node.name)).toEqual(expected);

    const beta = listed.body[1] as { id: string };
    const renamed = await send(app, owner.cookie, 'PATCH', `/api/folders/${beta.id}`, { name: 'Delta' });
    expect(renamed.body).toMatchObject({ name: 'Delta' });
    expect(renamed.body).not.toHaveProperty('sortName');
    const again = await send(app, owner.cookie, 'GET', `/api/folders?parentId=${parent.id}`);
    expect(again.body.map((f: { name: string }) => f.name)).toEqual(['Alpha', 'Delta', 'Gamma 9', 'gamma 10']);
  });

  it('orders galleries by name the same way, over REST and GraphQL', async () => {
    const viewer = await signedInUser(app);
    for (const name of ['b-roll', 'Z stage', 'a-camera', 'Stage 10', 'stage 9'])
      await makeGallery(app, viewer.cookie, { name });
    const expected = ['a-camera', 'b-roll', 'stage 9', 'Stage 10', 'Z stage'];
    const listed = await send(app, viewer.cookie, 'GET', '/api/galleries?sort=name');
    expect(listed.body.map((g: { name: string }) => g.name)).toEqual(expected);
    const { data, errors } = await graphql<{ galleries: { edges: { node: { name: string } }[] } }>(
      app,
      viewer.cookie,
      '{ galleries(sort: name, first: 50) { edges { node { name } } } }',
    );
    expect(errors).toBeUndefined();
    expect(data!.galleries.edges.map((e) => e.node.name)).toEqual(expected);
  });
});
