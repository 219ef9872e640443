import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';
import { call, makeProject } from '../galleries/testing.ts';

const db = (t: AccessHarness) => t.app.database.prisma;

function ownerProject(t: AccessHarness) {
  return makeProject(t.app, t.owner.cookie);
}

/** A pending invitation of the owner's, to an address nobody in the suite signs in with. */
async function invitedByOwner(t: AccessHarness) {
  const project = await makeProject(t.app, t.owner.cookie);
  const invited = await call(t.app, t.owner.cookie, 'POST', `/api/projects/${project.id}/invitations`, {
    email: `crew-${crypto.randomUUID()}@example.com`,
  });
  expect(invited.status).toBe(201);
  return invited.body as { id: string; projectId: string };
}

async function stillPending(t: AccessHarness, invitation: { id: string }) {
  expect((await db(t).invitation.findUniqueOrThrow({ where: { id: invitation.id } })).status).toBe('pending');
}

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/projects',
    name: "the list holds none of the owner's projects",
    given: (t) => makeProject(t.app, t.owner.cookie, { name: 'Owner project' }),
    expect: 'own-data-only',
  }),
  accessCase({
    route: 'POST /api/projects',
    name: 'creates a project of their own only',
    asks: () => ({ body: { name: 'Stranger project', type: 'movie' } }),
    expect: 'own-data-only',
  }),
  accessCase({
    route: 'GET /api/projects/:id',
    name: "cannot open the owner's project",
    given: ownerProject,
    asks: (project) => `/api/projects/${project.id}`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'GET /api/projects/:id/members',
    name: "cannot list the owner's project members",
    given: ownerProject,
    asks: (project) => `/api/projects/${project.id}/members`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'POST /api/projects/:id/members',
    name: "cannot join the owner's project by adding themselves",
    given: ownerProject,
    asks: (project, t) => ({ path: `/api/projects/${project.id}/members`, body: { email: t.stranger.email } }),
    expect: 'not-found',
    async unchanged(t, { id }) {
      expect(await db(t).projectMember.count({ where: { projectId: id } })).toBe(1);
      expect(await db(t).invitation.count({ where: { projectId: id } })).toBe(0);
    },
  }),
  accessCase({
    route: 'POST /api/projects/:id/invitations',
    name: "cannot invite themselves (or anyone) to the owner's project",
    given: ownerProject,
    asks: (project, t) => ({
      path: `/api/projects/${project.id}/invitations`,
      body: { email: t.stranger.email, role: 'owner' },
    }),
    expect: 'not-found',
    async unchanged(t, { id }) {
      expect(await db(t).invitation.count({ where: { projectId: id } })).toBe(0);
    },
  }),
  accessCase({
    route: 'GET /api/projects/:id/invitations',
    name: "cannot list the invitations of the owner's project",
    given: invitedByOwner,
    asks: (invitation) => `/api/projects/${invitation.projectId}/invitations`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'DELETE /api/projects/:id/invitations/:invitationId',
    name: "cannot cancel an invitation of the owner's project",
    given: invitedByOwner,
    asks: (invitation) => `/api/projects/${invitation.projectId}/invitations/${invitation.id}`,
    expect: 'not-found',
    unchanged: stillPending,
  }),
  accessCase({
    route: 'GET /api/invitations',
    name: 'lists none of the invitations sent to other addresses',
    given: invitedByOwner,
    expect: 'empty-list',
  }),
  ...(['accept', 'decline'] as const).map((answer) =>
    accessCase({
      route: `POST /api/invitations/:id/${answer}`,
      name: `cannot ${answer} an invitation sent to someone else`,
      given: invitedByOwner,
      asks: (invitation) => `/api/invitations/${invitation.id}/${answer}`,
      expect: 'not-found',
      async unchanged(t, invitation) {
        await stillPending(t, invitation);
        expect(await db(t).projectMember.count({ where: { projectId: invitation.projectId } })).toBe(1);
      },
    }),
  ),
  accessCase({
    route: 'DELETE /api/projects/:id/members/:userId',
    name: "cannot remove members of the owner's project",
    async given(t) {
      const other = await db(t).user.create({ data: { email: `extra-${Date.now()}@example.com` } });
      const project = await ownerProject(t);
      await db(t).projectMember.create({ data: { projectId: project.id, userId: other.id } });
      return { project, other };
    },
    asks: ({ project, other }) => `/api/projects/${project.id}/members/${other.id}`,
    expect: 'not-found',
    async unchanged(t, { project }) {
      expect(await db(t).projectMember.count({ where: { projectId: project.id } })).toBe(2);
    },
  }),
];
