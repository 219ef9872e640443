import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedUpload } from '../../test/fixtures.ts';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
import { newFolder, uploadFile } from './testing.ts';
import { countStatements } from '../../test/statements.ts';

let app: TestApp, owner: User, stranger: User;
beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

const CREATE_FOLDER = `mutation($name: String!, $parentId: ID) {
  createFolder(name: $name, parentId: $parentId) {
    __typename
    ... on MutationCreateFolderSuccess { data { id name parent { id } } }
    ... on Error { message code }
  }
}`;

const CREATE_FILE = `mutation($input: CreateFileInput!, $onConflict: UploadConflictChoice) {
  createFile(input: $input, onConflict: $onConflict) {
    __typename
    ... on MutationCreateFileSuccess { data { id name size mimeType tags metadata currentVersion folder { id name } versions { version size } } }
    ... on Error { message code }
  }
}`;

async function createFolder(user: User, name: string, parentId?: string) {
  const result = await graphql<{ createFolder: { data: { id: string } } }>(app, user.cookie, CREATE_FOLDER, {
    name,
    parentId,
  });
  return result.data!.createFolder.data.id;
}

async function createFile(user: User, input: Record<string, unknown>, size = 2048, onConflict?: 'REPLACE') {
  const upload = await finishedUpload(app, user.id, { size });
  const result = await graphql<{ createFile: { __typename: string; data: { id: string } } }>(
    app,
    user.cookie,
    CREATE_FILE,
    { input: { objectUrl: upload.uploadURL, ...input }, onConflict },
  );
  return { result, upload };
}

describe('folders over GraphQL', () => {
  it('creates, lists, renames, moves and deletes folders', async () => {
    const scouting = await createFolder(owner, 'Scouting GQL');
    const child = await createFolder(owner, 'Day 1', scouting);
    const sibling = await createFolder(owner, 'Archive GQL');

    const listed = await graphql<{ folders: { edges: { node: { id: string; name: string } }[] } }>(
      app,
      owner.cookie,
      `query($parentId: ID) { folders(parentId: $parentId) { edges { node { id name } } } }`,
      { parentId: scouting },
    );
    expect(listed.data!.folders.edges.map((e) => e.node.name)).toEqual(['Day 1']);
    const tree = await graphql<{ node: { path: { name: string }[]; folderCount: number; fileCount: number } }>(
      app,
      owner.cookie,
      `query($id: ID!) { node(id: $id) { ... on Folder { path { name } folderCount fileCount } } }`,
      { id: child },
    );
    expect(tree.data!.node).toEqual({ path: [{ name: 'Scouting GQL' }], folderCount: 0, fileCount: 0 });

    const renamed = await graphql<{ renameFolder: { data: { name: string } } }>(
      app,
      owner.cookie,
      `mutation($id: ID!) { renameFolder(id: $id, name: "Day One") { ... on MutationRenameFolderSuccess { data { name } } } }`,
      { id: child },
    );
    expect(renamed.data!.renameFolder.data.name).toBe('Day One');

    const cycle = await graphql<{ moveFolder: { __typename: string; message: string } }>(
      app,
      owner.cookie,
      `mutation($id: ID!, $parentId: ID) { moveFolder(id: $id, parentId: $parentId) { __typename ... on Error { message } } }`,
      { id: scouting, parentId: child },
    );
    expect(cycle.data!.moveFolder).toEqual({
      __typename: 'ValidationError',
      message: 'A folder cannot be moved into itself or one of its subfolders.',
    });

    const moved = await graphql<{ moveFolder: { data: { parent: { id: string } } } }>(
      app,
      owner.cookie,
      `mutation($id: ID!, $parentId: ID) { moveFolder(id: $id, parentId: $parentId) { ... on MutationMoveFolderSuccess { data { parent { id } } } } }`,
      { id: child, parentId: sibling },
    );
    expect(moved.data!.moveFolder.data.parent.id).toBe(sibling);

    const refused = await graphql<{ deleteFolder: { __typename: string; message: string } }>(
      app,
      owner.cookie,
      `mutation($id: ID!) { deleteFolder(id: $id) { __typename ... on Error { message } } }`,
      { id: sibling },
    );
    expect(refused.data!.deleteFolder.__typename).toBe('BaseError');
    expect(refused.data!.deleteFolder.message).toMatch(/is not empty/);

    const deleted = await graphql<{ deleteFolder: { data: { deletedFolders: number; deletedFolderId: string } } }>(
      app,
      owner.cookie,
      `mutation($id: ID!) { deleteFolder(id: $id, recursive: true) { ... on MutationDeleteFolderSuccess { data { deletedFolderId deletedFolders deletedFiles } } } }`,
      { id: sibling },
    );
    expect(deleted.data!.deleteFolder.data).toMatchObject({ deletedFolderId: sibling, deletedFolders: 2 });
  });

  it('refuses a duplicate sibling name as a typed error', async () => {
    await createFolder(owner, 'Locations');
    const again = await graphql<{ createFolder: { __typename: string; message: string; code: string } }>(
      app,
      owner.cookie,
      CREATE_FOLDER,
      { name: 'locations' },
    );
    expect(again.data!.createFolder).toMatchObject({
      __typename: 'BaseError',
      code: 'CONFLICT',
      message: 'A folder named "locations" already exists at the top level.',
    });
  });

  it('keeps a stranger out of someone else’s folders', async () => {
    const mine = await createFolder(owner, 'Private GQL');
    const node = await graphql<{ node: unknown }>(app, stranger.cookie, `query($id: ID!) { node(id: $id) { id } }`, {
      id: mine,
    });
    expect(node.data!.node).toBeNull();
    const list = await graphql(
      app,
      stranger.cookie,
      `query($p: ID) { folders(parentId: $p) { edges { node { id } } } }`,
      {
        p: mine,
      },
    );
    expect(list.errors?.[0]?.message).toBe('Folder not found');
    const rename = await graphql<{ renameFolder: { __typename: string } }>(
      app,
      stranger.cookie,
      `mutation($id: ID!) { renameFolder(id: $id, name: "Mine now") { __typename } }`,
      { id: mine },
    );
    expect(rename.data!.renameFolder.__typename).toBe('BaseError');
  });
});

describe('files over GraphQL', () => {
  it('creates a file, lists it sorted, finds it and restores a version', async () => {
    const folder = await createFolder(owner, 'Stills GQL');
    const { result } = await createFile(owner, { name: 'warehouse.jpg', folderId: folder, tags: ['Exterior'] }, 5000);
    expect(result.data!.createFile.__typename).toBe('MutationCreateFileSuccess');
    const file = (result.data!.createFile as unknown as { data: Record<string, unknown> }).data;
    expect(file).toMatchObject({
      name: 'warehouse.jpg',
      size: 5000,
      mimeType: 'image/jpeg',
      tags: ['exterior'],
      currentVersion: 1,
      folder: { id: folder, name: 'Stills GQL' },
    });
    await createFile(owner, { name: 'big.jpg', folderId: folder }, 90_000);
    const second = await createFile(owner, { name: 'warehouse.jpg', folderId: folder }, 7000, 'REPLACE');
    expect((second.result.data!.createFile as unknown as { data: Record<string, unknown> }).data).toMatchObject({
      id: file.id,
      size: 7000,
      currentVersion: 2,
    });

    const bySize = await graphql<{ files: { edges: { node: { name: string; size: number } }[] } }>(
      app,
      owner.cookie,
      `query($f: ID) { files(folderId: $f, sort: SIZE) { edges { node { name size } } } }`,
      { f: folder },
    );
    expect(bySize.data!.files.edges.map((e) => e.node.name)).toEqual(['big.jpg', 'warehouse.jpg']);

    // Pages follow the sort order: the cursor continues after the last file of the page.
    await createFile(owner, { name: 'mid.jpg', folderId: folder }, 6000);
    const names: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const result: {
        data?: { files: { edges: { cursor: string; node: { name: string } }[]; pageInfo: { hasNextPage: boolean } } };
      } = await graphql(
        app,
        owner.cookie,
        `query($f: ID, $after: String) { files(folderId: $f, sort: SIZE, first: 1, after: $after) {
            edges { cursor node { name } } pageInfo { hasNextPage } } }`,
        { f: folder, after },
      );
      const edges = result.data!.files.edges;
      names.push(...edges.map((e) => e.node.name));
      if (!result.data!.files.pageInfo.hasNextPage) break;
      after = edges.at(-1)!.cursor;
    }
    expect(names).toEqual(['big.jpg', 'warehouse.jpg', 'mid.jpg']);

    const found = await graphql<{ searchFiles: { edges: { node: { id: string; name: string } }[] } }>(
      app,
      owner.cookie,
      `query { searchFiles(query: "warehouse") { edges { node { id name } } } }`,
    );
    expect(found.data!.searchFiles.edges[0]?.node.id).toBe(file.id);

    const short = await graphql(app, owner.cookie, `query { searchFiles(query: "wa") { edges { node { id } } } }`);
    expect(short.errors?.[0]?.message).toBe('Search query must be longer than 2 characters.');

    const restored = await graphql<{ restoreFileVersion: { data: { size: number; currentVersion: number } } }>(
      app,
      owner.cookie,
      `mutation($id: ID!) { restoreFileVersion(fileId: $id, version: 1) { ... on MutationRestoreFileVersionSuccess { data { size currentVersion versions { version size } } } } }`,
      { id: file.id },
    );
    expect(restored.data!.restoreFileVersion.data).toMatchObject({ size: 5000, currentVersion: 3 });

    const versionNodes = await graphql<{ node: { versions: { id: string; version: number }[] } }>(
      app,
      owner.cookie,
      `query($id: ID!) { node(id: $id) { ... on File { versions { id version } } } }`,
      { id: file.id },
    );
    const [newest] = versionNodes.data!.node.versions;
    expect(newest?.version).toBe(3);
    const versionQuery = `query($id: ID!) { node(id: $id) { ... on FileVersion { version size } } }`;
    expect((await graphql(app, owner.cookie, versionQuery, { id: newest?.id })).data).toEqual({
      node: { version: 3, size: 5000 },
    });
    expect((await graphql(app, stranger.cookie, versionQuery, { id: newest?.id })).data).toEqual({ node: null });

    const recent = await graphql<{ recentFiles: { edges: { node: { name: string } }[] } }>(
      app,
      owner.cookie,
      `query { recentFiles(first: 1) { edges { node { name } } } }`,
    );
    expect(recent.data!.recentFiles.edges).toEqual([{ node: { name: 'mid.jpg' } }]);

    const updated = await graphql<{ updateFile: { data: { tags: string[]; metadata: Record<string, unknown> } } }>(
      app,
      owner.cookie,
      `mutation($id: ID!) { updateFile(id: $id, tags: ["night", "Dock"], metadata: { autoTagged: true }) { ... on MutationUpdateFileSuccess { data { tags metadata } } } }`,
      { id: file.id },
    );
    expect(updated.data!.updateFile.data.tags).toEqual(['night', 'dock']);
    expect(updated.data!.updateFile.data.metadata).toMatchObject({ autoTagged: true });

    const strangerDelete = await graphql<{ deleteFile: { __typename: string } }>(
      app,
      stranger.cookie,
      `mutation($id: ID!) { deleteFile(id: $id) { __typename } }`,
      { id: file.id },
    );
    expect(strangerDelete.data!.deleteFile.__typename).toBe('BaseError');

    const deleted = await graphql<{ deleteFile: { data: string } }>(
      app,
      owner.cookie,
      `mutation($id: ID!) { deleteFile(id: $id) { ... on MutationDeleteFileSuccess { data } } }`,
      { id: file.id },
    );
    expect(deleted.data!.deleteFile.data).toBe(file.id);
    const gone = await graphql<{ node: unknown }>(app, owner.cookie, `query($id: ID!) { node(id: $id) { id } }`, {
      id: file.id,
    });
    expect(gone.data!.node).toBeNull();
  });

  it('moves a file to the top level with an explicit null, and keeps it where it is otherwise', async () => {
    const folder = await createFolder(owner, 'Move out GQL');
    const { result } = await createFile(owner, { name: 'mover.jpg', folderId: folder });
    const id = (result.data!.createFile as unknown as { data: { id: string } }).data.id;
    const UPDATE = `mutation($id: ID!, $name: String, $folderId: ID) {
      updateFile(id: $id, name: $name, folderId: $folderId) {
        __typename ... on MutationUpdateFileSuccess { data { name folder { id } } } ... on Error { message }
      }
    }`;
    const renamed = await graphql<{ updateFile: { data: { name: string; folder: { id: string } | null } } }>(
      app,
      owner.cookie,
      UPDATE,
      { id, name: 'still-here.jpg' },
    );
    expect(renamed.data!.updateFile.data).toEqual({ name: 'still-here.jpg', folder: { id: folder } });
    const moved = await graphql<{ updateFile: { data: { folder: unknown } } }>(app, owner.cookie, UPDATE, {
      id,
      folderId: null,
    });
    expect(moved.data!.updateFile.data.folder).toBeNull();

    const theirs = await createFolder(stranger, 'Stranger target GQL');
    const intoTheirs = await graphql<{ updateFile: { __typename: string; message: string } }>(
      app,
      owner.cookie,
      UPDATE,
      {
        id,
        folderId: theirs,
      },
    );
    expect(intoTheirs.data!.updateFile).toEqual({ __typename: 'BaseError', message: 'Folder not found' });
    const wrongKind = await graphql<{ updateFile: { __typename: string; message: string } }>(
      app,
      owner.cookie,
      UPDATE,
      {
        id: theirs,
        name: 'x.jpg',
      },
    );
    expect(wrongKind.data!.updateFile).toEqual({ __typename: 'BaseError', message: 'File not found' });
  });

  it('refuses someone else’s upload URL as a typed error', async () => {
    const upload = await finishedUpload(app, owner.id);
    const result = await graphql<{ createFile: { __typename: string; message: string } }>(
      app,
      stranger.cookie,
      CREATE_FILE,
      {
        input: { name: 'stolen.jpg', objectUrl: upload.uploadURL },
      },
    );
    expect(result.data!.createFile).toEqual({
      __typename: 'ValidationError',
      message: 'objectUrl is not an upload URL of yours.',
      code: 'VALIDATION',
    });
  });
});

describe('no N+1', () => {
  it('lists and searches files with folder and versions in a constant number of statements', async () => {
    const few = await signedInUser(app);
    const many = await signedInUser(app);
    const fewFolder = await newFolder(app, few.cookie, 'Few');
    const manyFolder = await newFolder(app, many.cookie, 'Many');
    for (let i = 0; i < 2; i++) await uploadFile(app, few, { name: `lighthouse-${i}.jpg`, folderId: fewFolder.id });
    for (let i = 0; i < 12; i++) await uploadFile(app, many, { name: `lighthouse-${i}.jpg`, folderId: manyFolder.id });
    await uploadFile(app, many, { name: 'lighthouse-0.jpg', folderId: manyFolder.id, onConflict: 'replace' }); // a second version
    const globalId = (id: string) => Buffer.from(`Folder:${id}`).toString('base64');

    const LIST = `query($f: ID) { files(folderId: $f, first: 50, sort: NAME) { edges { node {
      id name size tags metadata viewerCanEdit currentVersion folder { name fileCount } versions { version size }
    } } } }`;
    const SEARCH = `query { searchFiles(query: "lighthouse", first: 50) { edges { node {
      id name currentVersion folder { name } versions { version }
    } } } }`;
    const results: Record<string, { data?: unknown; errors?: unknown }> = {};
    const counts: Record<string, number> = {};
    for (const [key, user, folder] of [
      ['few', few, fewFolder],
      ['many', many, manyFolder],
    ] as const) {
      // Warm up first: a fresh pooled PostgreSQL connection sends a few statements of its own.
      await graphql(app, user.cookie, LIST, { f: globalId(folder.id) });
      await graphql(app, user.cookie, SEARCH);
      counts[`list-${key}`] = await countStatements(async () => {
        results[`list-${key}`] = await graphql(app, user.cookie, LIST, { f: globalId(folder.id) });
      });
      counts[`search-${key}`] = await countStatements(async () => {
        results[`search-${key}`] = await graphql(app, user.cookie, SEARCH);
      });
    }
    for (const result of Object.values(results)) expect(result.errors).toBeUndefined();
    const listed = results['list-many']?.data as {
      files: {
        edges: { node: { name: string; currentVersion: number; versions: unknown[]; folder: { name: string } } }[];
      };
    };
    expect(listed.files.edges).toHaveLength(12);
    expect(listed.files.edges[0]?.node).toMatchObject({
      name: 'lighthouse-0.jpg',
      currentVersion: 2,
      folder: { name: 'Many' },
    });
    expect(listed.files.edges[0]?.node.versions).toHaveLength(2);
    const searched = results['search-many']?.data as { searchFiles: { edges: unknown[] } } | undefined;
    expect(searched?.searchFiles.edges).toHaveLength(12);
    expect(counts['list-few']).toBeGreaterThan(0);
    expect(counts['list-many']).toBe(counts['list-few']);
    expect(counts['search-many']).toBe(counts['search-few']);
  });
});
