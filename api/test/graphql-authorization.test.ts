import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessCase, AccessHarness } from './access.ts';
import { graphql, signedInUser, testApp, type TestApp } from './harness.ts';

// The GraphQL side of the authorization suite: the owner's data is arranged by every row of the
// REST suite (so a new domain brings its data along), then a person who was given nothing asks
// for all of it by id and through every list query.

const modules = import.meta.glob<{ accessCases: AccessCase[] }>('../src/*/access.cases.ts', { eager: true });
const cases = Object.values(modules).flatMap((m) => m.accessCases);

/** Every model served as a Relay node, by the GraphQL type name it is served under. */
const NODE_MODELS = {
  Activity: 'activity',
  AssistantConversation: 'aiConversation',
  AssistantMessage: 'aiMessage',
  File: 'file',
  FileVersion: 'fileVersion',
  Folder: 'folder',
  Gallery: 'gallery',
  GalleryItem: 'galleryItem',
  GalleryShare: 'galleryShare',
  Invitation: 'invitation',
  Notification: 'notification',
  PhotoComment: 'photoComment',
  PhotoPick: 'photoPick',
  Project: 'project',
  ProjectMember: 'projectMember',
  ReviewLink: 'reviewLink',
  Task: 'task',
  User: 'user',
} as const;

/** What of each model is the owner's own, so the owner sees it (a project's members: its own projects'). */
const OWNED_BY: Record<keyof typeof NODE_MODELS, (ownerId: string) => object> = {
  Activity: (me) => ({ userId: me }),
  AssistantConversation: (me) => ({ userId: me }),
  AssistantMessage: (me) => ({ conversation: { userId: me } }),
  File: (me) => ({ ownerId: me }),
  FileVersion: (me) => ({ file: { ownerId: me } }),
  Folder: (me) => ({ ownerId: me }),
  Gallery: (me) => ({ ownerId: me }),
  GalleryItem: (me) => ({ gallery: { ownerId: me } }),
  GalleryShare: (me) => ({ gallery: { ownerId: me } }),
  // The owner sees the invitations of their projects; the invitee sees their own.
  Invitation: (me) => ({ project: { ownerId: me } }),
  Notification: (me) => ({ userId: me }),
  PhotoComment: (me) => ({ gallery: { ownerId: me } }),
  PhotoPick: (me) => ({ gallery: { ownerId: me } }),
  Project: (me) => ({ ownerId: me }),
  ProjectMember: (me) => ({ project: { ownerId: me } }),
  ReviewLink: (me) => ({ gallery: { ownerId: me } }),
  Task: (me) => ({ creatorId: me }),
  User: (me) => ({ id: me }),
};

const LIST_QUERIES = [
  'activity',
  'assignableUsers',
  'assistantConversations',
  'files',
  'folders',
  'galleries',
  'invitations',
  'notifications',
  'projects',
  'recentFiles',
  'searchFiles(query: "jpg")',
  'tasks',
];

let app: TestApp;
let t: AccessHarness;
/** Global ids of everything that existed before the newcomer signed up, public files aside. */
const existing = new Map<string, string[]>();
/** Global ids of the owner's own rows, by type. */
const owned = new Map<string, string[]>();

beforeAll(async () => {
  app = await testApp();
  const earlyStranger = await signedInUser(app);
  t = {
    app,
    owner: await signedInUser(app),
    stranger: earlyStranger,
    editor: await signedInUser(app),
    reader: await signedInUser(app),
  };
  for (const row of cases) await row.arrange(t);
  const db = app.database.prisma as unknown as Record<string, { findMany(args: object): Promise<object[]> }>;
  for (const [typename, model] of Object.entries(NODE_MODELS)) {
    const where = model === 'file' ? { isPublic: false } : model === 'fileVersion' ? { file: { isPublic: false } } : {};
    const rows = (await db[model]!.findMany({ where })) as Record<string, string>[];
    // A project member is known by project and person together.
    const idOf = (r: Record<string, string>) => (model === 'projectMember' ? `${r.projectId}:${r.userId}` : r.id!);
    existing.set(
      typename,
      rows.map((r) => encodeGlobalID(typename, idOf(r))),
    );
    const own = (await db[model]!.findMany({
      where: OWNED_BY[typename as keyof typeof NODE_MODELS](t.owner.id),
    })) as Record<string, string>[];
    owned.set(
      typename,
      own.map((r) => encodeGlobalID(typename, idOf(r))),
    );
  }
  // Signed up after all of it: was given access to nothing.
  t.stranger = await signedInUser(app);
}, 300_000);
afterAll(() => app.close());

/** `nodes(ids:)` as this person sees them, all together. */
function nodesAs(cookie: string, ids: string[]) {
  return graphql<{ nodes: ({ id: string } | null)[] }>(app, cookie, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
    ids,
  });
}

/** `node(id:)` as this person sees it. */
function nodeAs(cookie: string, id: string) {
  return graphql<{ node: { id: string } | null }>(app, cookie, 'query($id: ID!) { node(id: $id) { id } }', { id });
}

describe.each(Object.keys(NODE_MODELS))('%s nodes', (typename) => {
  it('resolve to null for a newcomer, one by one and all together', async () => {
    const ids = existing.get(typename) ?? [];
    expect(ids.length, `the REST cases arrange no ${typename}`).toBeGreaterThan(0);
    const asNewcomer = await nodesAs(t.stranger.cookie, ids);
    expect(asNewcomer.errors).toBeUndefined();
    expect(asNewcomer.data?.nodes.filter((n) => n !== null)).toEqual([]);
    for (const id of ids.slice(0, 5)) {
      const one = await nodeAs(t.stranger.cookie, id);
      expect(one.errors).toBeUndefined();
      expect(one.data?.node).toBeNull();
    }
  });
});

describe.each(Object.keys(NODE_MODELS))('%s nodes of their owner', (typename) => {
  it('come back to the owner, one by one, all together, and beside ids the owner may not see', async () => {
    const mine = owned.get(typename) ?? [];
    expect(mine.length, `the REST cases arrange no ${typename} of the owner's`).toBeGreaterThan(0);
    const together = await nodesAs(t.owner.cookie, mine);
    expect(together.errors).toBeUndefined();
    expect(together.data?.nodes.map((n) => n?.id ?? null)).toEqual(mine);
    for (const id of mine.slice(0, 5)) {
      const one = await nodeAs(t.owner.cookie, id);
      expect(one.errors).toBeUndefined();
      expect(one.data?.node?.id).toBe(id);
    }
    // Mixed with the newcomer's own user (which the owner may not see): the owner's still come back.
    const hidden = encodeGlobalID('User', t.stranger.id);
    const mixed = await nodesAs(t.owner.cookie, [hidden, ...mine]);
    expect(mixed.errors).toBeUndefined();
    expect(mixed.data?.nodes.map((n) => n?.id ?? null)).toEqual([null, ...mine]);
  });
});

it.each(LIST_QUERIES)('%s lists nothing of anyone else to a newcomer', async (field) => {
  const all = new Set([...existing.values()].flat());
  const name = field.split('(')[0];
  const args = field.includes('(') ? `${field.slice(field.indexOf('(') + 1, -1)}, first: 100` : 'first: 100';
  const result = await graphql<Record<string, { edges: { node: { id: string } }[] }>>(
    app,
    t.stranger.cookie,
    `{ ${name}(${args}) { edges { node { id } } } }`,
  );
  expect(result.errors).toBeUndefined();
  const leaked = (result.data?.[name!]?.edges ?? []).map((e) => e.node.id).filter((id) => all.has(id));
  expect(leaked.map((id) => decodeGlobalID(id))).toEqual([]);
});
