import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, joinProject, makeFile, makeGallery, makeProject } from '../../src/galleries/testing.ts';
import { graphql, signedInUser, testApp, type SignedInUser, type TestApp } from '../harness.ts';

// What people who may see a gallery learn about others (issue 17, item 7). The owner shares one
// gallery with two productions; a read member of one must not learn the other's name or id
// (the shares list hides it, so the activity feed must too), nor the e-mail of a member of the
// other production who added a photo: e-mail addresses go only to people who share a project.

let app: TestApp;
let owner: SignedInUser;
let reader: SignedInUser;
let outsider: SignedInUser;
let gallery: { id: string };
let alpha: { id: string; name: string };
let beta: { id: string; name: string };

beforeAll(async () => {
  app = await testApp();
  owner = await signedInUser(app);
  reader = await signedInUser(app);
  outsider = await signedInUser(app);
  gallery = await makeGallery(app, owner.cookie, { name: 'Harbour at dusk' });
  alpha = await makeProject(app, owner.cookie, { name: 'Production Alpha' });
  beta = await makeProject(app, owner.cookie, { name: 'Confidential Beta' });
  await joinProject(app, owner, reader, alpha.id);
  await joinProject(app, owner, outsider, beta.id);
  for (const [project, permission] of [
    [alpha, 'read'],
    [beta, 'write'],
  ] as const) {
    const shared = await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/share`, {
      projectId: project.id,
      permission,
    });
    expect(shared.status).toBe(201);
  }
  // The outsider (Beta only) adds a photo; their account has no name, so only the e-mail could name them.
  const file = await makeFile(app, outsider.id, 'pier.jpg');
  const added = await call(app, outsider.cookie, 'POST', `/api/galleries/${gallery.id}/items`, {
    fileIds: [file.id],
  });
  expect(added.status).toBe(201);
  await app.database.prisma.user.update({
    where: { id: outsider.id },
    data: { displayName: null, firstName: '', lastName: null },
  });
});
afterAll(() => app.close());

const betaTraces = () => [beta.name, beta.id, encodeGlobalID('Project', beta.id)];

describe('the activity feed', () => {
  it('over REST names only the reader’s own production among the gallery’s shares', async () => {
    const feed = await call(app, reader.cookie, 'GET', '/api/activity');
    expect(feed.status).toBe(200);
    const text = JSON.stringify(feed.body);
    expect(text).toContain('gallery_shared');
    expect(text).toContain(alpha.name);
    for (const trace of betaTraces()) expect(text).not.toContain(trace);
    // The sharing itself is still in the feed, without saying with whom.
    expect(feed.body.filter((a: { action: string }) => a.action === 'gallery_shared')).toHaveLength(2);
  });

  it('over GraphQL the same', async () => {
    const { data, errors } = await graphql(
      app,
      reader.cookie,
      '{ activity(first: 50) { edges { node { action resourceName metadata actor { email displayName } } } } }',
    );
    expect(errors).toBeUndefined();
    const text = JSON.stringify(data);
    expect(text).toContain(alpha.name);
    for (const trace of betaTraces()) expect(text).not.toContain(trace);
  });

  it('still tells the owner everything about their own shares', async () => {
    const text = JSON.stringify((await call(app, owner.cookie, 'GET', '/api/activity')).body);
    expect(text).toContain(alpha.name);
    expect(text).toContain(beta.name);
  });
});

describe('people', () => {
  it('hides the e-mail of someone the reader shares no project with, over GraphQL', async () => {
    const { data, errors } = await graphql<{
      node: { items: { edges: { node: { addedBy: { id: string; email: string | null; displayName: string } } }[] } };
    }>(
      app,
      reader.cookie,
      `query ($id: ID!) { node(id: $id) { ... on Gallery { items(first: 10) { edges { node {
        addedBy { id email displayName } } } } } } }`,
      { id: encodeGlobalID('Gallery', gallery.id) },
    );
    expect(errors).toBeUndefined();
    const addedBy = data?.node.items.edges[0]?.node.addedBy;
    expect(addedBy?.id).toBe(encodeGlobalID('User', outsider.id));
    expect(addedBy?.email).toBeNull();
    expect(addedBy?.displayName).not.toContain(outsider.email);
    expect(addedBy?.displayName).not.toContain(outsider.email.split('@')[0]);
    expect(JSON.stringify(data)).not.toContain(outsider.email);
  });

  it('hides it in the activity feed too, over REST and GraphQL', async () => {
    const rest = await call(app, reader.cookie, 'GET', '/api/activity');
    expect(rest.body.some((a: { user: { id: string } }) => a.user.id === outsider.id)).toBe(true);
    expect(JSON.stringify(rest.body)).not.toContain(outsider.email);
    const { data } = await graphql(
      app,
      reader.cookie,
      '{ activity(first: 50) { edges { node { actor { id email displayName } } } } }',
    );
    expect(JSON.stringify(data)).toContain(encodeGlobalID('User', outsider.id));
    expect(JSON.stringify(data)).not.toContain(outsider.email);
  });

  it('shows it to those who share a project with the person, and to the person', async () => {
    const query = `query ($id: ID!) { node(id: $id) { ... on Gallery { items(first: 10) { edges { node {
      addedBy { email } } } } } } }`;
    for (const who of [owner, outsider]) {
      const { data } = await graphql(app, who.cookie, query, { id: encodeGlobalID('Gallery', gallery.id) });
      expect(JSON.stringify(data)).toContain(outsider.email);
    }
    // The reader and the owner share Alpha: the owner's e-mail is the reader's to see.
    const { data } = await graphql(
      app,
      reader.cookie,
      '{ activity(first: 50) { edges { node { actor { email } } } } }',
    );
    expect(JSON.stringify(data)).toContain(owner.email);
  });

  it('follows the same rule in tasks, over REST and GraphQL: a task outlives the shared project, the e-mail does not', async () => {
    const boss = await signedInUser(app);
    const crew = await signedInUser(app);
    const project = await makeProject(app, boss.cookie, { name: 'Short shoot' });
    await joinProject(app, boss, crew, project.id);
    const task = await call(app, boss.cookie, 'POST', '/api/tasks', { title: 'Scout the pier', assigneeId: crew.id });
    expect(task.status).toBe(201);
    expect(JSON.stringify((await call(app, crew.cookie, 'GET', `/api/tasks/${task.body.id}`)).body)).toContain(
      boss.email,
    );
    expect(
      (await call(app, boss.cookie, 'DELETE', `/api/projects/${project.id}/members/${crew.id}`)).status,
    ).toBeLessThan(300);
    const rest = await call(app, crew.cookie, 'GET', `/api/tasks/${task.body.id}`);
    expect(rest.status).toBe(200);
    expect(rest.body.creator).toMatchObject({ id: boss.id, email: null });
    expect(JSON.stringify(rest.body)).not.toContain(boss.email);
    expect(JSON.stringify((await call(app, crew.cookie, 'GET', '/api/tasks')).body)).not.toContain(boss.email);
    const { data } = await graphql(app, crew.cookie, '{ tasks(first: 10) { edges { node { creator { email } } } } }');
    expect(JSON.stringify(data)).toContain('"email":null');
  });
});
