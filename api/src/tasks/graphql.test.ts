import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, sendBody } from '../../test/harness.ts';
import { crewProject } from '../../test/fixtures.ts';
import { countStatements } from '../../test/statements.ts';

let app: TestApp, alice: User, bob: User;
let galleryId: string;

beforeAll(async () => {
  [app, alice, bob] = await appWithPeople(anyone, anyone);
  await crewProject(app, 'Crew', alice, bob);
  // Alice's own gallery, not shared: Bob, her assignee, cannot open it.
  galleryId = (await app.database.prisma.gallery.create({ data: { name: 'Private lot', ownerId: alice.id } })).id;
});
afterAll(() => app.close());

async function countQueries(run: () => Promise<unknown>) {
  // Creating tasks notifies the assignee, and the e-mail pass reads those notifications in the
  // background: let it finish, so only the statements of `run` are counted.
  await app.services.mailer?.idle();
  return countStatements(run);
}

async function post(user: User, body: object) {
  const response = await sendBody(app, user.cookie, 'POST', '/api/tasks', body);
  expect(response.status).toBe(201);
  return response.json();
}

it('shows the related gallery only to those who can open it', async () => {
  const task = await post(alice, { title: 'Shoot the lot', assigneeId: bob.id, galleryId });
  expect(task.gallery).toEqual({ id: galleryId, name: 'Private lot' });
  const asBob = await (await app.request(`/api/tasks/${task.id}`, { cookie: bob.cookie })).json();
  expect(asBob.gallery).toBeNull();
  expect(asBob.galleryId).toBeNull();

  const query = `query($id: ID!) { node(id: $id) { ... on Task { relatedGalleryId relatedGallery { id name } } } }`;
  const id = Buffer.from(`Task:${task.id}`).toString('base64');
  const gallery = Buffer.from(`Gallery:${galleryId}`).toString('base64');
  const mine = await graphql<{ node: unknown }>(app, alice.cookie, query, { id });
  expect(mine.data?.node).toEqual({ relatedGalleryId: gallery, relatedGallery: { id: gallery, name: 'Private lot' } });
  const bobs = await graphql<{ node: unknown }>(app, bob.cookie, query, { id });
  expect(bobs.data?.node).toEqual({ relatedGalleryId: null, relatedGallery: null });
});

it('loads a page of tasks with creator, assignee and gallery in a constant number of queries', async () => {
  for (let i = 0; i < 12; i++) await post(alice, { title: `Task ${i}`, assigneeId: bob.id, galleryId });
  const query = `query($n: Int) { tasks(first: $n) { totalCount edges { node {
    id title isOverdue creator { displayName } assignee { displayName } relatedGallery { name } } } } }`;
  let small: unknown;
  let large: { data?: { tasks: { edges: unknown[] } } } = {};
  const few = await countQueries(async () => {
    small = await graphql(app, alice.cookie, query, { n: 2 });
  });
  const many = await countQueries(async () => {
    large = await graphql(app, alice.cookie, query, { n: 12 });
  });
  expect(small).toMatchObject({ data: { tasks: { totalCount: 13 } } });
  expect(large.data?.tasks.edges).toHaveLength(12);
  expect(many).toBe(few);
});

it("lists each of the task screen's lists as one TaskList, paged, and loads it again by its id", async () => {
  const overdueTask = await post(bob, { title: 'Late permit', dueDate: '2020-01-01T00:00:00.000Z' });
  const done = await post(bob, { title: 'Scouted', dueDate: null });
  await app.request(`/api/tasks/${done.id}/complete`, { method: 'PATCH', cookie: bob.cookie });
  const lists = `fragment list on TaskList { id kind tasks(sort: DUE_DATE, first: 50) { totalCount edges { node { id } } } }
    query { pending: taskList(kind: pending) { ...list } completed: taskList(kind: completed) { ...list }
      overdue: taskList(kind: overdue) { ...list }
      all: tasks(status: pending, sort: DUE_DATE, first: 50) { totalCount edges { node { id } } } }`;
  type List = { id: string; kind: string; tasks: { totalCount: number; edges: { node: { id: string } }[] } };
  const { data } = await graphql<{ pending: List; completed: List; overdue: List; all: List['tasks'] }>(
    app,
    bob.cookie,
    lists,
  );
  expect(data?.pending.tasks).toEqual(data?.all);
  const ids = (list?: List) => list?.tasks.edges.map((edge) => edge.node.id);
  const globalId = (id: string) => Buffer.from(`Task:${id}`).toString('base64');
  expect(ids(data?.overdue)).toEqual([globalId(overdueTask.id)]);
  expect(ids(data?.completed)).toEqual([globalId(done.id)]);
  expect(data?.completed.kind).toBe('completed');

  // Paged like any connection, and fetched again by its id (Relay's pagination does so).
  const page = await graphql<{
    node: { kind: string; tasks: { edges: unknown[]; pageInfo: { hasNextPage: boolean } } };
  }>(
    app,
    bob.cookie,
    `query($id: ID!) { node(id: $id) { ... on TaskList { kind tasks(first: 1) { edges { cursor } pageInfo { hasNextPage } } } } }`,
    { id: data?.pending.id },
  );
  expect(page.data?.node.kind).toBe('pending');
  expect(page.data?.node.tasks.edges).toHaveLength(1);
  expect(page.data?.node.tasks.pageInfo.hasNextPage).toBe(true);

  // Another person's lists hold only their own tasks.
  const alices = await graphql<{ overdue: List }>(
    app,
    alice.cookie,
    'query { overdue: taskList(kind: overdue) { id kind tasks(first: 50) { totalCount edges { node { id } } } } }',
  );
  expect(ids(alices.data?.overdue)).not.toContain(globalId(overdueTask.id));
  const unknown = await graphql(app, bob.cookie, 'query($id: ID!) { node(id: $id) { id } }', {
    id: Buffer.from('TaskList:someday').toString('base64'),
  });
  expect(unknown.errors?.[0]?.message).toMatch(/is not a valid id/);
});
