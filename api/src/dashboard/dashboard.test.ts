import { afterAll, beforeAll, expect, it } from 'vitest';
import { graphql, signedInUser, testApp, type TestApp } from '../../test/harness.ts';

type User = Awaited<ReturnType<typeof signedInUser>>;

let app: TestApp;
let alice: User;
let bob: User;

beforeAll(async () => {
  app = await testApp();
  [alice, bob] = [await signedInUser(app), await signedInUser(app)];
});
afterAll(() => app.close());

async function stats(user: User) {
  const response = await app.request('/api/dashboard/stats', { cookie: user.cookie });
  expect(response.status).toBe(200);
  return response.json();
}

const zero = {
  totalFiles: 0,
  totalPhotos: 0,
  totalGalleries: 0,
  activeGalleries: 0,
  sharedGalleries: 0,
  pendingTasks: 0,
  overdueTasks: 0,
  completedTasks: 0,
  unreadNotifications: 0,
};

function file(ownerId: string, name: string, mimeType: string) {
  return {
    ownerId,
    name,
    originalName: name,
    mimeType,
    objectUrl: `/objects/uploads/${name}`,
    objectPath: `/objects/uploads/${name}`,
  };
}

it('starts at zero', async () => {
  expect(await stats(alice)).toEqual(zero);
});

it('counts real figures for the viewer only', async () => {
  const db = app.database.prisma;
  await db.file.createMany({
    data: [
      file(alice.id, 'a.jpg', 'image/jpeg'),
      file(alice.id, 'b.png', 'image/png'),
      file(alice.id, 'c.pdf', 'application/pdf'),
      file(bob.id, 'd.jpg', 'image/jpeg'),
    ],
  });
  await db.gallery.createMany({
    data: [
      { ownerId: alice.id, name: 'A1' },
      { ownerId: alice.id, name: 'A2', status: 'archived' },
      { ownerId: bob.id, name: 'B1' },
      { ownerId: bob.id, name: 'B2' },
      { ownerId: bob.id, name: 'B3' },
    ],
  });
  // Bob shares B1 (active) and B2 (paused) with a project Alice belongs to; B3 is not shared.
  const project = await db.project.create({ data: { name: 'P', ownerId: bob.id } });
  await db.projectMember.createMany({
    data: [
      { projectId: project.id, userId: bob.id, role: 'owner' },
      { projectId: project.id, userId: alice.id },
    ],
  });
  const [b1, b2] = await db.gallery.findMany({ where: { ownerId: bob.id }, orderBy: { name: 'asc' } });
  await db.galleryShare.create({ data: { galleryId: b1!.id, projectId: project.id, sharedById: bob.id } });
  await db.galleryShare.create({
    data: { galleryId: b2!.id, projectId: project.id, sharedById: bob.id, status: 'paused' },
  });

  const post = (user: User, body: object) =>
    app.request('/api/tasks', {
      method: 'POST',
      cookie: user.cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await post(alice, { title: 'pending' });
  await post(alice, { title: 'overdue', dueDate: new Date(Date.now() - 3600_000).toISOString() });
  const done = (await (await post(alice, { title: 'done' })).json()) as { id: string };
  await app.request(`/api/tasks/${done.id}/complete`, { method: 'PATCH', cookie: alice.cookie });
  await post(bob, { title: 'assigned to alice', assigneeId: alice.id }); // also notifies alice
  await post(bob, { title: 'bob only' });

  const expected = {
    totalFiles: 3,
    totalPhotos: 2,
    totalGalleries: 2,
    activeGalleries: 1,
    sharedGalleries: 1,
    pendingTasks: 3,
    overdueTasks: 1,
    completedTasks: 1,
    unreadNotifications: 1,
  };
  expect(await stats(alice)).toEqual(expected);
  expect(await stats(bob)).toMatchObject({ totalFiles: 1, totalGalleries: 3, sharedGalleries: 0, pendingTasks: 2 });

  const gql = await graphql<{ viewer: { dashboardStats: typeof expected } }>(
    app,
    alice.cookie,
    `{ viewer { dashboardStats { ${Object.keys(expected).join(' ')} } } }`,
  );
  expect(gql.data?.viewer.dashboardStats).toEqual(expected);
});
