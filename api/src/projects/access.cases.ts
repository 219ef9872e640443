import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { call, makeProject } from '../galleries/testing.ts';

const db = (t: AccessHarness) => t.app.database.prisma;

export const accessCases: AccessCase[] = [
  {
    route: 'GET /api/projects',
    name: "the list holds none of the owner's projects",
    async arrange(t) {
      await makeProject(t.app, t.owner.cookie, { name: 'Owner project' });
      return { method: 'GET', path: '/api/projects' };
    },
    expect: 'own-data-only',
  },
  {
    route: 'POST /api/projects',
    name: 'creates a project of their own only',
    async arrange() {
      return { method: 'POST', path: '/api/projects', body: { name: 'Stranger project', type: 'movie' } };
    },
    expect: 'own-data-only',
  },
  {
    route: 'GET /api/projects/:id',
    name: "cannot open the owner's project",
    async arrange(t) {
      const p = await makeProject(t.app, t.owner.cookie);
      return { method: 'GET', path: `/api/projects/${p.id}` };
    },
    expect: 'not-found',
  },
  {
    route: 'GET /api/projects/:id/members',
    name: "cannot list the owner's project members",
    async arrange(t) {
      const p = await makeProject(t.app, t.owner.cookie);
      return { method: 'GET', path: `/api/projects/${p.id}/members` };
    },
    expect: 'not-found',
  },
  ...(() => {
    let id = '';
    return [
      {
        route: 'POST /api/projects/:id/members',
        name: "cannot join the owner's project by adding themselves",
        async arrange(t: AccessHarness) {
          id = (await makeProject(t.app, t.owner.cookie)).id;
          return { method: 'POST' as const, path: `/api/projects/${id}/members`, body: { email: t.stranger.email } };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect(await db(t).projectMember.count({ where: { projectId: id } })).toBe(1);
        },
      },
    ];
  })(),
  ...(() => {
    let id = '';
    return [
      {
        route: 'DELETE /api/projects/:id/members/:userId',
        name: "cannot remove members of the owner's project",
        async arrange(t: AccessHarness) {
          const other = await t.app.database.prisma.user.create({ data: { email: `extra-${Date.now()}@example.com` } });
          id = (await makeProject(t.app, t.owner.cookie)).id;
          const added = await call(t.app, t.owner.cookie, 'POST', `/api/projects/${id}/members`, {
            email: other.email,
          });
          expect(added.status).toBe(201);
          return { method: 'DELETE' as const, path: `/api/projects/${id}/members/${other.id}` };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect(await db(t).projectMember.count({ where: { projectId: id } })).toBe(2);
        },
      },
    ];
  })(),
];
