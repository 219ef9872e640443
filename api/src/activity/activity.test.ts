import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, sendBody } from '../../test/harness.ts';
import { crewProject } from '../../test/fixtures.ts';
import { recordActivity } from './rules.ts';

let app: TestApp, alice: User, bob: User, carol: User;
beforeAll(async () => {
  [app, alice, bob, carol] = await appWithPeople(anyone, anyone, anyone);
});
afterAll(() => app.close());

async function feed(user: User, query = '') {
  const response = await app.request(`/api/activity${query}`, { cookie: user.cookie });
  return { status: response.status, body: await response.json() };
}

it('shows the viewer’s own actions and others’ actions on galleries shared with their projects, newest first', async () => {
  const db = app.database.prisma;
  const at = (ms: number) => new Date(Date.now() - ms);
  const mine = await db.gallery.create({ data: { ownerId: alice.id, name: 'Alice gallery' } });
  const bobsShared = await db.gallery.create({ data: { ownerId: bob.id, name: 'Bob shared' } });
  const bobsPrivate = await db.gallery.create({ data: { ownerId: bob.id, name: 'Bob private' } });
  const project = await crewProject(app, 'P', bob, alice);
  await db.galleryShare.create({ data: { galleryId: bobsShared.id, projectId: project.id, sharedById: bob.id } });

  const rows = [
    {
      userId: alice.id,
      action: 'gallery_created',
      resourceType: 'gallery',
      resourceId: mine.id,
      resourceName: 'Alice gallery',
      ago: 5000,
    },
    {
      userId: bob.id,
      action: 'file_added_to_gallery',
      resourceType: 'gallery',
      resourceId: bobsShared.id,
      resourceName: 'Bob shared',
      ago: 3000,
    },
    {
      userId: bob.id,
      action: 'gallery_created',
      resourceType: 'gallery',
      resourceId: bobsPrivate.id,
      resourceName: 'Bob private',
      ago: 2000,
    },
    {
      userId: carol.id,
      action: 'task_created',
      resourceType: 'task',
      resourceId: null,
      resourceName: 'Carol task',
      ago: 1000,
    },
    {
      userId: alice.id,
      action: 'file_uploaded',
      resourceType: 'file',
      resourceId: null,
      resourceName: 'a.jpg',
      ago: 0,
      metadata: { size: 1024 },
    },
  ] as const;
  for (const { ago, ...row } of rows) {
    await recordActivity(db, row);
    await db.activity.updateMany({ where: { resourceName: row.resourceName }, data: { createdAt: at(ago) } });
  }

  const res = await feed(alice);
  expect(res.status).toBe(200);
  expect(res.body.map((a: { resourceName: string }) => a.resourceName)).toEqual([
    'a.jpg',
    'Bob shared',
    'Alice gallery',
  ]);
  expect(res.body[0]).toMatchObject({
    action: 'file_uploaded',
    resourceType: 'file',
    metadata: { size: 1024 },
    user: { id: alice.id },
  });
  expect(res.body[1].user.id).toBe(bob.id);
  expect((await feed(alice, '?limit=1')).body).toHaveLength(1);
  expect((await feed(alice, '?limit=500')).status).toBe(400);
  expect((await feed(carol)).body.map((a: { resourceName: string }) => a.resourceName)).toEqual(['Carol task']);
  // Bob's feed includes his own actions (including the private gallery), not Alice's.
  expect((await feed(bob)).body.map((a: { resourceName: string }) => a.resourceName)).toEqual([
    'Bob private',
    'Bob shared',
  ]);

  const gql = await graphql<{
    activity: { edges: { node: { resourceName: string; action: string; actor: { id: string } } }[] };
  }>(
    app,
    alice.cookie,
    '{ activity(first: 2) { edges { node { action resourceName resourceType metadata createdAt actor { id email } } } } }',
  );
  expect(gql.errors).toBeUndefined();
  expect(gql.data?.activity.edges.map((e) => e.node.resourceName)).toEqual(['a.jpg', 'Bob shared']);
});

it('records task activity through the task rules', async () => {
  const response = await sendBody(app, carol.cookie, 'POST', '/api/tasks', { title: 'Feed me' });
  const task = (await response.json()) as { id: string };
  await app.request(`/api/tasks/${task.id}/complete`, { method: 'PATCH', cookie: carol.cookie });
  const actions = (await feed(carol)).body.slice(0, 2).map((a: { action: string }) => a.action);
  expect(actions).toEqual(['task_completed', 'task_created']);
});
