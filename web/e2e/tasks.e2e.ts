import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { joinProject } from './accounts.ts';
import { seriousViolations } from './axe.ts';
import {
  DESKTOP,
  emptyScreen,
  MOBILE,
  newUser,
  screenshot,
  sharedBrowser,
  signedInContext,
  signedInPage,
} from './support.ts';

const browser = sharedBrowser();

function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

async function createTask(page: Page, title: string, due?: Date) {
  await page.getByRole('button', { name: 'New Task' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Task' });
  await dialog.getByLabel('Task Title').fill(title);
  if (due) await dialog.getByLabel('Due Date (Optional)').fill(localInput(due));
  await dialog.getByRole('button', { name: 'Create Task' }).click();
  await page.getByText('Task created successfully!').waitFor();
  await dialog.waitFor({ state: 'detached' });
}

describe('tasks', () => {
  it('creates tasks with and without a due date, validates the title, completes one', async () => {
    const { context, page } = await emptyScreen(browser(), '/tasks', 'Task Management', 'No pending tasks');
    await screenshot(page, 'tasks-empty-desktop');

    // Validation: a blank title is refused in the browser and nothing is sent.
    await page.getByRole('button', { name: 'New Task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Task' });
    expect(await dialog.getByLabel('Priority').textContent()).toContain('Medium');
    await dialog.getByLabel('Task Title').fill('   ');
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await page.getByText('Task title is required.').waitFor();
    expect(await dialog.getByLabel('Task Title').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await createTask(page, 'Scout the harbour warehouse');
    const plain = page.getByRole('article', { name: 'Scout the harbour warehouse' });
    await plain.waitFor();
    expect(await plain.textContent()).toContain('Medium');
    expect(await plain.textContent()).not.toMatch(/Due|overdue/);

    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    tomorrow.setHours(10, 0, 0, 0);
    await createTask(page, 'Book the rooftop permit', tomorrow);
    await page.getByRole('article', { name: 'Book the rooftop permit' }).getByText('Due tomorrow').waitFor();

    const lastWeek = new Date();
    lastWeek.setDate(lastWeek.getDate() - 3);
    await createTask(page, 'Return the drone batteries', lastWeek);
    await page.getByRole('article', { name: 'Return the drone batteries' }).getByText('Overdue by 3 days').waitFor();
    await page.getByRole('tab', { name: 'Overdue (1)' }).waitFor();
    await page.getByRole('tab', { name: 'Pending (3)' }).waitFor();
    await screenshot(page, 'tasks-desktop');

    // The server has them (reload reads them back).
    await page.reload();
    await page.getByRole('tab', { name: 'Pending (3)' }).waitFor();
    const stored = await context.request.get('/api/tasks');
    const tasks = (await stored.json()) as { title: string; dueDate: string | null }[];
    expect(tasks.find((t) => t.title === 'Scout the harbour warehouse')?.dueDate).toBeNull();
    expect(tasks.find((t) => t.title === 'Book the rooftop permit')?.dueDate).toBe(tomorrow.toISOString());

    await page.getByRole('button', { name: 'Mark Complete: Scout the harbour warehouse' }).click();
    await page.getByText('Task completed!').waitFor();
    await page.getByRole('tab', { name: 'Pending (2)' }).waitFor();
    await page.getByRole('tab', { name: 'Completed (1)' }).click();
    const done = page.getByRole('article', { name: 'Scout the harbour warehouse' });
    await done.getByText(/^Completed /).waitFor();

    await page.reload();
    await page.getByRole('tab', { name: 'Completed (1)' }).click();
    await page.getByRole('article', { name: 'Scout the harbour warehouse' }).waitFor();

    await page.setViewportSize(MOBILE);
    await screenshot(page, 'tasks-mobile');
    await context.close();
  }, 180_000);

  it('edits, assigns, sorts, reopens and deletes; overdue cards say by how long', async () => {
    const { context, page, user: owner } = await signedInPage(browser(), { path: '/tasks' });
    const { context: crewContext, user: crew } = await signedInContext(browser(), { user: newUser('Avery Crew') });
    await joinProject(context, crewContext, crew.email);
    const gallery = await context.request.post('/api/galleries', { data: { name: 'Harbour' } });
    expect(gallery.status()).toBe(201);

    // Created in this order, so newest first and due date first differ.
    const threeHoursAgo = new Date(Date.now() - 3 * 3600_000);
    await createTask(page, 'Return the keys', threeHoursAgo);
    await createTask(page, 'Scout the pier');
    const inTwoDays = new Date();
    inTwoDays.setDate(inTwoDays.getDate() + 2);
    inTwoDays.setHours(12, 0, 0, 0);
    await createTask(page, 'Book the crane', inTwoDays);

    // Overdue since this morning: 'Overdue by 3 hours' in the Overdue tab, never 'Due today'.
    await page.getByRole('tab', { name: 'Overdue (1)' }).click();
    const overdueCard = page.getByRole('tabpanel').getByRole('article', { name: 'Return the keys' });
    await overdueCard.getByText('Overdue by 3 hours').waitFor();
    expect(await overdueCard.textContent()).not.toContain('Due today');
    await page.getByRole('tab', { name: /^Pending/ }).click();

    // Due date first by default (no due date last); Newest first on request, kept in the URL.
    const pendingTitles = () =>
      page
        .getByRole('tabpanel')
        .getByRole('article')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')));
    await page.reload();
    await page.getByRole('tab', { name: 'Pending (3)' }).waitFor();
    expect(await pendingTitles()).toEqual(['Return the keys', 'Book the crane', 'Scout the pier']);
    await page.getByLabel('Sort by').click();
    await page.getByRole('option', { name: 'Newest first' }).click();
    await page.waitForURL(/sort=newest/);
    await expect.poll(pendingTitles).toEqual(['Book the crane', 'Scout the pier', 'Return the keys']);
    await page.getByLabel('Sort by').click();
    await page.getByRole('option', { name: 'Due date' }).click();
    await expect.poll(pendingTitles).toEqual(['Return the keys', 'Book the crane', 'Scout the pier']);

    // Edit: the create form, filled in, plus the assignee (yourself or your projects' crew) and gallery.
    await page.getByRole('button', { name: 'Actions for Scout the pier' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Task' });
    expect(await edit.getByLabel('Task Title').inputValue()).toBe('Scout the pier');
    expect(await edit.getByLabel('Assigned To').textContent()).toContain('Unassigned');
    expect(await seriousViolations(page), 'edit dialog, desktop').toEqual([]);
    await edit.getByLabel('Assigned To').click();
    const people = await page.getByRole('option').allTextContents();
    expect(people).toEqual(['Unassigned', `${owner.name} (you)`, 'Avery Crew']);
    await page.getByRole('option', { name: 'Avery Crew' }).click();
    await edit.getByLabel('Related Gallery (Optional)').click();
    await page.getByRole('option', { name: 'Harbour' }).click();
    await edit.getByLabel('Task Title').fill('   ');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Task title is required.').waitFor();
    await edit.getByLabel('Task Title').fill('Scout the north pier');
    await edit.getByLabel('Description (Optional)').fill('Low tide at 6');
    await edit.getByLabel('Priority').click();
    await page.getByRole('option', { name: 'High' }).click();
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    tomorrow.setHours(9, 30, 0, 0);
    await edit.getByLabel('Due Date (Optional)').fill(localInput(tomorrow));
    await screenshot(page, 'tasks-edit-desktop');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Task updated successfully!').waitFor();
    await edit.waitFor({ state: 'detached' });
    const edited = page.getByRole('article', { name: 'Scout the north pier' });
    await edited.getByText('Assigned to Avery Crew').waitFor();
    const editedText = await edited.textContent();
    for (const text of ['High', 'Low tide at 6', 'Due tomorrow', 'Related to a gallery'])
      expect(editedText).toContain(text);
    const stored = (await (await context.request.get('/api/tasks')).json()) as { title: string; dueDate: string }[];
    expect(stored.find((t) => t.title === 'Scout the north pier')?.dueDate).toBe(tomorrow.toISOString());

    // The crew member was told, sees it without edit or delete, and completes it; the owner is told.
    const crewNotes = (await (await crewContext.request.get('/api/notifications')).json()) as {
      title: string;
      message: string;
    }[];
    expect(crewNotes.some((n) => n.title === 'New task assigned' && n.message.includes('Scout the north pier'))).toBe(
      true,
    );
    const crewPage = await crewContext.newPage();
    await crewPage.goto('/tasks');
    const crewCard = crewPage.getByRole('article', { name: 'Scout the north pier' });
    await crewCard.waitFor();
    expect(await crewCard.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
    await crewCard.getByRole('button', { name: 'Mark Complete: Scout the north pier' }).click();
    await crewPage.getByText('Task completed!').waitFor();
    const ownerNotes = (await (await context.request.get('/api/notifications')).json()) as {
      title: string;
      message: string;
    }[];
    expect(ownerNotes.some((n) => n.title === 'Task completed' && n.message.includes('Avery Crew'))).toBe(true);

    // Reopen: back to Pending, completedAt cleared, the crew member told.
    await page.reload();
    await page.getByRole('tab', { name: 'Completed (1)' }).click();
    await page.getByRole('button', { name: 'Reopen: Scout the north pier' }).click();
    await page.getByText('Task reopened!').waitFor();
    await page.getByRole('tab', { name: 'Completed (0)' }).waitFor();
    await page.getByRole('tab', { name: 'Pending (3)' }).click();
    await page.getByRole('tabpanel').getByRole('article', { name: 'Scout the north pier' }).waitFor();
    const reopened = (await (await context.request.get('/api/tasks')).json()) as {
      title: string;
      status: string;
      completedAt: string | null;
    }[];
    expect(reopened.find((t) => t.title === 'Scout the north pier')).toMatchObject({
      status: 'pending',
      completedAt: null,
    });
    const crewAgain = (await (await crewContext.request.get('/api/notifications')).json()) as { title: string }[];
    expect(crewAgain.map((n) => n.title)).toContain('Task reopened');

    // Delete asks first; Cancel keeps the task.
    await page.getByRole('button', { name: 'Actions for Book the crane' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Task' });
    await confirm.getByText('Delete "Book the crane"? This cannot be undone.').waitFor();
    expect(await seriousViolations(page), 'delete confirmation, desktop').toEqual([]);
    await screenshot(page, 'tasks-delete-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('article', { name: 'Book the crane' }).waitFor();

    // Phone width: both dialogs stay axe-clean, then the delete goes through.
    await page.setViewportSize(MOBILE);
    await page.getByRole('button', { name: 'Actions for Scout the north pier' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await edit.waitFor();
    expect(await edit.getByLabel('Assigned To').textContent()).toContain('Avery Crew');
    expect(await edit.getByLabel('Related Gallery (Optional)').textContent()).toContain('Harbour');
    expect(await seriousViolations(page), 'edit dialog, phone').toEqual([]);
    await screenshot(page, 'tasks-edit-mobile');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Actions for Book the crane' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await confirm.waitFor();
    expect(await seriousViolations(page), 'delete confirmation, phone').toEqual([]);
    await screenshot(page, 'tasks-delete-mobile');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Task deleted successfully!').waitFor();
    await page.getByRole('tab', { name: 'Pending (2)' }).waitFor();
    expect(await page.getByRole('article', { name: 'Book the crane' }).count()).toBe(0);
    const left = (await (await context.request.get('/api/tasks')).json()) as { title: string }[];
    expect(left.map((t) => t.title).sort()).toEqual(['Return the keys', 'Scout the north pier']);
    await screenshot(page, 'tasks-mobile-after');

    // Dark mode, desktop: the list with an overdue card and the edit dialog.
    expect((await context.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
    await page.setViewportSize(DESKTOP);
    await page.reload();
    await page.getByRole('tab', { name: 'Pending (2)' }).waitFor();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await screenshot(page, 'tasks-dark');
    await page.getByRole('button', { name: 'Actions for Scout the north pier' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await edit.waitFor();
    await screenshot(page, 'tasks-edit-dark');

    await crewContext.close();
    await context.close();
    // Two people, many steps: longer than one screen's test on a busy machine.
  }, 400_000);

  it('pages each list on its own: the pending list loads its next tasks, the counts stay whole', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/tasks' });
    await page.getByRole('tab', { name: 'Pending (0)' }).waitFor();
    for (let i = 1; i <= 23; i++) {
      const created = await context.request.post('/api/tasks', { data: { title: `Recce stop ${i}`, dueDate: null } });
      expect(created.status()).toBe(201);
    }
    await page.reload();
    await page.getByRole('tab', { name: 'Pending (23)' }).waitFor();
    const cards = page.getByRole('tabpanel').getByRole('article');
    await expect.poll(() => cards.count()).toBe(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => cards.count()).toBe(23);
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Completed (0)' }).waitFor();
    await context.close();
  });
});

describe('task forms (issue 53)', () => {
  it('refuses a due date outside 1900-2100 in the form, with a message by the field', async () => {
    const { context, page } = await emptyScreen(browser(), '/tasks', 'Task Management', 'No pending tasks');
    // No tasks at all is not "All tasks are completed!".
    await page.getByText('There are no tasks yet. Create one to get started.').waitFor({ timeout: 15_000 });
    expect(await page.getByText('All tasks are completed!').count()).toBe(0);
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.getByRole('button', { name: 'New Task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Task' });
    await dialog.getByLabel('Task Title').fill('Scout the far future');
    const due = dialog.getByLabel('Due Date (Optional)');
    for (const value of ['99999-01-01T10:00', '0001-01-01T10:00', '2101-03-01T10:00']) {
      await due.fill(value);
      await dialog.getByRole('button', { name: 'Create Task' }).click();
      await dialog.getByText('Due date must be between 1900 and 2100.').waitFor({ timeout: 10_000 });
      expect(await due.getAttribute('aria-invalid'), value).toBe('true');
      expect(await dialog.isVisible()).toBe(true);
    }
    await screenshot(page, 'tasks-due-out-of-range-desktop');
    expect(await seriousViolations(page), 'out-of-range message').toEqual([]);
    const stored = (await (await context.request.get('/api/tasks')).json()) as unknown[];
    expect(stored).toEqual([]);
    // In range again: the message goes and the task is made.
    await due.fill('2100-12-31T10:00');
    expect(await dialog.getByText('Due date must be between 1900 and 2100.').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await page.getByText('Task created successfully!').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('puts a new task where the chosen order puts it, without a reload', async () => {
    const { context, page } = await emptyScreen(browser(), '/tasks', 'Task Management', 'No pending tasks');
    const titles = () =>
      page
        .getByRole('tabpanel')
        .getByRole('article')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')));
    const inDays = (days: number) => {
      const date = new Date();
      date.setDate(date.getDate() + days);
      date.setHours(12, 0, 0, 0);
      return date;
    };
    // Due date order (the default): soonest first, undated last.
    await createTask(page, 'Later', inDays(5));
    await createTask(page, 'Undated');
    await createTask(page, 'Sooner', inDays(1));
    await createTask(page, 'Middle', inDays(3));
    await expect.poll(titles).toEqual(['Sooner', 'Middle', 'Later', 'Undated']);
    await page.reload();
    await page.getByRole('tab', { name: 'Pending (4)' }).waitFor();
    expect(await titles()).toEqual(['Sooner', 'Middle', 'Later', 'Undated']);
    // Newest first: a new task at the top, whatever its date.
    await page.getByLabel('Sort by').click();
    await page.getByRole('option', { name: 'Newest first' }).click();
    await page.waitForURL(/sort=newest/);
    await expect.poll(titles).toEqual(['Middle', 'Sooner', 'Undated', 'Later']);
    await createTask(page, 'Latest', inDays(9));
    await expect.poll(titles).toEqual(['Latest', 'Middle', 'Sooner', 'Undated', 'Later']);
    await context.close();
  });

  it('assigns a task while creating it; the assignee is told', async () => {
    const { context, page, user: owner } = await signedInPage(browser(), { path: '/tasks', viewport: MOBILE });
    const { context: crewContext, user: crew } = await signedInContext(browser(), { user: newUser('Avery Crew') });
    await joinProject(context, crewContext, crew.email);
    await page.reload();
    await page.getByRole('button', { name: 'New Task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Task' });
    await dialog.getByLabel('Task Title').fill('Scout the lighthouse');
    expect(await dialog.getByLabel('Assigned To').textContent()).toContain('Unassigned');
    await dialog.getByLabel('Assigned To').click();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      'Unassigned',
      `${owner.name} (you)`,
      'Avery Crew',
    ]);
    await page.getByRole('option', { name: 'Avery Crew' }).click();
    await screenshot(page, 'tasks-create-assignee-mobile');
    expect(await seriousViolations(page), 'create dialog with assignee, phone').toEqual([]);
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await page.getByText('Task created successfully!').waitFor();
    await page.getByRole('article', { name: 'Scout the lighthouse' }).getByText('Assigned to Avery Crew').waitFor();
    const notes = (await (await crewContext.request.get('/api/notifications')).json()) as {
      title: string;
      message: string;
    }[];
    expect(notes).toContainEqual(
      expect.objectContaining({ title: 'New task assigned', message: expect.stringContaining('Scout the lighthouse') }),
    );
    await crewContext.close();
    await context.close();
  });
});
