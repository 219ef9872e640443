import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, viewerContext } from '../http/helpers.ts';
import {
  cancelInvitation,
  createProject,
  type InvitationRow,
  inviteToProject,
  listMembers,
  listMyInvitations,
  listProjectInvitations,
  listProjects,
  nameOf,
  projectForViewer,
  removeProjectMember,
  respondToInvitation,
} from './rules.ts';

type ProjectRow = {
  id: string;
  name: string;
  description: string | null;
  type: string;
  ownerId: string;
  createdAt: Date;
  updatedAt: Date;
};

function projectJson(p: ProjectRow, extra: Record<string, unknown> = {}) {
  const { id, name, description, type, ownerId, createdAt, updatedAt } = p;
  return { id, name, description, type, ownerId, createdAt, updatedAt, ...extra };
}

type MemberRow = Awaited<ReturnType<typeof listMembers>>[number];

function memberJson(m: MemberRow) {
  return {
    projectId: m.projectId,
    userId: m.userId,
    role: m.role,
    createdAt: m.createdAt,
    user: { id: m.user.id, email: m.user.email, name: nameOf(m.user), profileImageUrl: m.user.profileImageUrl },
  };
}

/** The same shape for every answer about an invitation, whoever the address belongs to. */
function invitationJson(i: InvitationRow) {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    status: i.status,
    projectId: i.projectId,
    project: i.project,
    invitedBy: { id: i.invitedById, name: nameOf(i.invitedBy) },
    createdAt: i.createdAt,
    respondedAt: i.respondedAt,
  };
}

/** Projects and their members (the member paths the share dialog needs). */
export function projectRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  routes.get('/api/projects', async (c) => {
    const ctx = viewerContext(c, services);
    const projects = await listProjects(ctx);
    return c.json(projects.map((p) => projectJson(p, { memberCount: p._count.members })));
  });

  routes.post('/api/projects', async (c) => {
    const project = await createProject(viewerContext(c, services), await readJson(c));
    return c.json(projectJson(project, { memberCount: 1 }), 201);
  });

  routes.get('/api/projects/:id', async (c) => {
    const ctx = viewerContext(c, services);
    const project = await projectForViewer(ctx, c.req.param('id'));
    const members = await listMembers(ctx, project.id);
    return c.json(projectJson(project, { role: project.viewerRole, members: members.map(memberJson) }));
  });

  routes.get('/api/projects/:id/members', async (c) => {
    const members = await listMembers(viewerContext(c, services), c.req.param('id'));
    return c.json(members.map(memberJson));
  });

  // Body: { email, role? ('member' by default, or 'owner') }. The members path is kept for older
  // clients: it invites too (the same answer), and never makes anyone a member without accepting.
  for (const path of ['/api/projects/:id/invitations', '/api/projects/:id/members'] as const) {
    routes.post(path, async (c) => {
      const invitation = await inviteToProject(viewerContext(c, services), c.req.param('id'), await readJson(c));
      return c.json(invitationJson(invitation), 201);
    });
  }

  routes.get('/api/projects/:id/invitations', async (c) => {
    const invitations = await listProjectInvitations(viewerContext(c, services), c.req.param('id'));
    return c.json(invitations.map(invitationJson));
  });

  routes.delete('/api/projects/:id/invitations/:invitationId', async (c) => {
    const ctx = viewerContext(c, services);
    const invitation = await cancelInvitation(ctx, c.req.param('invitationId'), c.req.param('id'));
    return c.json(invitationJson(invitation));
  });

  routes.get('/api/invitations', async (c) => {
    const invitations = await listMyInvitations(viewerContext(c, services));
    return c.json(invitations.map(invitationJson));
  });

  routes.post('/api/invitations/:id/accept', async (c) => {
    const invitation = await respondToInvitation(viewerContext(c, services), c.req.param('id'), 'accepted');
    return c.json(invitationJson(invitation));
  });

  routes.post('/api/invitations/:id/decline', async (c) => {
    const invitation = await respondToInvitation(viewerContext(c, services), c.req.param('id'), 'declined');
    return c.json(invitationJson(invitation));
  });

  routes.delete('/api/projects/:id/members/:userId', async (c) => {
    await removeProjectMember(viewerContext(c, services), c.req.param('id'), c.req.param('userId'));
    return c.json({ success: true });
  });

  return routes;
}
