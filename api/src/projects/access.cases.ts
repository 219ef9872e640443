import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { call, makeProject } from '../galleries/testing.ts';

const db = (t: AccessHarness) => t.app.database.prisma;

/** A pending invitation of the owner's, to an address nobody in the suite signs in with. */
async function invitedByOwner(t: AccessHarness) {
  const project = await makeProject(t.app, t.owner.cookie);
  const invited = await call(t.app, t.owner.cookie, 'POST', `/api/projects/${project.id}/invitations`, {
    email: `crew-${crypto.randomUUID()}@example.com`,
  });
  expect(invited.status).toBe(201);
  return invited.body as { id: string; projectId: string };
}

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
          expect(await db(t).invitation.count({ where: { projectId: id } })).toBe(0);
        },
      },
    ];
  })(),
  ...(() => {
    let id = '';
    return [
      {
        route: 'POST /api/projects/:id/invitations',
        name: "cannot invite themselves (or anyone) to the owner's project",
        async arrange(t: AccessHarness) {
          id = (await makeProject(t.app, t.owner.cookie)).id;
          return {
            method: 'POST' as const,
            path: `/api/projects/${id}/invitations`,
            body: { email: t.stranger.email, role: 'owner' },
          };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect(await db(t).invitation.count({ where: { projectId: id } })).toBe(0);
        },
      },
    ];
  })(),
  {
    route: 'GET /api/projects/:id/invitations',
    name: "cannot list the invitations of the owner's project",
    async arrange(t) {
      const { projectId } = await invitedByOwner(t);
      return { method: 'GET', path: `/api/projects/${projectId}/invitations` };
    },
    expect: 'not-found',
  },
  ...(() => {
    let invitationId = '';
    return [
      {
        route: 'DELETE /api/projects/:id/invitations/:invitationId',
        name: "cannot cancel an invitation of the owner's project",
        async arrange(t: AccessHarness) {
          const invited = await invitedByOwner(t);
          invitationId = invited.id;
          return { method: 'DELETE' as const, path: `/api/projects/${invited.projectId}/invitations/${invited.id}` };
        },
        expect: 'not-found' as const,
        async unchanged(t: AccessHarness) {
          expect((await db(t).invitation.findUniqueOrThrow({ where: { id: invitationId } })).status).toBe('pending');
        },
      },
    ];
  })(),
  {
    route: 'GET /api/invitations',
    name: 'lists none of the invitations sent to other addresses',
    async arrange(t) {
      await invitedByOwner(t);
      return { method: 'GET', path: '/api/invitations' };
    },
    expect: 'empty-list',
  },
  ...(['accept', 'decline'] as const).map((answer) => {
    let invitationId = '';
    let projectId = '';
    return {
      route: `POST /api/invitations/:id/${answer}`,
      name: `cannot ${answer} an invitation sent to someone else`,
      async arrange(t: AccessHarness) {
        ({ id: invitationId, projectId } = await invitedByOwner(t));
        return { method: 'POST' as const, path: `/api/invitations/${invitationId}/${answer}` };
      },
      expect: 'not-found' as const,
      async unchanged(t: AccessHarness) {
        expect((await db(t).invitation.findUniqueOrThrow({ where: { id: invitationId } })).status).toBe('pending');
        expect(await db(t).projectMember.count({ where: { projectId } })).toBe(1);
      },
    };
  }),
  ...(() => {
    let id = '';
    return [
      {
        route: 'DELETE /api/projects/:id/members/:userId',
        name: "cannot remove members of the owner's project",
        async arrange(t: AccessHarness) {
          const other = await db(t).user.create({ data: { email: `extra-${Date.now()}@example.com` } });
          id = (await makeProject(t.app, t.owner.cookie)).id;
          await db(t).projectMember.create({ data: { projectId: id, userId: other.id } });
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
