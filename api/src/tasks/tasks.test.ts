import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { crewProject } from '../../test/fixtures.ts';
import { anyone, appWithPeople, graphql, send, signedInUser } from '../../test/harness.ts';
import { sendDueReminders } from './rules.ts';

let app: TestApp;
let alice: User;
let bob: User; // shares a project with alice
let carol: User; // shares nothing with anyone

beforeAll(async () => {
  [app, alice, bob, carol] = await appWithPeople(anyone, anyone, anyone);
  await crewProject(app, 'Night Shoot', alice, bob);
});
afterAll(() => app.close());

function call(user: User | null, method: string, path: string, body?: unknown) {
  return send(app, user?.cookie, method, path, body);
}

const hour = 3600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const decodeId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':')[1] as string;

describe('creating tasks', () => {
  it('creates with defaults and records task_created activity', async () => {
    const res = await call(alice, 'POST', '/api/tasks', { title: '  Scout the warehouse  ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Scout the warehouse',
      description: null,
      priority: 'medium',
      status: 'pending',
      dueDate: null,
      completedAt: null,
      assigneeId: null,
      creatorId: alice.id,
      isOverdue: false,
    });
    const activity = await app.database.prisma.activity.findMany({ where: { resourceId: res.body.id } });
    expect(activity).toMatchObject([{ action: 'task_created', resourceType: 'task', userId: alice.id }]);
  });

  it.each([
    [{ title: '' }, 'Task title is required.'],
    [{ title: '    ' }, 'Task title is required.'],
    [{}, 'Task title is required.'],
    [{ title: 42 }, 'Task title is required.'],
    [{ title: 'x', priority: 'urgent' }, "Priority must be 'low', 'medium' or 'high'."],
    [{ title: 'x', dueDate: 'next tuesday' }, 'Due date must be an ISO date and time, or null.'],
    [{ title: 'x', dueDate: '2026-13-45T00:00:00Z' }, 'Due date must be an ISO date and time, or null.'],
    [{ title: 'x', dueDate: 12345 }, 'Due date must be an ISO date and time, or null.'],
    [
      { title: 'x', assigneeId: 'not-a-user' },
      'You can assign a task to yourself or to a member of one of your projects.',
    ],
    [{ title: 'x', galleryId: 'nope' }, 'The related gallery does not exist or you cannot see it.'],
    [{ title: 'x', colour: 'red' }, 'Unrecognized key: "colour"'],
  ])('refuses %j with a clear 400', async (body, message) => {
    const res = await call(alice, 'POST', '/api/tasks', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it('refuses malformed JSON and non-objects with a 400', async () => {
    expect((await call(alice, 'POST', '/api/tasks', '{"title":')).status).toBe(400);
    expect((await call(alice, 'POST', '/api/tasks', '[1,2]')).status).toBe(400);
  });

  it('accepts every priority, a description, and null or ISO due dates', async () => {
    const res = await call(alice, 'POST', '/api/tasks', {
      title: 'Permits',
      description: 'City hall',
      priority: 'high',
      dueDate: '2030-01-02T10:00:00.000Z',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ priority: 'high', description: 'City hall', dueDate: '2030-01-02T10:00:00.000Z' });
    const low = await call(alice, 'POST', '/api/tasks', { title: 'Low', priority: 'low', dueDate: null });
    expect(low.body).toMatchObject({ priority: 'low', dueDate: null });
  });
});

describe('assignment', () => {
  it('assigns to yourself without a notification', async () => {
    const before = await app.database.prisma.notification.count({ where: { userId: alice.id } });
    const res = await call(alice, 'POST', '/api/tasks', { title: 'Mine', assigneeId: alice.id });
    expect(res.status).toBe(201);
    expect(res.body.assignee).toMatchObject({ id: alice.id });
    expect(await app.database.prisma.notification.count({ where: { userId: alice.id } })).toBe(before);
  });

  it('assigns to a project member, who is notified and sees the task', async () => {
    const res = await call(alice, 'POST', '/api/tasks', { title: 'Bring the drone', assigneeId: bob.id });
    expect(res.status).toBe(201);
    const notes = await app.database.prisma.notification.findMany({ where: { userId: bob.id } });
    expect(notes).toEqual([expect.objectContaining({ type: 'task', title: 'New task assigned', isRead: false })]);
    expect(notes[0]?.message).toContain('Bring the drone');
    const bobs = await call(bob, 'GET', '/api/tasks');
    expect(bobs.body.map((t: { id: string }) => t.id)).toContain(res.body.id);
    expect((await call(bob, 'GET', `/api/tasks/${res.body.id}`)).status).toBe(200);
  });

  it('refuses someone who shares no project, with a 400', async () => {
    const res = await call(alice, 'POST', '/api/tasks', { title: 'Nope', assigneeId: carol.id });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('You can assign a task to yourself or to a member of one of your projects.');
    expect(await app.database.prisma.task.count({ where: { title: 'Nope' } })).toBe(0);
  });

  it('notifies the new assignee when a task is reassigned', async () => {
    const created = await call(alice, 'POST', '/api/tasks', { title: 'Reassign me' });
    const res = await call(alice, 'PATCH', `/api/tasks/${created.body.id}`, { assigneeId: bob.id });
    expect(res.status).toBe(200);
    expect(res.body.assigneeId).toBe(bob.id);
    expect(
      await app.database.prisma.notification.count({ where: { userId: bob.id, message: { contains: 'Reassign me' } } }),
    ).toBe(1);
    expect((await call(alice, 'PATCH', `/api/tasks/${created.body.id}`, { assigneeId: carol.id })).status).toBe(400);
  });
});

describe('related gallery', () => {
  it('links a gallery the creator can read and refuses one they cannot', async () => {
    const db = app.database.prisma;
    const own = await db.gallery.create({ data: { name: 'Docks', ownerId: alice.id } });
    const foreign = await db.gallery.create({ data: { name: 'Secret', ownerId: carol.id } });
    const ok = await call(alice, 'POST', '/api/tasks', { title: 'Shoot docks', galleryId: own.id });
    expect(ok.status).toBe(201);
    expect(ok.body.gallery).toEqual({ id: own.id, name: 'Docks' });
    const refused = await call(alice, 'POST', '/api/tasks', { title: 'Peek', galleryId: foreign.id });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('The related gallery does not exist or you cannot see it.');
  });

  it('accepts a gallery shared with a project of the creator', async () => {
    const db = app.database.prisma;
    const project = await crewProject(app, 'Shared', carol, alice);
    const gallery = await db.gallery.create({ data: { name: 'Carol shares', ownerId: carol.id } });
    await db.galleryShare.create({ data: { galleryId: gallery.id, projectId: project.id, sharedById: carol.id } });
    const ok = await call(alice, 'POST', '/api/tasks', { title: 'Use shared', galleryId: gallery.id });
    expect(ok.status).toBe(201);
    await db.projectMember.delete({ where: { projectId_userId: { projectId: project.id, userId: alice.id } } });
  });
});

describe('editing, completing, deleting', () => {
  it('lets the creator edit, and only the creator', async () => {
    const created = await call(alice, 'POST', '/api/tasks', { title: 'Edit me', assigneeId: bob.id });
    const id = created.body.id;
    const edited = await call(alice, 'PATCH', `/api/tasks/${id}`, {
      title: 'Edited',
      priority: 'high',
      description: 'd',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Edited', priority: 'high', description: 'd' });
    expect((await call(alice, 'PATCH', `/api/tasks/${id}`, { title: '  ' })).body.message).toBe(
      'Task title is required.',
    );
    const byAssignee = await call(bob, 'PATCH', `/api/tasks/${id}`, { title: 'Mine now' });
    expect(byAssignee.status).toBe(403);
    expect(byAssignee.body.message).toBe('Only the person who created this task can change it.');
    const deleteByAssignee = await call(bob, 'DELETE', `/api/tasks/${id}`);
    expect(deleteByAssignee.status).toBe(403);
    expect(deleteByAssignee.body.message).toBe('Only the person who created this task can delete it.');
    expect((await call(carol, 'PATCH', `/api/tasks/${id}`, { title: 'x' })).status).toBe(404);
    expect((await call(alice, 'GET', `/api/tasks/${id}`)).body.title).toBe('Edited');
  });

  it('completes once (creator or assignee), sets completedAt, and completing twice is harmless', async () => {
    const created = await call(alice, 'POST', '/api/tasks', { title: 'Finish', assigneeId: bob.id });
    const id = created.body.id;
    expect((await call(carol, 'PATCH', `/api/tasks/${id}/complete`)).status).toBe(404);
    const done = await call(bob, 'PATCH', `/api/tasks/${id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('completed');
    expect(Date.parse(done.body.completedAt)).toBeGreaterThan(Date.now() - 60_000);
    const again = await call(alice, 'PATCH', `/api/tasks/${id}/complete`);
    expect(again.status).toBe(200);
    expect(again.body.completedAt).toBe(done.body.completedAt);
    const activity = await app.database.prisma.activity.findMany({
      where: { resourceId: id, action: 'task_completed' },
    });
    expect(activity).toHaveLength(1);
    expect(activity[0]?.userId).toBe(bob.id);
    // Alice hears that Bob finished it, once.
    const notices = await app.database.prisma.notification.findMany({
      where: { userId: alice.id, title: 'Task completed', message: { contains: '"Finish"' } },
    });
    expect(notices).toHaveLength(1);
  });

  it('deletes for the creator; unknown and malformed ids are 404', async () => {
    const created = await call(alice, 'POST', '/api/tasks', { title: 'Delete me' });
    expect((await call(alice, 'DELETE', `/api/tasks/${created.body.id}`)).status).toBe(200);
    expect((await call(alice, 'GET', `/api/tasks/${created.body.id}`)).status).toBe(404);
    expect((await call(alice, 'DELETE', '/api/tasks/not-a-uuid')).status).toBe(404);
    expect((await call(alice, 'PATCH', '/api/tasks/00000000-0000-4000-8000-000000000000/complete')).status).toBe(404);
  });
});

describe('reopening', () => {
  it('puts a completed task back to pending for its creator or assignee and tells the other one', async () => {
    const created = await call(alice, 'POST', '/api/tasks', { title: 'Reopen me', assigneeId: bob.id });
    const id = created.body.id;
    await call(bob, 'PATCH', `/api/tasks/${id}/complete`);

    // A stranger neither sees nor reopens it; nothing changes.
    expect((await call(carol, 'PATCH', `/api/tasks/${id}/reopen`)).status).toBe(404);
    expect((await call(alice, 'GET', `/api/tasks/${id}`)).body.status).toBe('completed');

    const byCreator = await call(alice, 'PATCH', `/api/tasks/${id}/reopen`);
    expect(byCreator.status).toBe(200);
    expect(byCreator.body).toMatchObject({ status: 'pending', completedAt: null });
    const toBob = await app.database.prisma.notification.findMany({
      where: { userId: bob.id, title: 'Task reopened', message: { contains: '"Reopen me"' } },
    });
    expect(toBob).toEqual([expect.objectContaining({ type: 'task' })]);

    // Reopening a pending task changes nothing and tells nobody.
    expect((await call(alice, 'PATCH', `/api/tasks/${id}/reopen`)).body.status).toBe('pending');
    expect(await app.database.prisma.notification.count({ where: { userId: bob.id, title: 'Task reopened' } })).toBe(1);

    // The assignee may reopen too; then the creator hears of it.
    await call(alice, 'PATCH', `/api/tasks/${id}/complete`);
    const byAssignee = await call(bob, 'PATCH', `/api/tasks/${id}/reopen`);
    expect(byAssignee.status).toBe(200);
    expect(byAssignee.body).toMatchObject({ status: 'pending', completedAt: null, viewerCanEdit: false });
    expect(
      await app.database.prisma.notification.count({
        where: { userId: alice.id, title: 'Task reopened', message: { contains: '"Reopen me"' } },
      }),
    ).toBe(1);
    expect((await call(alice, 'PATCH', '/api/tasks/not-a-uuid/reopen')).status).toBe(404);
  });

  it('makes a reopened task past its due date overdue again', async () => {
    const created = await call(carol, 'POST', '/api/tasks', { title: 'Late again', dueDate: iso(-hour) });
    await call(carol, 'PATCH', `/api/tasks/${created.body.id}/complete`);
    const reopened = await call(carol, 'PATCH', `/api/tasks/${created.body.id}/reopen`);
    expect(reopened.body.isOverdue).toBe(true);
    const overdue = await call(carol, 'GET', '/api/tasks?overdue=true');
    expect(overdue.body.map((t: { title: string }) => t.title)).toContain('Late again');
    await call(carol, 'DELETE', `/api/tasks/${created.body.id}`);
  });
});

describe('permissions shown to the viewer', () => {
  it('says only the creator may edit', async () => {
    const created = await call(alice, 'POST', '/api/tasks', { title: 'Whose', assigneeId: bob.id });
    expect(created.body.viewerCanEdit).toBe(true);
    expect((await call(bob, 'GET', `/api/tasks/${created.body.id}`)).body.viewerCanEdit).toBe(false);
  });

  it('lets the creator edit a task whose assignee has since left their projects, without re-checking', async () => {
    const db = app.database.prisma;
    const gina = await signedInUser(app);
    const project = await crewProject(app, 'Short gig', alice, gina);
    const created = await call(alice, 'POST', '/api/tasks', { title: 'Before she left', assigneeId: gina.id });
    await db.projectMember.delete({ where: { projectId_userId: { projectId: project.id, userId: gina.id } } });
    const edited = await call(alice, 'PATCH', `/api/tasks/${created.body.id}`, {
      title: 'After she left',
      assigneeId: gina.id,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'After she left', assigneeId: gina.id });
    // A new assignment to her is refused now.
    const other = await call(alice, 'POST', '/api/tasks', { title: 'New for her', assigneeId: gina.id });
    expect(other.status).toBe(400);
  });
});

describe('sorting', () => {
  it('orders by due date (most overdue first, no due date last) or newest first', async () => {
    const hank = await signedInUser(app);
    for (const [title, due] of [
      ['Later', iso(48 * hour)],
      ['Undated', null],
      ['Most overdue', iso(-48 * hour)],
      ['Soon', iso(hour)],
      ['Overdue', iso(-hour)],
    ] as const) {
      expect((await call(hank, 'POST', '/api/tasks', { title, dueDate: due })).status).toBe(201);
    }
    const titles = async (query: string) =>
      (await call(hank, 'GET', `/api/tasks${query}`)).body.map((t: { title: string }) => t.title);
    expect(await titles('?sort=dueDate')).toEqual(['Most overdue', 'Overdue', 'Soon', 'Later', 'Undated']);
    expect(await titles('')).toEqual(['Overdue', 'Soon', 'Most overdue', 'Undated', 'Later']);
    expect(await titles('?sort=newest')).toEqual(await titles(''));
    const bad = await call(hank, 'GET', '/api/tasks?sort=title');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("sort must be 'newest' or 'dueDate'.");
  });
});

describe('overdue', () => {
  it('is derived from status and due date, and filters', async () => {
    const late = await call(carol, 'POST', '/api/tasks', { title: 'Late', dueDate: iso(-hour) });
    const soon = await call(carol, 'POST', '/api/tasks', { title: 'Soon', dueDate: iso(hour) });
    const lateDone = await call(carol, 'POST', '/api/tasks', { title: 'Late but done', dueDate: iso(-2 * hour) });
    await call(carol, 'PATCH', `/api/tasks/${lateDone.body.id}/complete`);
    const someday = await call(carol, 'POST', '/api/tasks', { title: 'Someday' });
    expect(late.body.isOverdue).toBe(true);
    expect(soon.body.isOverdue).toBe(false);
    expect(someday.body.isOverdue).toBe(false);

    const overdue = await call(carol, 'GET', '/api/tasks?overdue=true');
    expect(overdue.body.map((t: { title: string }) => t.title)).toEqual(['Late']);
    // Without a due date a pending task is not overdue: it is among the others.
    const notOverdue = await call(carol, 'GET', '/api/tasks?overdue=false');
    expect(notOverdue.body.map((t: { title: string }) => t.title).sort()).toEqual(['Late but done', 'Someday', 'Soon']);
    const notOverdueOverGraphql = await graphql<{ tasks: { edges: { node: { title: string } }[] } }>(
      app,
      carol.cookie,
      'query { tasks(first: 10, overdue: false) { edges { node { title } } } }',
    );
    expect(notOverdueOverGraphql.data?.tasks.edges.map((e) => e.node.title).sort()).toEqual([
      'Late but done',
      'Someday',
      'Soon',
    ]);
    const completed = await call(carol, 'GET', '/api/tasks?status=completed');
    expect(completed.body.map((t: { title: string }) => t.title)).toEqual(['Late but done']);
    expect(completed.body[0].isOverdue).toBe(false);
    const pending = await call(carol, 'GET', '/api/tasks?status=pending');
    expect(pending.body.map((t: { title: string }) => t.title)).toEqual(['Someday', 'Soon', 'Late']);

    // Nothing is stored: moving the due date into the future makes it not overdue at once.
    const moved = await call(carol, 'PATCH', `/api/tasks/${late.body.id}`, { dueDate: iso(5 * hour) });
    expect(moved.body.isOverdue).toBe(false);
    expect((await call(carol, 'GET', '/api/tasks?overdue=true')).body).toEqual([]);
  });

  it('refuses bad filters with a 400', async () => {
    const status = await call(carol, 'GET', '/api/tasks?status=done');
    expect(status.status).toBe(400);
    expect(status.body.message).toBe("status must be 'pending' or 'completed'.");
    const overdue = await call(carol, 'GET', '/api/tasks?overdue=maybe');
    expect(overdue.status).toBe(400);
    expect(overdue.body.message).toBe('overdue must be true or false.');
  });
});

describe('due reminders', () => {
  it('notifies the assignee (or creator) once per due date, and again after the due date changes', async () => {
    const db = app.database.prisma;
    const dave = await signedInUser(app);
    const erin = await signedInUser(app);
    await crewProject(app, 'Reminders', dave, erin);
    const assigned = await call(dave, 'POST', '/api/tasks', {
      title: 'Due soon',
      dueDate: iso(2 * hour),
      assigneeId: erin.id,
    });
    const own = await call(dave, 'POST', '/api/tasks', { title: 'Already late', dueDate: iso(-hour) });
    await call(dave, 'POST', '/api/tasks', { title: 'Far off', dueDate: iso(72 * hour) });
    await call(dave, 'POST', '/api/tasks', { title: 'No date' });
    const done = await call(dave, 'POST', '/api/tasks', { title: 'Done late', dueDate: iso(-hour) });
    await call(dave, 'PATCH', `/api/tasks/${done.body.id}/complete`);

    await sendDueReminders(app.services);
    const reminders = (userId: string) =>
      db.notification.findMany({
        where: { userId, title: { in: ['Task due soon', 'Task overdue'] } },
        orderBy: { title: 'asc' },
      });
    expect((await reminders(erin.id)).map((n) => [n.title, n.message.includes('Due soon')])).toEqual([
      ['Task due soon', true],
    ]);
    expect((await reminders(dave.id)).map((n) => [n.title, n.message.includes('Already late')])).toEqual([
      ['Task overdue', true],
    ]);
    expect((await db.task.findUniqueOrThrow({ where: { id: assigned.body.id } })).dueNotifiedAt).not.toBeNull();

    // A second pass sends nothing new.
    await sendDueReminders(app.services);
    expect(await reminders(erin.id)).toHaveLength(1);
    expect(await reminders(dave.id)).toHaveLength(1);

    // A new due date resets the reminder; the same due date does not.
    await call(dave, 'PATCH', `/api/tasks/${own.body.id}`, { dueDate: own.body.dueDate });
    expect((await db.task.findUniqueOrThrow({ where: { id: own.body.id } })).dueNotifiedAt).not.toBeNull();
    await call(dave, 'PATCH', `/api/tasks/${own.body.id}`, { dueDate: iso(3 * hour) });
    expect((await db.task.findUniqueOrThrow({ where: { id: own.body.id } })).dueNotifiedAt).toBeNull();
    await sendDueReminders(app.services);
    expect((await reminders(dave.id)).map((n) => n.title)).toEqual(['Task due soon', 'Task overdue']);

    // Tasks beyond 24 hours are reminded once time catches up.
    await sendDueReminders(app.services, new Date(Date.now() + 60 * hour));
    expect((await reminders(dave.id)).filter((n) => n.message.includes('Far off'))).toHaveLength(1);
  });

  it('publishes each reminder to the recipient', async () => {
    const frank = await signedInUser(app);
    await call(frank, 'POST', '/api/tasks', { title: 'Publish me', dueDate: iso(hour) });
    const seen: unknown[] = [];
    const iterator = app.services.events.subscribe('notification:added', frank.id)[Symbol.asyncIterator]();
    const next = iterator.next().then((r) => seen.push(r.value));
    await sendDueReminders(app.services);
    await next;
    await iterator.return?.();
    expect(seen).toEqual([{ notificationId: expect.any(String) }]);
  });
});

describe('GraphQL', () => {
  it('creates, lists with filters, completes and deletes with typed errors', async () => {
    const created = await graphql<{
      createTask: { __typename: string; data?: { id: string; title: string; priority: string } };
    }>(
      app,
      carol.cookie,
      `mutation { createTask(title: "GQL task", priority: high, dueDate: "2000-01-01T00:00:00Z") {
        __typename ... on MutationCreateTaskSuccess { data { id title priority isOverdue } } } }`,
    );
    expect(created.data?.createTask.__typename).toBe('MutationCreateTaskSuccess');
    const id = created.data?.createTask.data?.id as string;

    const invalid = await graphql<{ createTask: { __typename: string; message: string } }>(
      app,
      carol.cookie,
      `mutation { createTask(title: "   ") { __typename ... on ValidationError { message field } } }`,
    );
    expect(invalid.data?.createTask).toMatchObject({
      __typename: 'ValidationError',
      message: 'Task title is required.',
    });

    const list = await graphql<{
      tasks: { totalCount: number; edges: { node: { id: string; isOverdue: boolean } }[] };
    }>(
      app,
      carol.cookie,
      '{ tasks(overdue: true, first: 10) { totalCount edges { node { id title isOverdue creator { email } } } } }',
    );
    expect(list.errors).toBeUndefined();
    expect(list.data?.tasks.edges.map((e) => e.node.id)).toContain(id);
    expect(list.data?.tasks.edges.every((e) => e.node.isOverdue)).toBe(true);
    expect(list.data?.tasks.totalCount).toBe(list.data?.tasks.edges.length);

    // Strangers neither see nor change it.
    const peek = await graphql<{ node: unknown }>(app, alice.cookie, `{ node(id: "${id}") { id } }`);
    expect(peek.data?.node).toBeNull();
    const steal = await graphql<{ completeTask: { __typename: string } }>(
      app,
      alice.cookie,
      `mutation { completeTask(id: "${id}") { __typename } }`,
    );
    expect(steal.data?.completeTask.__typename).toBe('BaseError');

    const done = await graphql<{ completeTask: { data: { status: string; completedAt: string; isOverdue: boolean } } }>(
      app,
      carol.cookie,
      `mutation { completeTask(id: "${id}") { ... on MutationCompleteTaskSuccess { data { status completedAt isOverdue } } } }`,
    );
    expect(done.data?.completeTask.data).toMatchObject({ status: 'completed', isOverdue: false });

    const deleted = await graphql<{ deleteTask: { data: string } }>(
      app,
      carol.cookie,
      `mutation { deleteTask(id: "${id}") { ... on MutationDeleteTaskSuccess { data } } }`,
    );
    expect(deleted.data?.deleteTask.data).toBe(id);
  });

  it('reopens, sorts by due date, says who may edit, and lists the people one may assign', async () => {
    const db = app.database.prisma;
    const [owner, crew, outsider] = [await signedInUser(app), await signedInUser(app), await signedInUser(app)];
    await db.user.update({ where: { id: crew.id }, data: { displayName: 'Avery Crew' } });
    await crewProject(app, 'Gql crew', owner, crew);
    const node = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');

    const people = await graphql<{ assignableUsers: { edges: { node: { id: string; displayName: string } }[] } }>(
      app,
      owner.cookie,
      '{ assignableUsers(first: 50) { edges { node { id displayName } } } }',
    );
    expect(people.errors).toBeUndefined();
    expect(people.data?.assignableUsers.edges.map((e) => e.node.id).sort()).toEqual(
      [node('User', owner.id), node('User', crew.id)].sort(),
    );
    const alone = await graphql<{ assignableUsers: { edges: { node: { id: string } }[] } }>(
      app,
      outsider.cookie,
      '{ assignableUsers(first: 50) { edges { node { id } } } }',
    );
    expect(alone.data?.assignableUsers.edges.map((e) => e.node.id)).toEqual([node('User', outsider.id)]);

    const create = (title: string, dueDate: string | null) =>
      graphql<{ createTask: { data: { id: string } } }>(
        app,
        owner.cookie,
        `mutation($title: String!, $due: DateTime, $who: ID) { createTask(title: $title, dueDate: $due, assigneeId: $who) {
          ... on MutationCreateTaskSuccess { data { id } } } }`,
        { title, due: dueDate, who: node('User', crew.id) },
      );
    await create('Gql later', iso(24 * hour));
    await create('Gql none', null);
    const late = (await create('Gql late', iso(-hour))).data?.createTask.data.id as string;
    const list = await graphql<{ tasks: { edges: { node: { title: string; viewerCanEdit: boolean } }[] } }>(
      app,
      crew.cookie,
      '{ tasks(sort: DUE_DATE, first: 10) { edges { node { title viewerCanEdit } } } }',
    );
    expect(list.data?.tasks.edges.map((e) => e.node.title)).toEqual(['Gql late', 'Gql later', 'Gql none']);
    expect(list.data?.tasks.edges.every((e) => e.node.viewerCanEdit === false)).toBe(true);
    const mine = await graphql<{ tasks: { edges: { node: { viewerCanEdit: boolean } }[] } }>(
      app,
      owner.cookie,
      '{ tasks(sort: NEWEST, first: 10) { edges { node { viewerCanEdit } } } }',
    );
    expect(mine.data?.tasks.edges.map((e) => e.node.viewerCanEdit)).toEqual([true, true, true]);

    const reopen = `mutation($id: ID!) { reopenTask(id: $id) { __typename
      ... on MutationReopenTaskSuccess { data { status completedAt isOverdue } } ... on Error { message } } }`;
    const complete = `mutation($id: ID!) { completeTask(id: $id) { __typename } }`;
    await graphql(app, crew.cookie, complete, { id: late });
    const stranger = await graphql<{ reopenTask: { __typename: string } }>(app, outsider.cookie, reopen, { id: late });
    expect(stranger.data?.reopenTask.__typename).toBe('BaseError');
    expect((await db.task.findUniqueOrThrow({ where: { id: decodeId(late) } })).status).toBe('completed');
    const reopened = await graphql<{ reopenTask: { data: unknown } }>(app, crew.cookie, reopen, { id: late });
    expect(reopened.data?.reopenTask.data).toEqual({ status: 'pending', completedAt: null, isOverdue: true });
    expect(await db.notification.count({ where: { userId: owner.id, title: 'Task reopened' } })).toBe(1);

    // The assignee may not edit or delete it.
    const edit = await graphql<{ updateTask: { __typename: string; message: string } }>(
      app,
      crew.cookie,
      `mutation($id: ID!) { updateTask(id: $id, title: "Mine") { __typename ... on Error { message code } } }`,
      { id: late },
    );
    expect(edit.data?.updateTask).toMatchObject({
      __typename: 'BaseError',
      code: 'FORBIDDEN',
      message: 'Only the person who created this task can change it.',
    });
    const remove = await graphql<{ deleteTask: { code: string } }>(
      app,
      crew.cookie,
      `mutation($id: ID!) { deleteTask(id: $id) { ... on Error { code } } }`,
      { id: late },
    );
    expect(remove.data?.deleteTask.code).toBe('FORBIDDEN');
    expect(await db.task.count({ where: { id: decodeId(late) } })).toBe(1);
  });

  it('updates with assignee global ids and refuses strangers as assignees', async () => {
    const bobNode = Buffer.from(`User:${bob.id}`).toString('base64');
    const carolNode = Buffer.from(`User:${carol.id}`).toString('base64');
    const created = await graphql<{ createTask: { data: { id: string } } }>(
      app,
      alice.cookie,
      `mutation { createTask(title: "GQL assign") { ... on MutationCreateTaskSuccess { data { id } } } }`,
    );
    const id = created.data?.createTask.data.id;
    const ok = await graphql<{ updateTask: { data: { assignee: { email: string } } } }>(
      app,
      alice.cookie,
      `mutation($id: ID!, $who: ID) { updateTask(id: $id, assigneeId: $who, dueDate: null) {
        ... on MutationUpdateTaskSuccess { data { assignee { email } dueDate } } } }`,
      { id, who: bobNode },
    );
    expect(ok.data?.updateTask.data.assignee.email).toBe(bob.email);
    const refused = await graphql<{ updateTask: { __typename: string; message: string } }>(
      app,
      alice.cookie,
      `mutation($id: ID!, $who: ID) { updateTask(id: $id, assigneeId: $who) { __typename ... on Error { message } } }`,
      { id, who: carolNode },
    );
    expect(refused.data?.updateTask).toMatchObject({
      __typename: 'ValidationError',
      message: 'You can assign a task to yourself or to a member of one of your projects.',
    });
  });
});
