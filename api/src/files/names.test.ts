import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql } from '../../test/harness.ts';
import { unzip } from '../../test/zip.ts';
import { call, makeFile, makeGallery } from '../galleries/testing.ts';
import { makeReviewLink } from '../reviews/testing.ts';
import { newFolder, send, uploadFile } from './testing.ts';

// One rule for the names of files and folders (issue 53 item 3), and names stored before the rule
// still download: every ZIP entry and every download name is made safe where it is made.

let app: TestApp, owner: User;
beforeAll(async () => {
  [app, owner] = await appWithPeople(anyone);
});
afterAll(() => app.close());

const RLO = '\u202e';
const BAD_NAMES = [
  'Cadiz beach/../wide.jpg',
  'a\\b.jpg',
  '..',
  '.',
  ' .. ',
  'bell\u0007.jpg',
  'tab\there.jpg',
  `photo${RLO}gpj.exe`,
  'isolate\u2066x.jpg',
  'mark\u200fx.jpg',
];

describe('file and folder names', () => {
  it('refuses the same bad names for files and folders, over REST, with a message', async () => {
    const file = await uploadFile(app, owner, { name: 'wide.jpg' });
    const folder = await newFolder(app, owner.cookie, 'Cadiz beach');
    for (const name of BAD_NAMES) {
      const renamed = await send(app, owner.cookie, 'PATCH', `/api/files/${file.id}`, { name });
      expect(renamed.status, `rename to ${JSON.stringify(name)}`).toBe(400);
      expect(renamed.body.message).toMatch(/File name/);
      const uploaded = await send(app, owner.cookie, 'POST', '/api/files', {
        name,
        objectUrl: '/objects/uploads/x',
      });
      expect(uploaded.status, `upload as ${JSON.stringify(name)}`).toBe(400);
      expect(uploaded.body.message).toMatch(/File name/);
      const created = await send(app, owner.cookie, 'POST', '/api/folders', { name, parentId: null });
      expect(created.status, `folder ${JSON.stringify(name)}`).toBe(400);
      expect(created.body.message).toMatch(/Folder name/);
      const folderRenamed = await send(app, owner.cookie, 'PATCH', `/api/folders/${folder.id}`, { name });
      expect(folderRenamed.status, `folder rename to ${JSON.stringify(name)}`).toBe(400);
    }
    // Names that only look odd stay allowed.
    for (const name of ['..hidden.jpg', 'C:x.jpg', 'Café ★ (2).jpg', 'ملف.jpg', 'a..b']) {
      const renamed = await send(app, owner.cookie, 'PATCH', `/api/files/${file.id}`, { name });
      expect(renamed.status, `rename to ${JSON.stringify(name)}`).toBe(200);
    }
  });

  it('refuses them over GraphQL too, with the same message', async () => {
    const file = await uploadFile(app, owner, { name: 'graph.jpg' });
    const result = await graphql<{ updateFile: { __typename: string; message?: string } }>(
      app,
      owner.cookie,
      `mutation($id: ID!) { updateFile(id: $id, name: "Cadiz beach/../wide.jpg") { __typename ... on Error { message } } }`,
      { id: Buffer.from(`File:${file.id}`).toString('base64') },
    );
    expect(result.data?.updateFile.message).toMatch(/File names cannot contain \//);
    const folder = await graphql<{ createFolder: { __typename: string; message?: string } }>(
      app,
      owner.cookie,
      `mutation { createFolder(name: "${RLO}..") { __typename ... on Error { message } } }`,
    );
    expect(folder.data?.createFolder.message).toMatch(/Folder name/);
  });
});

/** A file record named `name` whose bytes are in the store: written straight to the database, as names stored before the rule are. */
async function storedAs(name: string, bytes = Buffer.from(`bytes of ${name}`)) {
  const file = await makeFile(app, owner.id, 'placeholder.jpg');
  await app.storage.store.put(`uploads/${file.objectPath.split('/').pop()}`, Readable.from([bytes]), {
    size: bytes.length,
  });
  return app.database.prisma.file.update({ where: { id: file.id }, data: { name } });
}

function expectSafeEntries(names: string[]) {
  for (const name of names) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not be there
    expect(name).not.toMatch(/[\\:\u0000-\u001f\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(name.split('/')).not.toContain('..');
    expect(name.split('/')).not.toContain('.');
    expect(name.startsWith('/')).toBe(false);
  }
  expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
}

describe('names stored before the rule', () => {
  it('still export: gallery ZIP, review link ZIP and the bulk archive answer 200 with valid entries', async () => {
    const files = [
      await storedAs('..'),
      await storedAs('C:x.jpg'),
      await storedAs(`photo${RLO}gpj.exe`),
      await storedAs(`photo${RLO}gpj.exe`),
      await storedAs('Cadiz beach/../wide.jpg'),
      await storedAs('.'),
    ];
    const gallery = await makeGallery(app, owner.cookie, { name: 'Old names' });
    const added = await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, {
      fileIds: files.map((f) => f.id),
    });
    expect(added.status).toBe(201);
    const link = await makeReviewLink(app, owner.cookie, gallery.id, { allowDownload: true });

    const routes = [
      { url: `/api/galleries/${gallery.id}/export.zip`, cookie: owner.cookie },
      { url: `/api/review/${link.token}/export.zip` },
      { url: `/api/files/archive?ids=${files.map((f) => f.id).join(',')}`, cookie: owner.cookie },
    ];
    for (const route of routes) {
      const response = await app.request(route.url, route.cookie ? { cookie: route.cookie } : {});
      expect(response.status, route.url).toBe(200);
      const entries = await unzip(Buffer.from(await response.arrayBuffer()));
      const names = [...entries.keys()];
      expect(names, route.url).toHaveLength(files.length);
      expectSafeEntries(names);
      expect(names).toContain('C_x.jpg');
      expect(names).toContain('photogpj.exe');
      expect(names).toContain('photogpj (1).exe');
      expect(names).toContain('Cadiz beach_.._wide.jpg');
    }
  });

  it('never lets a bidirectional override into a download name', async () => {
    const file = await storedAs(`photo${RLO}gpj (1).exe`);
    const response = await app.request(`${file.objectUrl}?download`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    const header = response.headers.get('content-disposition') ?? '';
    expect(header).toMatch(
      /^(inline|attachment); filename="photogpj \(1\)\.exe"; filename\*=UTF-8''photogpj%20%281%29\.exe$/,
    );
  });
});
