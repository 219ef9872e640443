import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makePhoto } from './images.ts';
import {
  holdLiveMessages,
  MOBILE,
  newUser,
  screenshot,
  sharedBrowser,
  signedInContext,
  signedInPage,
} from './support.ts';

// The loop a production team lives in, played by two people in two browsers: the owner builds the
// project and invites; the crew member accepts in their own browser and works in a shared gallery;
// everything the other one does shows up without a reload.

const browser = sharedBrowser();
// Declared after sharedBrowser(), so they are closed before the browser is.
const contexts: BrowserContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

async function expectAxeClean(page: Page, where: string) {
  expect(await seriousViolations(page), where).toEqual([]);
}

const projectCard = (page: Page, name: string) =>
  page
    .getByTestId('project-list')
    .locator('div', { has: page.getByRole('heading', { name, exact: true }) })
    .first();
const galleryCards = (page: Page) => page.getByTestId('gallery-card');

async function openShareDialog(page: Page, galleryName: string) {
  await page.getByRole('button', { name: `Actions for ${galleryName}` }).click();
  await page.getByRole('menuitem', { name: 'Share Gallery' }).click();
  return page.getByRole('dialog', { name: 'Share Gallery' });
}

describe('projects and crew', () => {
  it('owner invites, crew accepts, a shared gallery comes and goes live in the crew member’s browser', async () => {
    const owner = await signedInPage(browser(), { path: '/projects', user: newUser('Dana Brooks') });
    const crewUser = newUser('Marta Ruiz');
    const crew = await signedInPage(browser(), { path: '/projects', user: crewUser });
    contexts.push(owner.context, crew.context);
    const o = owner.page;
    const c = crew.page;

    // 1. The owner has no project yet: the empty state offers to create one.
    await o.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
    await o.getByText('No projects yet').waitFor();
    await screenshot(o, 'projects-01-owner-empty');
    await o.getByRole('main').getByRole('button', { name: 'Create Project' }).click();
    const create = o.getByRole('dialog', { name: 'Create Project' });
    await create.getByRole('button', { name: 'Create Project' }).click();
    await o.getByText('Project name is required.').waitFor();
    await create.getByLabel('Project Name').fill('Night Shoot');
    await create.getByRole('button', { name: /Campaign/ }).click();
    await o.getByRole('option', { name: 'Movie' }).click();
    await create.getByRole('button', { name: 'Create Project' }).click();
    await o.getByText('Project "Night Shoot" has been created.').waitFor();
    await create.waitFor({ state: 'detached' });
    const ownerCard = projectCard(o, 'Night Shoot');
    await ownerCard.getByText('Your role: Creator').waitFor();
    await ownerCard.getByText('Movie', { exact: true }).waitFor();
    // The creator cannot leave, and there is nobody to remove yet.
    expect(await ownerCard.getByRole('button', { name: 'Leave project' }).count()).toBe(0);
    expect(await ownerCard.getByRole('button', { name: /^Remove / }).count()).toBe(0);

    // 2. Invite crew: the form's own messages, then the crew member by e-mail.
    await ownerCard.getByRole('button', { name: 'Invite crew' }).click();
    const invite = o.getByRole('dialog', { name: 'Invite crew' });
    await invite.getByRole('button', { name: 'Send Invitation' }).click();
    await invite.getByRole('alert').filter({ hasText: 'Enter the e-mail address of the person to invite.' }).waitFor();
    await invite.getByLabel('E-mail').fill('not an address');
    await invite.getByRole('button', { name: 'Send Invitation' }).click();
    await invite.getByRole('alert').filter({ hasText: 'Enter a valid e-mail address.' }).waitFor();
    await invite.getByLabel('E-mail').fill(crewUser.email.toUpperCase());
    await expectAxeClean(o, 'invite dialog, desktop');
    await screenshot(o, 'projects-02-owner-invite-dialog');
    await invite.getByRole('button', { name: 'Send Invitation' }).click();
    await o.getByText(`${crewUser.email} joins Night Shoot once they accept.`).waitFor();
    await invite.waitFor({ state: 'detached' });

    // An address with no account gets the same answer (nobody learns who has signed up), and can be cancelled.
    const stranger = `nobody-${Date.now()}@example.com`;
    await ownerCard.getByRole('button', { name: 'Invite crew' }).click();
    await invite.getByLabel('E-mail').fill(stranger);
    await invite.getByRole('button', { name: 'Send Invitation' }).click();
    await o.getByText(`${stranger} joins Night Shoot once they accept.`).waitFor();
    const pending = ownerCard.getByTestId('pending-invitation');
    await expect.poll(() => pending.count()).toBe(2);
    await screenshot(o, 'projects-03-owner-pending');
    await ownerCard.getByRole('button', { name: `Cancel invitation for ${stranger}` }).click();
    await o.getByText(`${stranger} can no longer join Night Shoot.`).waitFor();
    await expect.poll(() => pending.count()).toBe(1);
    // An invitation is not membership.
    expect(await ownerCard.getByTestId('member-row').count()).toBe(1);

    // 3. The crew member sees the invitation in their own browser without reloading.
    const forYou = c.getByTestId('invitation-for-you');
    await forYou.filter({ hasText: 'Night Shoot' }).waitFor({ timeout: 20_000 });
    await c.getByText(`${owner.user.name} invited you as a crew member.`).waitFor();
    await screenshot(c, 'projects-04-crew-invitation');
    // The bell has it too, and leads to the Projects screen.
    await c.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await c
      .getByRole('banner')
      .getByRole('button', { name: /^Notifications/ })
      .click();
    await c.getByRole('button', { name: /Invitation to a project/ }).click();
    await c.waitForURL(/\/projects$/);

    // 4. Accept: the project appears at once, with the crew member's actions only.
    await c.getByRole('button', { name: 'Accept invitation to Night Shoot' }).click();
    await c.getByText('You joined Night Shoot.').waitFor();
    await expect.poll(() => forYou.count()).toBe(0);
    const crewCard = projectCard(c, 'Night Shoot');
    await crewCard.getByText('Your role: Crew member').waitFor();
    await crewCard.getByRole('button', { name: 'Leave project' }).waitFor();
    expect(await crewCard.getByRole('button', { name: 'Invite crew' }).count()).toBe(0);
    expect(await crewCard.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    expect(await crewCard.getByRole('button', { name: /^Cancel invitation/ }).count()).toBe(0);
    await screenshot(c, 'projects-05-crew-joined');
    // The owner's screen follows: the crew member is in, the invitation is gone.
    await ownerCard.getByTestId('member-row').filter({ hasText: 'Marta Ruiz' }).waitFor();
    await expect.poll(() => pending.count()).toBe(0);
    await ownerCard.getByRole('button', { name: 'Remove Marta Ruiz from Night Shoot' }).waitFor();
    await screenshot(o, 'projects-06-owner-crew');

    // 5. The owner shares a gallery with Edit Access through the share dialog.
    const created = await owner.context.request.post('/api/galleries', { data: { name: 'Diner on Route 9' } });
    expect(created.status()).toBe(201);
    await c.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Galleries' }).click();
    await c.getByText('No galleries yet').waitFor();
    await o.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Galleries' }).click();
    let share = await openShareDialog(o, 'Diner on Route 9');
    await share.getByRole('button', { name: /Select a project/ }).click();
    await o.getByRole('option', { name: 'Night Shoot (Movie)' }).click();
    await share.getByRole('button', { name: /View Only/ }).click();
    await o.getByRole('option', { name: 'Edit Access' }).click();
    await share.getByRole('button', { name: 'Share Gallery' }).click();
    await o.getByText('Gallery has been shared with the project successfully.').waitFor();
    await share.getByTestId('share-row').getByText('Edit Access').waitFor();
    await screenshot(o, 'projects-07-owner-shares');
    await o.keyboard.press('Escape');

    // 6. The crew member's gallery list shows it without a reload; they add a photo.
    const diner = galleryCards(c).filter({ hasText: 'Diner on Route 9' });
    await diner.waitFor({ timeout: 20_000 });
    await screenshot(c, 'projects-08-crew-gallery-appears');
    await c.getByRole('link', { name: 'Open gallery Diner on Route 9' }).click();
    await c.getByRole('heading', { name: 'Diner on Route 9' }).waitFor();
    await c
      .getByLabel('Upload photos to this gallery')
      .setInputFiles({ name: 'booth.jpg', mimeType: 'image/jpeg', buffer: await makePhoto({ colour: '#b45309' }) });
    await c.getByRole('button', { name: 'Open booth.jpg' }).waitFor({ timeout: 20_000 });
    await screenshot(c, 'projects-09-crew-adds-photo');

    // 6b. Tasks: the owner assigns a task to the crew member, who completes it; the owner's bell has
    // it. Each does it in a second tab, so the gallery pages above stay open for the revoke below.
    const ownerTasks = await owner.context.newPage();
    await ownerTasks.goto('/tasks');
    await ownerTasks.getByRole('button', { name: 'New Task' }).click();
    const newTask = ownerTasks.getByRole('dialog', { name: 'Create New Task' });
    await newTask.getByLabel('Task Title').fill('Photograph the diner booth');
    await newTask.getByRole('button', { name: 'Create Task' }).click();
    await ownerTasks.getByText('Task created successfully!').waitFor();
    await ownerTasks.getByRole('button', { name: 'Actions for Photograph the diner booth' }).click();
    await ownerTasks.getByRole('menuitem', { name: 'Edit' }).click();
    const editTask = ownerTasks.getByRole('dialog', { name: 'Edit Task' });
    await editTask.getByLabel('Assigned To').click();
    await ownerTasks.getByRole('option', { name: 'Marta Ruiz' }).click();
    await editTask.getByLabel('Related Gallery (Optional)').click();
    await ownerTasks.getByRole('option', { name: 'Diner on Route 9' }).click();
    await screenshot(ownerTasks, 'projects-09b-owner-assigns-task');
    await editTask.getByRole('button', { name: 'Save Changes' }).click();
    await ownerTasks.getByText('Task updated successfully!').waitFor();
    const assigned = ownerTasks.getByRole('article', { name: 'Photograph the diner booth' });
    await assigned.getByText('Assigned to Marta Ruiz').waitFor();

    const crewTasks = await crew.context.newPage();
    await crewTasks.goto('/tasks');
    const crewTask = crewTasks.getByRole('article', { name: 'Photograph the diner booth' });
    await crewTask.getByText('Assigned to Marta Ruiz').waitFor();
    expect(await crewTask.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
    await screenshot(crewTasks, 'projects-09c-crew-has-task');
    await crewTask.getByRole('button', { name: 'Mark Complete: Photograph the diner booth' }).click();
    await crewTasks.getByText('Task completed!').waitFor();
    await crewTasks.close();

    await o
      .getByRole('banner')
      .getByRole('button', { name: /^Notifications/ })
      .click();
    await o.getByRole('button', { name: /Task completed/ }).waitFor({ timeout: 20_000 });
    await o.getByText('Marta Ruiz completed "Photograph the diner booth".').waitFor();
    await screenshot(o, 'projects-09d-owner-notified');
    await o
      .getByRole('banner')
      .getByRole('button', { name: /^Notifications/ })
      .click();
    await ownerTasks.close();

    // 7. The owner revokes: the open gallery turns into 'no access' in the crew member's browser.
    share = await openShareDialog(o, 'Diner on Route 9');
    await share.getByRole('button', { name: 'Revoke share with Night Shoot' }).click();
    await o.getByText('Share Revoked').waitFor();
    await o.keyboard.press('Escape');
    await c.getByRole('heading', { name: 'You no longer have access' }).waitFor({ timeout: 20_000 });
    expect(await c.getByRole('button', { name: 'Open booth.jpg' }).count()).toBe(0);
    await screenshot(c, 'projects-10-crew-loses-gallery');
    await c.getByRole('link', { name: 'Back to galleries' }).click();
    await c.getByText('No galleries yet').waitFor();

    // The list itself follows too: a second gallery shared and revoked while the crew member looks at it.
    const projects = (await (await owner.context.request.get('/api/projects')).json()) as {
      id: string;
      name: string;
    }[];
    const projectId = projects.find((p) => p.name === 'Night Shoot')?.id;
    const second = (await (
      await owner.context.request.post('/api/galleries', { data: { name: 'Motel Courtyard' } })
    ).json()) as { id: string };
    const shared = await owner.context.request.post(`/api/galleries/${second.id}/share`, {
      data: { projectId, permission: 'read' },
    });
    expect(shared.status()).toBe(201);
    await galleryCards(c).filter({ hasText: 'Motel Courtyard' }).waitFor({ timeout: 20_000 });
    const { id: shareId } = (await shared.json()) as { id: string };
    expect((await owner.context.request.delete(`/api/project-galleries/${shareId}`)).ok()).toBe(true);
    await galleryCards(c).filter({ hasText: 'Motel Courtyard' }).waitFor({ state: 'detached', timeout: 20_000 });

    // 8. The Projects screen at phone width and in dark mode, and its dialogs, are axe-clean.
    await o.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await ownerCard.getByTestId('member-row').nth(1).waitFor();
    await o.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await expectAxeClean(o, 'projects screen, desktop');
    await screenshot(o, 'projects-11-owner-desktop');
    await o.setViewportSize(MOBILE);
    await o.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Projects' }).waitFor();
    await expectAxeClean(o, 'projects screen, phone');
    await screenshot(o, 'projects-12-owner-phone');
    await ownerCard.getByRole('button', { name: 'Invite crew' }).click();
    await invite.getByLabel('E-mail').waitFor();
    await expectAxeClean(o, 'invite dialog, phone');
    await screenshot(o, 'projects-13-invite-dialog-phone');
    await o.keyboard.press('Escape');
    await o.evaluate(() => document.documentElement.classList.add('dark'));
    await expectAxeClean(o, 'projects screen, phone, dark');
    await screenshot(o, 'projects-14-owner-phone-dark');
    await o.setViewportSize({ width: 1280, height: 800 });
    await screenshot(o, 'projects-15-owner-desktop-dark');

    // 9. Remove with confirmation: the crew member loses the project without a reload.
    await c.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await crewCard.waitFor();
    await ownerCard.getByRole('button', { name: 'Remove Marta Ruiz from Night Shoot' }).click();
    const confirm = o.getByRole('dialog', { name: 'Remove Member' });
    await confirm.getByText(/lose access to the galleries shared with this project/).waitFor();
    await expectAxeClean(o, 'remove confirmation, dark');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await o.getByText('Marta Ruiz is no longer in Night Shoot.').waitFor();
    await expect.poll(() => ownerCard.getByTestId('member-row').count()).toBe(1);
    await c.getByText('No projects yet').waitFor({ timeout: 20_000 });
    await screenshot(c, 'projects-16-crew-removed');
  }, 420_000);

  it('shows an invitation sent while the live connection was still opening', async () => {
    const owner = await signedInContext(browser());
    const crewUser = newUser('Noor Haddad');
    const crew = await signedInContext(browser(), { user: crewUser });
    contexts.push(owner.context, crew.context);
    const page = await crew.context.newPage();
    // The tab's live messages are held until the invitation is sent.
    const release = await holdLiveMessages(page);
    await page.goto('/projects');
    await page.getByText('No projects yet').waitFor();
    const made = await owner.context.request.post('/api/projects', { data: { name: 'Dawn Patrol', type: 'movie' } });
    const { id } = (await made.json()) as { id: string };
    const invited = await owner.context.request.post(`/api/projects/${id}/invitations`, {
      data: { email: crewUser.email },
    });
    expect(invited.status()).toBe(201);
    release();
    await page.getByRole('button', { name: 'Accept invitation to Dawn Patrol' }).waitFor({ timeout: 15_000 });
  }, 120_000);

  it('a member leaves a project after confirming', async () => {
    const owner = await signedInPage(browser(), { path: '/projects' });
    const crewUser = newUser('Lee Park');
    const crew = await signedInPage(browser(), { path: '/projects', user: crewUser });
    contexts.push(owner.context, crew.context);
    const made = await owner.context.request.post('/api/projects', {
      data: { name: 'Harbour Ad', type: 'commercial' },
    });
    const { id } = (await made.json()) as { id: string };
    const invited = await owner.context.request.post(`/api/projects/${id}/invitations`, {
      data: { email: crewUser.email },
    });
    expect(invited.status()).toBe(201);
    await crew.page.getByRole('button', { name: 'Accept invitation to Harbour Ad' }).click({ timeout: 20_000 });
    const card = projectCard(crew.page, 'Harbour Ad');
    await card.getByRole('button', { name: 'Leave project' }).click();
    const confirm = crew.page.getByRole('dialog', { name: 'Leave Project' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await card.getByRole('button', { name: 'Leave project' }).click();
    await confirm.getByRole('button', { name: 'Leave' }).click();
    await crew.page.getByText('You are no longer in Harbour Ad.').waitFor();
    await crew.page.getByText('No projects yet').waitFor();
    // The owner's list of crew follows without a reload.
    await owner.page.getByRole('heading', { name: 'Harbour Ad' }).waitFor();
    await expect.poll(() => projectCard(owner.page, 'Harbour Ad').getByTestId('member-row').count()).toBe(1);
  }, 180_000);
});
