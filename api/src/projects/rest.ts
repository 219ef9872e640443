import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, viewerContext } from '../http/helpers.ts';
import {
  addProjectMember,
  createProject,
  listMembers,
  listProjects,
  nameOf,
  projectForViewer,
  removeProjectMember,
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

/** Projects and their members (SPEC.md section 7 plus the member paths the share dialog needs). */
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

  // Body: { email } of someone who already has an account.
  routes.post('/api/projects/:id/members', async (c) => {
    const member = await addProjectMember(viewerContext(c, services), c.req.param('id'), await readJson(c));
    return c.json(memberJson(member), 201);
  });

  routes.delete('/api/projects/:id/members/:userId', async (c) => {
    await removeProjectMember(viewerContext(c, services), c.req.param('id'), c.req.param('userId'));
    return c.json({ success: true });
  });

  return routes;
}
