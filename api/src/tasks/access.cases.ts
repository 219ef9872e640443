import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';

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

function taskUnchanged(id: string, title = 'Owner task') {
  return async (t: AccessHarness) => {
    const task = await t.app.database.prisma.task.findUnique({ where: { id } });
    expect(task).toMatchObject({ title, status: 'pending', completedAt: null, assigneeId: null, priority: 'high' });
  };
}

let lastId = '';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /api/tasks',
    name: "lists only the stranger's own tasks",
    async arrange(t) {
      await ownerTask(t);
      return { method: 'GET', path: '/api/tasks' };
    },
    expect: 'own-data-only',
  },
  {
    route: 'POST /api/tasks',
    name: 'cannot assign a task to someone who shares no project',
    async arrange(t) {
      return { method: 'POST', path: '/api/tasks', body: { title: 'Sneaky', assigneeId: t.owner.id } };
    },
    expect: 'refused',
    async unchanged(t) {
      expect(await t.app.database.prisma.task.count({ where: { assigneeId: t.owner.id } })).toBe(0);
    },
  },
  {
    route: 'GET /api/tasks/:id',
    name: "cannot read the owner's task",
    async arrange(t) {
      lastId = (await ownerTask(t)).id;
      return { method: 'GET', path: `/api/tasks/${lastId}` };
    },
    expect: 'not-found',
  },
  {
    route: 'PATCH /api/tasks/:id',
    name: "cannot edit or reassign the owner's task",
    async arrange(t) {
      lastId = (await ownerTask(t)).id;
      return { method: 'PATCH', path: `/api/tasks/${lastId}`, body: { title: 'Mine', assigneeId: t.stranger.id } };
    },
    expect: 'not-found',
    unchanged: (t) => taskUnchanged(lastId)(t),
  },
  {
    route: 'PATCH /api/tasks/:id/complete',
    name: "cannot complete the owner's task",
    async arrange(t) {
      lastId = (await ownerTask(t)).id;
      return { method: 'PATCH', path: `/api/tasks/${lastId}/complete` };
    },
    expect: 'not-found',
    unchanged: (t) => taskUnchanged(lastId)(t),
  },
  {
    route: 'PATCH /api/tasks/:id/reopen',
    name: "cannot reopen the owner's completed task",
    async arrange(t) {
      lastId = (await ownerTask(t, 'Owner done')).id;
      const done = await t.app.request(`/api/tasks/${lastId}/complete`, { method: 'PATCH', cookie: t.owner.cookie });
      if (done.status !== 200) throw new Error(`arrange failed: ${done.status}`);
      return { method: 'PATCH', path: `/api/tasks/${lastId}/reopen` };
    },
    expect: 'not-found',
    async unchanged(t) {
      const task = await t.app.database.prisma.task.findUnique({ where: { id: lastId } });
      expect(task).toMatchObject({ title: 'Owner done', status: 'completed', completedAt: expect.any(Date) });
    },
  },
  {
    route: 'DELETE /api/tasks/:id',
    name: "cannot delete the owner's task",
    async arrange(t) {
      lastId = (await ownerTask(t)).id;
      return { method: 'DELETE', path: `/api/tasks/${lastId}` };
    },
    expect: 'not-found',
    unchanged: (t) => taskUnchanged(lastId)(t),
  },
];
