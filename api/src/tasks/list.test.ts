import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crewProject } from '../../test/fixtures.ts';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople } from '../../test/harness.ts';
import { countStatements } from '../../test/statements.ts';
import type { ViewerContext } from '../context.ts';
import { getTask, listTasks, type TaskFilter, type TaskSort, taskListWhere, taskOrder } from './rules.ts';

// The task list is one hand-written statement (listTasks); Prisma's reads, through the rules it
// states (taskListWhere, taskOrder, and getTask's presentation), are the oracle.

let app: TestApp;
let alice: User, bob: User, carol: User, dave: User;
beforeAll(async () => {
  [app, alice, bob, carol, dave] = await appWithPeople(anyone, anyone, anyone, anyone);
  const db = app.database.prisma;
  await crewProject(app, 'Night Shoot', alice, bob);
  const sideProject = await crewProject(app, 'Side job', bob, dave);
  // Names as people leave them: a display name, first and last only, nothing but the e-mail.
  await db.user.update({ where: { id: bob.id }, data: { displayName: null, firstName: 'Bob', lastName: 'Moss' } });
  await db.user.update({ where: { id: carol.id }, data: { displayName: null, firstName: null, lastName: null } });
  const gallery = async (owner: User, name: string) => db.gallery.create({ data: { ownerId: owner.id, name } });
  const alicePrivate = await gallery(alice, 'Alice private');
  const bobShared = await gallery(bob, 'Bob shared');
  const carolPrivate = await gallery(carol, 'Carol private');
  const night = await db.project.findFirstOrThrow({ where: { name: 'Night Shoot' } });
  await db.galleryShare.create({
    data: { galleryId: bobShared.id, projectId: night.id, permission: 'read', sharedById: bob.id },
  });
  // A paused share does not open the gallery.
  await db.galleryShare.create({
    data: {
      galleryId: carolPrivate.id,
      projectId: sideProject.id,
      permission: 'read',
      sharedById: carol.id,
      status: 'paused',
    },
  });
  const day = 86_400_000;
  const at = (days: number) => new Date(Date.now() + days * day);
  const tied = at(-1);
  const tasks = [
    { creatorId: alice.id, assigneeId: bob.id, galleryId: alicePrivate.id, dueDate: at(2), createdAt: at(-9) },
    { creatorId: bob.id, assigneeId: alice.id, galleryId: bobShared.id, dueDate: at(-2), createdAt: at(-8) },
    { creatorId: alice.id, createdAt: at(-7) },
    {
      creatorId: alice.id,
      assigneeId: alice.id,
      status: 'completed' as const,
      completedAt: at(-3),
      dueDate: at(-5),
      createdAt: at(-6),
    },
    { creatorId: carol.id, assigneeId: alice.id, galleryId: carolPrivate.id, dueDate: at(-1), createdAt: at(-5) },
    { creatorId: bob.id, assigneeId: dave.id, galleryId: bobShared.id, dueDate: at(3), createdAt: at(-4) },
    { creatorId: alice.id, assigneeId: dave.id, priority: 'high' as const, createdAt: tied },
    { creatorId: dave.id, assigneeId: bob.id, status: 'completed' as const, priority: 'low' as const, createdAt: tied },
    { creatorId: bob.id, assigneeId: bob.id, dueDate: at(-3), createdAt: tied, description: 'Check the light' },
  ];
  for (const [i, task] of tasks.entries()) await db.task.create({ data: { title: `Task ${i}`, ...task } });
});
afterAll(() => app.close());

const contextOf = (user: User): ViewerContext => ({
  ...app.services,
  viewer: { id: user.id, email: user.email, sessionId: 'test' },
});

async function prismaList(ctx: ViewerContext, filter: TaskFilter, sort: TaskSort) {
  const rows = await ctx.db.task.findMany({
    where: taskListWhere(ctx.viewer, filter),
    orderBy: taskOrder(sort),
    select: { id: true },
  });
  return Promise.all(rows.map((row) => getTask(ctx, row.id)));
}

const filters: TaskFilter[] = [
  {},
  { status: 'pending' },
  { status: 'completed' },
  { overdue: true },
  { overdue: false },
  { status: 'pending', overdue: false },
];

describe('the task list', () => {
  it('answers as Prisma does for every viewer, filter and sort', async () => {
    for (const viewer of [alice, bob, carol, dave])
      for (const filter of filters)
        for (const sort of ['newest', 'dueDate'] as const) {
          const ctx = contextOf(viewer);
          const expected = await prismaList(contextOf(viewer), filter, sort);
          expect(await listTasks(ctx, filter, sort), `${viewer.email} ${JSON.stringify(filter)} ${sort}`).toEqual(
            expected,
          );
        }
  });

  it('shows the e-mail and the gallery only where the viewer may know them', async () => {
    const list = await listTasks(contextOf(alice));
    const fromCarol = list.find((task) => task.creatorId === carol.id);
    expect(fromCarol).toMatchObject({
      creator: { email: null, displayName: 'Someone' },
      gallery: null,
      galleryId: null,
    });
    const fromBob = list.find((task) => task.creatorId === bob.id);
    expect(fromBob).toMatchObject({
      creator: { email: bob.email, displayName: 'Bob Moss' },
      gallery: { name: 'Bob shared' },
    });
    expect(list.find((task) => task.assigneeId === dave.id)?.assignee).toMatchObject({ email: null });
    expect((await listTasks(contextOf(bob))).find((task) => task.title === 'Task 0')).toMatchObject({ gallery: null });
  });

  it('reads the list in one statement', async () => {
    expect(await countStatements(() => listTasks(contextOf(alice), { status: 'pending' }, 'dueDate'))).toBe(1);
  });
});
