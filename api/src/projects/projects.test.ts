import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
import { call, joinProject, makeProject } from '../galleries/testing.ts';

let app: TestApp, owner: User, member: User, outsider: User;
beforeAll(async () => {
  [app, owner, member, outsider] = await appWithPeople({ name: 'Pat Producer' }, anyone, anyone);
});
afterAll(() => app.close());

describe('creating projects', () => {
  it('creates a campaign by default and makes the creator its owner member', async () => {
    const { status, body } = await call(app, owner.cookie, 'POST', '/api/projects', {
      name: '  Spring spot ',
      description: '',
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      name: 'Spring spot',
      description: null,
      type: 'campaign',
      ownerId: owner.id,
      memberCount: 1,
    });
    const members = await app.database.prisma.projectMember.findMany({ where: { projectId: body.id } });
    expect(members).toEqual([expect.objectContaining({ userId: owner.id, role: 'owner' })]);
  });

  it.each(['campaign', 'movie', 'tv_show', 'commercial'])('accepts the type %s', async (type) => {
    expect((await makeProject(app, owner.cookie, { type })).type).toBe(type);
  });

  it.each([
    [{}, 'Project name is required.'],
    [{ name: '   ' }, 'Project name is required.'],
    [{ name: null }, 'Project name is required.'],
    [{ name: 'x', type: 'documentary' }, 'Project type must be one of campaign, movie, tv_show, commercial.'],
  ])('refuses %j', async (input, message) => {
    const { status, body } = await call(app, owner.cookie, 'POST', '/api/projects', input);
    expect(status).toBe(400);
    expect(body.message).toBe(message);
  });

  it("lists only the viewer's projects, newest first", async () => {
    const mine = await signedInUser(app);
    const first = await makeProject(app, mine.cookie, { name: 'First' });
    const second = await makeProject(app, mine.cookie, { name: 'Second' });
    const list = await call(app, mine.cookie, 'GET', '/api/projects');
    expect(list.body.map((p: { id: string }) => p.id)).toEqual([second.id, first.id]);
  });
});

describe('members', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await makeProject(app, owner.cookie, { name: 'Night Shoot' })).id;
  });

  it('someone the owner invited who accepted sees the project and its members', async () => {
    await joinProject(app, owner, member, projectId);
    const list = await call(app, member.cookie, 'GET', '/api/projects');
    expect(list.body.map((p: { id: string }) => p.id)).toContain(projectId);
    const project = await call(app, member.cookie, 'GET', `/api/projects/${projectId}`);
    expect(project.body).toMatchObject({ name: 'Night Shoot', role: 'member' });
    expect(project.body.members.map((m: { userId: string }) => m.userId)).toEqual([owner.id, member.id]);
  });

  it('only owners invite or remove others; a member may leave; the creator stays', async () => {
    const byMember = await call(app, member.cookie, 'POST', `/api/projects/${projectId}/invitations`, {
      email: outsider.email,
    });
    expect(byMember).toMatchObject({
      status: 403,
      body: { message: "Only the project's owners can invite people." },
    });
    const removeOwner = await call(app, member.cookie, 'DELETE', `/api/projects/${projectId}/members/${owner.id}`);
    expect(removeOwner.status).toBe(403);
    const ownerLeaves = await call(app, owner.cookie, 'DELETE', `/api/projects/${projectId}/members/${owner.id}`);
    expect(ownerLeaves).toMatchObject({
      status: 400,
      body: { message: 'The person who created the project cannot be removed from it.' },
    });

    await joinProject(app, owner, outsider, projectId);
    expect((await call(app, owner.cookie, 'DELETE', `/api/projects/${projectId}/members/${outsider.id}`)).status).toBe(
      200,
    );
    expect((await call(app, outsider.cookie, 'GET', `/api/projects/${projectId}`)).status).toBe(404);
    expect((await call(app, owner.cookie, 'DELETE', `/api/projects/${projectId}/members/${outsider.id}`)).status).toBe(
      404,
    );

    expect((await call(app, member.cookie, 'DELETE', `/api/projects/${projectId}/members/${member.id}`)).status).toBe(
      200,
    );
    expect((await call(app, member.cookie, 'GET', `/api/projects/${projectId}/members`)).status).toBe(404);
  });
});

describe('projects over GraphQL', () => {
  it('lists projects with members; a stranger reaches neither by node id', async () => {
    const boss = await signedInUser(app, { name: 'Gina Graph' });
    const crew = await signedInUser(app);
    const project = await makeProject(app, boss.cookie, { name: 'Graph Shoot', type: 'tv_show' });
    await joinProject(app, boss, crew, project.id);
    const LIST = `{ projects(first: 10) { totalCount edges { node { id name type viewerRole memberCount
      members(first: 10) { totalCount edges { node { id name email role user { id } } } } } } } }`;
    type List = {
      projects: {
        totalCount: number;
        edges: {
          node: {
            id: string;
            name: string;
            type: string;
            viewerRole: string;
            memberCount: number;
            members: {
              totalCount: number;
              edges: { node: { id: string; name: string; email: string; role: string } }[];
            };
          };
        }[];
      };
    };
    const mine = await graphql<List>(app, crew.cookie, LIST);
    expect(mine.errors).toBeUndefined();
    const node = mine.data?.projects.edges[0]?.node;
    expect(node).toMatchObject({ name: 'Graph Shoot', type: 'tv_show', viewerRole: 'member', memberCount: 2 });
    expect(node?.members.edges.map((e) => [e.node.name, e.node.role])).toEqual([
      ['Gina Graph', 'owner'],
      [expect.any(String), 'member'],
    ]);
    const memberId = node?.members.edges[1]?.node.id;
    const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;
    expect((await graphql(app, crew.cookie, NODE, { id: memberId })).data).toEqual({
      node: { __typename: 'ProjectMember', id: memberId },
    });
    expect((await graphql(app, outsider.cookie, NODE, { id: memberId })).data).toEqual({ node: null });
    expect((await graphql(app, outsider.cookie, NODE, { id: node?.id })).data).toEqual({ node: null });
    const theirs = await graphql<List>(app, outsider.cookie, LIST);
    expect(theirs.data?.projects.edges.map((e) => e.node.name)).not.toContain('Graph Shoot');
  });
});
