import { afterAll, beforeAll, expect, it } from 'vitest';
import { anyone, appWithPeople, type SignedInUser as User, type TestApp } from '../../test/harness.ts';
import { call, makeFile, makeGallery, shareWith } from '../galleries/testing.ts';

// The feed, the dashboard and task assignment, driven by the galleries and projects domains'
// own routes rather than rows written by hand.

let app: TestApp, bob: User, alice: User;
beforeAll(async () => {
  [app, bob, alice] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

const names = (rows: { action: string; resourceName: string }[]) => rows.map((r) => `${r.action}:${r.resourceName}`);

it('follows a gallery shared with a project, and forgets it when the share is revoked', async () => {
  await makeGallery(app, bob.cookie, { name: 'Bob private' });
  const shared = await makeGallery(app, bob.cookie, { name: 'Harbour' });
  const file = await makeFile(app, bob.id);
  const { share } = await shareWith(app, bob, alice, shared.id);
  expect(
    (await call(app, bob.cookie, 'POST', `/api/galleries/${shared.id}/items`, { fileIds: [file.id] })).status,
  ).toBe(201);

  const feed = await call(app, alice.cookie, 'GET', '/api/activity');
  expect(feed.status).toBe(200);
  expect(names(feed.body)).toEqual(
    expect.arrayContaining(['gallery_shared:Harbour', 'file_added_to_gallery:Harbour', 'gallery_created:Harbour']),
  );
  expect(names(feed.body)).not.toContain('gallery_created:Bob private');
  expect(feed.body.every((a: { user: { id: string } }) => a.user.id === bob.id)).toBe(true);

  const stats = await call(app, alice.cookie, 'GET', '/api/dashboard/stats');
  expect(stats.body).toMatchObject({ sharedGalleries: 1, totalGalleries: 0 });
  expect(stats.body.recentGalleries.map((g: { name: string }) => g.name)).toEqual(['Harbour']);

  // Sharing made them project mates: Bob may now assign Alice a task about the gallery.
  const task = await call(app, bob.cookie, 'POST', '/api/tasks', {
    title: 'Scout the harbour at dawn',
    assigneeId: alice.id,
    galleryId: shared.id,
  });
  expect(task.status).toBe(201);
  expect((await call(app, alice.cookie, 'GET', `/api/tasks/${task.body.id}`)).body.gallery).toEqual({
    id: shared.id,
    name: 'Harbour',
  });

  expect((await call(app, bob.cookie, 'DELETE', `/api/project-galleries/${share.id}`)).status).toBeLessThan(300);
  const after = await call(app, alice.cookie, 'GET', '/api/activity');
  expect(names(after.body).filter((n) => n.endsWith(':Harbour'))).toEqual([]);
  expect((await call(app, alice.cookie, 'GET', '/api/dashboard/stats')).body).toMatchObject({ sharedGalleries: 0 });
  // The task stays Alice's, but the gallery it names is closed to her now.
  expect((await call(app, alice.cookie, 'GET', `/api/tasks/${task.body.id}`)).body.gallery).toBeNull();
});
