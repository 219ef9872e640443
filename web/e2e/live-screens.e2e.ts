import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { joinProject } from './accounts.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { baseURL, DESKTOP, newUser, post, sharedBrowser, signedInContext } from './support.ts';

const browser = sharedBrowser();

/** A gallery of the owner's holding one photo (`file`, in `colour`); an error if the server refuses any step. */
async function galleryWithPhoto(
  owner: BrowserContext,
  fields: { name: string; location: string },
  file: string,
  colour: string,
) {
  const gallery = await post<{ id: string }>(owner.request, '/api/galleries', fields);
  const photo = await uploadThroughApi(owner.request, file, await makePhoto({ colour }));
  await post(owner.request, `/api/galleries/${gallery.id}/items`, { fileIds: [photo.id] });
  return gallery;
}

// Issue 53, item 6: screens that other people's actions change, each open in a second browser.
describe('live screens', () => {
  it('a task assigned to a crew member appears in their open task list at once', async () => {
    const ben = newUser('Ben Okafor');
    const { context: owner } = await signedInContext(browser());
    const { context: crew } = await signedInContext(browser(), { user: ben });
    await joinProject(owner, crew, ben.email);
    const benId = ((await (await crew.request.get('/api/auth/user')).json()) as { id: string }).id;

    const page = await crew.newPage();
    await page.goto('/tasks');
    await page.getByText('No pending tasks').first().waitFor();

    const created = await owner.request.post('/api/tasks', { data: { title: 'Scout the harbour crane' } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await owner.request.patch(`/api/tasks/${id}`, { data: { assigneeId: benId } })).ok()).toBe(true);

    // No reload: the list shows it.
    await page.getByText('Scout the harbour crane').first().waitFor({ timeout: 10_000 });
    await Promise.all([owner.close(), crew.close()]);
  }, 240_000);

  it("a member's new photo shows in the owner's open gallery and gallery list", async () => {
    const ben = newUser('Ben Okafor');
    const { context: owner } = await signedInContext(browser());
    const { context: crew } = await signedInContext(browser(), { user: ben });
    await joinProject(owner, crew, ben.email);
    const project = ((await (await owner.request.get('/api/projects')).json()) as { id: string }[])[0];
    const gallery = await galleryWithPhoto(owner, { name: 'Dockside', location: 'Hamburg' }, 'quay.jpg', '#0f766e');
    expect(
      (
        await owner.request.post(`/api/galleries/${gallery.id}/share`, {
          data: { projectId: project?.id, permission: 'write' },
        })
      ).ok(),
    ).toBe(true);

    const page = await owner.newPage();
    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('tab', { name: 'Photos (1)' }).waitFor();
    const list = await owner.newPage();
    await list.goto('/galleries');
    await list.getByText('1 photo', { exact: true }).first().waitFor();

    const added = await uploadThroughApi(crew.request, 'crane.jpg', await makePhoto({ colour: '#b45309' }));
    expect(
      (await crew.request.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds: [added.id] } })).ok(),
    ).toBe(true);

    // No reload. (Generous waits: the test machines run several browsers at once.)
    await page.getByRole('button', { name: 'Open crane.jpg' }).waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'Photos (2)' }).waitFor({ timeout: 10_000 });
    await list.getByText('2 photos', { exact: true }).first().waitFor({ timeout: 30_000 });
    await Promise.all([owner.close(), crew.close()]);
  }, 240_000);

  it("a reviewer's open page is told at once that the link was revoked", async () => {
    const { context: owner } = await signedInContext(browser());
    const gallery = await galleryWithPhoto(owner, { name: 'Lighthouse', location: 'Cuxhaven' }, 'lamp.jpg', '#1d4ed8');
    const link = (await (
      await owner.request.post(`/api/galleries/${gallery.id}/review-links`, { data: { label: 'Director' } })
    ).json()) as { id: string; url: string };

    const reviewer = await browser().newContext({ baseURL, viewport: DESKTOP });
    const review = await reviewer.newPage();
    await review.goto(link.url.slice(link.url.indexOf('/r/')));
    await review.getByRole('heading', { name: 'Lighthouse' }).waitFor();

    expect((await owner.request.delete(`/api/review-links/${link.id}`)).ok()).toBe(true);

    // No reload: the gallery gives way to the message.
    await review.getByRole('heading', { name: 'This review link is no longer available' }).waitFor({ timeout: 30_000 });
    expect(await review.getByRole('heading', { name: 'Lighthouse' }).count()).toBe(0);
    await Promise.all([owner.close(), reviewer.close()]);
  }, 240_000);
});
