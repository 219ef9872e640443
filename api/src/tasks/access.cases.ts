import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';

async function ownerTask(t: AccessHarness, title = 'Owner task') {
  const response = await t.app.request('/api/tasks', {
    method: 'POST',
    cookie: t.owner.cookie,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title, priority: 'high', dueDate: '2000-01-01T00:00:00.000Z' }),
  });
  if (response.status !== 201) throw new Error(`arrange failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

async function ownerCompletedTask(t: AccessHarness) {
  const task = await ownerTask(t, 'Owner done');
  const done = await t.app.request(`/api/tasks/${task.id}/complete`, { method: 'PATCH', cookie: t.owner.cookie });
  if (done.status !== 200) throw new Error(`arrange failed: ${done.status}`);
  return task;
}

async function taskUnchanged(t: AccessHarness, { id }: { id: string }) {
  const task = await t.app.database.prisma.task.findUnique({ where: { id } });
  expect(task).toMatchObject({
    title: 'Owner task',
    status: 'pending',
    completedAt: null,
    assigneeId: null,
    priority: 'high',
  });
}

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/tasks',
    name: "lists only the stranger's own tasks",
    given: ownerTask,
    expect: 'own-data-only',
  }),
  accessCase({
    route: 'POST /api/tasks',
    name: 'cannot assign a task to someone who shares no project',
    asks: (_, t) => ({ body: { title: 'Sneaky', assigneeId: t.owner.id } }),
    expect: 'refused',
    async unchanged(t) {
      expect(await t.app.database.prisma.task.count({ where: { assigneeId: t.owner.id } })).toBe(0);
    },
  }),
  accessCase({
    route: 'GET /api/tasks/:id',
    name: "cannot read the owner's task",
    given: ownerTask,
    asks: (task) => `/api/tasks/${task.id}`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'PATCH /api/tasks/:id',
    name: "cannot edit or reassign the owner's task",
    given: ownerTask,
    asks: (task, t) => ({ path: `/api/tasks/${task.id}`, body: { title: 'Mine', assigneeId: t.stranger.id } }),
    expect: 'not-found',
    unchanged: taskUnchanged,
  }),
  accessCase({
    route: 'PATCH /api/tasks/:id/complete',
    name: "cannot complete the owner's task",
    given: ownerTask,
    asks: (task) => `/api/tasks/${task.id}/complete`,
    expect: 'not-found',
    unchanged: taskUnchanged,
  }),
  accessCase({
    route: 'PATCH /api/tasks/:id/reopen',
    name: "cannot reopen the owner's completed task",
    given: ownerCompletedTask,
    asks: (task) => `/api/tasks/${task.id}/reopen`,
    expect: 'not-found',
    async unchanged(t, { id }) {
      const task = await t.app.database.prisma.task.findUnique({ where: { id } });
      expect(task).toMatchObject({ title: 'Owner done', status: 'completed', completedAt: expect.any(Date) });
    },
  }),
  accessCase({
    route: 'DELETE /api/tasks/:id',
    name: "cannot delete the owner's task",
    given: ownerTask,
    asks: (task) => `/api/tasks/${task.id}`,
    expect: 'not-found',
    unchanged: taskUnchanged,
  }),
];
