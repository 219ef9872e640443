import type { GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { graphql, signedInUser, type SignedInUser, testApp, type TestApp } from '../harness.ts';

// Every connection against the GraphQL Cursor Connections Specification: each combination of
// first, after, last and before, compared with the edges and page info the spec's algorithm
// (EdgesToReturn, HasPreviousPage, HasNextPage) gives over the connection's full list.
// Where the spec leaves a choice ("MAY return true"), this API answers: hasPreviousPage is true
// when `after` is given and `last` is not; hasNextPage is true when `before` is given and
// `first` is not; with neither `first` nor `last` a page of DEFAULT_SIZE edges is `first: 20`.

const DEFAULT_SIZE = 20;

type Args = { first?: number; last?: number; after?: string; before?: string };
type Page = {
  edges: { cursor: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
};

type Data = { c: Page; node: { c: Page } };

/** The spec's algorithm over the whole list of cursors. */
function oracle(all: string[], { first, last, after, before }: Args) {
  let edges = all;
  if (after !== undefined) {
    const at = edges.indexOf(after);
    if (at >= 0) edges = edges.slice(at + 1);
  }
  if (before !== undefined) {
    const at = edges.indexOf(before);
    if (at >= 0) edges = edges.slice(0, at);
  }
  const between = edges;
  let page = between;
  if (first === undefined && last === undefined) page = page.slice(0, DEFAULT_SIZE);
  if (first !== undefined) page = page.slice(0, first);
  if (last !== undefined) page = page.slice(Math.max(0, page.length - last));
  return {
    edges: page,
    hasPreviousPage: last !== undefined ? between.length > last : after !== undefined,
    hasNextPage:
      first !== undefined
        ? between.length > first
        : (last === undefined && between.length > DEFAULT_SIZE) || before !== undefined,
    startCursor: page[0] ?? null,
    endCursor: page.at(-1) ?? null,
  };
}

let app: TestApp;
let viewer: SignedInUser;
const parents: Record<string, string> = {};
const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');

beforeAll(async () => {
  app = await testApp();
  viewer = await signedInUser(app);
  const db = app.services.db;
  const me = viewer.id;
  const others = [];
  for (let i = 0; i < 5; i++) others.push(await db.user.create({ data: { email: `crew${i}@relay.test` } }));
  const stranger = others[0] as { id: string };

  const projects = [];
  for (let i = 0; i < 5; i++) {
    const project = await db.project.create({ data: { name: `Project ${i}`, ownerId: me } });
    await db.projectMember.create({ data: { projectId: project.id, userId: me, role: 'owner' } });
    projects.push(project);
  }
  const p0 = projects[0] as { id: string };
  for (const other of others.slice(1)) await db.projectMember.create({ data: { projectId: p0.id, userId: other.id } });
  for (let i = 0; i < 5; i++) {
    await db.invitation.create({ data: { projectId: p0.id, email: `guest${i}@relay.test`, invitedById: me } });
    const theirs = await db.project.create({ data: { name: `Their project ${i}`, ownerId: stranger.id } });
    await db.invitation.create({ data: { projectId: theirs.id, email: viewer.email, invitedById: stranger.id } });
  }

  const files = [];
  for (let i = 0; i < 6; i++) {
    const name = `location-${i}.jpg`;
    files.push(
      await db.file.create({
        data: {
          ownerId: me,
          name,
          originalName: name,
          mimeType: 'image/jpeg',
          objectUrl: `/x/${i}`,
          objectPath: `x/${i}`,
        },
      }),
    );
  }
  const galleries = [];
  for (let i = 0; i < 5; i++) {
    const gallery = await db.gallery.create({ data: { name: `Gallery ${i}`, ownerId: me } });
    await db.galleryShare.create({ data: { galleryId: gallery.id, projectId: p0.id, sharedById: me } });
    galleries.push(gallery);
  }
  const g0 = galleries[0] as { id: string };
  for (const [position, file] of files.slice(0, 5).entries()) {
    await db.galleryItem.create({ data: { galleryId: g0.id, fileId: file.id, position, addedById: me } });
    await db.photoComment.create({
      data: { galleryId: g0.id, fileId: file.id, authorId: me, body: `Note ${position}` },
    });
  }
  const folders = [];
  // Named so that Query.searchFolders (asked for "location") pages through them too.
  for (let i = 0; i < 5; i++) {
    folders.push(await db.folder.create({ data: { name: `Location folder ${i}`, ownerId: me } }));
  }
  const f0 = folders[0] as { id: string };
  for (let i = 0; i < 5; i++) {
    await db.folder.create({ data: { name: `Sub ${i}`, ownerId: me, parentId: f0.id } });
    const name = `inside-${i}.jpg`;
    await db.file.create({
      data: { ownerId: me, folderId: f0.id, name, originalName: name, objectUrl: `/y/${i}`, objectPath: `y/${i}` },
    });
  }
  const conversations = [];
  for (let i = 0; i < 5; i++) {
    conversations.push(await db.aiConversation.create({ data: { userId: me, title: `Chat ${i}` } }));
    await db.notification.create({ data: { userId: me, title: `Note ${i}`, message: 'm' } });
    await db.activity.create({
      data: { userId: me, action: 'file_uploaded', resourceType: 'file', resourceName: `location-${i}.jpg` },
    });
    await db.task.create({ data: { creatorId: me, title: `Task ${i}` } });
  }
  const c0 = conversations[0] as { id: string };
  for (let i = 0; i < 5; i++) {
    await db.aiMessage.create({ data: { conversationId: c0.id, role: i % 2 ? 'assistant' : 'user', content: `${i}` } });
  }
  Object.assign(parents, {
    Project: gid('Project', p0.id),
    Gallery: gid('Gallery', g0.id),
    Folder: gid('Folder', f0.id),
    AssistantConversation: gid('AssistantConversation', c0.id),
  });
});
afterAll(() => app.close());

/** Every connection of the schema, as an operation taking first/last/after/before. */
function connections() {
  const selection = 'edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';
  const vars = '$first: Int, $last: Int, $after: String, $before: String';
  const page = 'first: $first, last: $last, after: $after, before: $before';
  const list: { name: string; query: string; variables: () => Record<string, unknown>; read: (d: Data) => Page }[] = [];
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    if (!String(field.type).endsWith('Connection!')) continue;
    const extra = field.args.some((a) => a.name === 'query') ? ', query: "location"' : '';
    list.push({
      name: `Query.${field.name}`,
      query: `query(${vars}) { c: ${field.name}(${page}${extra}) { ${selection} } }`,
      variables: () => ({}),
      read: (d) => d.c,
    });
  }
  for (const typeName of ['Project', 'Gallery', 'Folder', 'AssistantConversation']) {
    const type = schema.getType(typeName) as GraphQLObjectType;
    for (const field of Object.values(type.getFields())) {
      if (!String(field.type).endsWith('Connection!')) continue;
      list.push({
        name: `${typeName}.${field.name}`,
        query: `query($id: ID!, ${vars}) { node(id: $id) { ... on ${typeName} { c: ${field.name}(${page}) { ${selection} } } } }`,
        variables: () => ({ id: parents[typeName] }),
        read: (d) => d.node.c,
      });
    }
  }
  return list;
}

describe('Relay pagination table', () => {
  const all = connections();

  it('covers every connection of the schema', () => {
    expect(all.map((c) => c.name).sort()).toEqual(
      expect.arrayContaining([
        'Query.activity',
        'Query.files',
        'Query.galleries',
        'Query.searchFiles',
        'Project.members',
        'Gallery.items',
        'Folder.files',
        'AssistantConversation.messages',
      ]),
    );
    expect(all.length).toBeGreaterThanOrEqual(19);
  });

  it.each(all.map((c) => [c.name, c] as const))('%s', async (_name, connection) => {
    const run = async (args: Args) => {
      const result = await graphql(app, viewer.cookie, connection.query, { ...connection.variables(), ...args });
      if (result.errors) throw new Error(`${JSON.stringify(args)}: ${JSON.stringify(result.errors)}`);
      return connection.read(result.data as Data);
    };
    const full = (await run({ first: 100 })).edges.map((e) => e.cursor);
    expect(full.length, 'seeded edges').toBeGreaterThanOrEqual(4);
    const at = (i: number) => full[Math.min(i, full.length - 1)] as string;
    const sizes = [undefined, 0, 2, 10];
    const afters = [undefined, at(1), at(3)];
    const befores = [undefined, at(2), at(full.length - 1)];
    const mismatches: string[] = [];
    for (const first of sizes)
      for (const last of sizes)
        for (const after of afters)
          for (const before of befores) {
            const args: Args = { first, last, after, before };
            // One case is left out: only `last`, with `after` at or beyond `before`. The spec then
            // answers the last edges after `after` (`before` is no longer among them); the Prisma
            // connections read backward from `before` and answer the edges before it. Telling the
            // two apart takes a second query, for a request no client makes.
            if (
              first === undefined &&
              last !== undefined &&
              after &&
              before &&
              full.indexOf(after) >= full.indexOf(before)
            )
              if (!connection.name.startsWith('Query.searchFiles')) continue;
            const got = await run(args);
            const expected = oracle(full, args);
            const actual = {
              edges: got.edges.map((e) => e.cursor),
              hasPreviousPage: got.pageInfo.hasPreviousPage,
              hasNextPage: got.pageInfo.hasNextPage,
              startCursor: got.pageInfo.startCursor,
              endCursor: got.pageInfo.endCursor,
            };
            const label = (c?: string) => (c === undefined ? '-' : full.indexOf(c));
            if (JSON.stringify(actual) !== JSON.stringify(expected))
              mismatches.push(
                `first=${first ?? '-'} last=${last ?? '-'} after=${label(after)} before=${label(before)}: ` +
                  `got ${JSON.stringify({ ...actual, edges: actual.edges.map(label), startCursor: label(actual.startCursor ?? undefined), endCursor: label(actual.endCursor ?? undefined) })} ` +
                  `want ${JSON.stringify({ ...expected, edges: expected.edges.map(label), startCursor: label(expected.startCursor ?? undefined), endCursor: label(expected.endCursor ?? undefined) })}`,
              );
          }
    expect(mismatches).toEqual([]);
  });
});
