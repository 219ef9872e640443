import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { crewProject } from '../../test/fixtures.ts';
import { anyone, appWithPeople, graphql, signedInUser, sendBody } from '../../test/harness.ts';

let app: TestApp, alice: User, bob: User;
beforeAll(async () => {
  [app, alice, bob] = await appWithPeople(anyone, anyone);
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
  const body = await stats(alice);
  expect(body).toMatchObject(zero);
  expect(body.storage).toEqual({ usedBytes: 0, quotaBytes: expect.any(Number) });
  expect(body.recentGalleries).toEqual([]);
});

it('lists at most six recent galleries, newest first', async () => {
  const dave = await signedInUser(app);
  for (let i = 0; i < 8; i++) {
    await app.database.prisma.gallery.create({
      data: { ownerId: dave.id, name: `G${i}`, createdAt: new Date(Date.now() - (8 - i) * 1000) },
    });
  }
  const body = await stats(dave);
  expect(body.recentGalleries.map((g: { name: string }) => g.name)).toEqual(['G7', 'G6', 'G5', 'G4', 'G3', 'G2']);
  expect(body.totalGalleries).toBe(8);
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
  const project = await crewProject(app, 'P', bob, alice);
  const [b1, b2] = await db.gallery.findMany({ where: { ownerId: bob.id }, orderBy: { name: 'asc' } });
  await db.galleryShare.create({ data: { galleryId: b1!.id, projectId: project.id, sharedById: bob.id } });
  await db.galleryShare.create({
    data: { galleryId: b2!.id, projectId: project.id, sharedById: bob.id, status: 'paused' },
  });

  const post = (user: User, body: object) => sendBody(app, user.cookie, 'POST', '/api/tasks', body);
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
  const body = await stats(alice);
  expect(body).toMatchObject(expected);
  // Files created here have no size; storage use is the storage domain's sum of sizes.
  expect(body.storage.usedBytes).toBe(0);
  // Recent galleries: the ones Alice can see (own and actively shared), newest first, at most 6.
  expect(body.recentGalleries.map((g: { name: string }) => g.name).sort()).toEqual(['A1', 'A2', 'B1']);
  expect(await stats(bob)).toMatchObject({ totalFiles: 1, totalGalleries: 3, sharedGalleries: 0, pendingTasks: 2 });

  const gql = await graphql<{ viewer: { dashboardStats: typeof expected } }>(
    app,
    alice.cookie,
    `{ viewer { dashboardStats { ${Object.keys(expected).join(' ')} } } }`,
  );
  expect(gql.data?.viewer.dashboardStats).toEqual(expected);
});
