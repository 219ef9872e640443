import { ProjectRole, ProjectType } from '../generated/prisma/enums.ts';
import { projectMemberWhere } from '../galleries/access.ts';
import { builder } from '../graphql/builder.ts';
import { ValidationError } from '../shared/errors.ts';
import { addProjectMember, createProject, nameOf, removeProjectMember } from './rules.ts';

export const ProjectTypeEnum = builder.enumType(ProjectType, {
  name: 'ProjectType',
  description: 'What kind of production a project is; campaign unless said otherwise.',
});

export const ProjectRoleEnum = builder.enumType(ProjectRole, {
  name: 'ProjectRole',
  description: 'owner: created the project and manages its members; member: was added by the owner.',
});

/** A Relay global id of the given type, or a raw uuid (what the REST API and other domains use). */
export function rawId(value: string | number, typename: string, field: string): string {
  const text = String(value);
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) return text;
  const decoded = Buffer.from(text, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon > 0 && decoded.slice(0, colon) === typename) return decoded.slice(colon + 1);
  throw new ValidationError(`${field} is not a ${typename} id.`, field);
}

builder.prismaNode('Project', {
  description: 'A production (campaign, movie, TV show, commercial) whose members galleries are shared with.',
  id: { field: 'id' },
  // node(id:) reaches only projects the viewer belongs to.
  findUnique: (id, ctx) => ({ id, AND: [projectMemberWhere(ctx.viewer.id)] }),
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    type: t.expose('type', { type: ProjectTypeEnum }),
    owner: t.relation('owner', { description: 'Who created the project and manages its members.' }),
    viewerRole: t.field({
      type: ProjectRoleEnum,
      description: "The signed-in user's role in the project.",
      select: (_args, ctx) => ({ members: { where: { userId: ctx.viewer.id }, select: { role: true } } }),
      resolve: (project) => project.members[0]?.role ?? 'member',
    }),
    memberCount: t.relationCount('members', { description: 'How many people belong to it, the owner included.' }),
    members: t.relatedConnection('members', {
      cursor: 'projectId_userId',
      description: 'Everyone in the project, in the order they joined.',
      query: { orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] },
      totalCount: true,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaNode('ProjectMember', {
  description: 'A person in a project.',
  id: {
    resolve: (m) => `${m.projectId}:${m.userId}`,
  },
  findUnique: (id, ctx) => {
    const [projectId = '', userId = ''] = id.split(':');
    return { projectId_userId: { projectId, userId }, project: projectMemberWhere(ctx.viewer.id) };
  },
  fields: (t) => ({
    role: t.expose('role', { type: ProjectRoleEnum }),
    user: t.relation('user'),
    name: t.string({
      description: 'How the person is shown: display name, else first and last name, else e-mail.',
      select: { user: { select: { displayName: true, firstName: true, lastName: true, email: true } } },
      resolve: (m) => nameOf(m.user),
    }),
    email: t.string({ select: { user: { select: { email: true } } }, resolve: (m) => m.user.email }),
    project: t.relation('project'),
    joinedAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('projects', (t) =>
  t.prismaConnection({
    type: 'Project',
    cursor: 'id',
    description: 'The projects the signed-in user belongs to, newest first.',
    totalCount: (_connection, _args, ctx) => ctx.db.project.count({ where: projectMemberWhere(ctx.viewer.id) }),
    resolve: (query, _root, _args, ctx) =>
      ctx.db.project.findMany({
        ...query,
        where: projectMemberWhere(ctx.viewer.id),
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      }),
  }),
);

builder.mutationField('createProject', (t) =>
  t.prismaField({
    type: 'Project',
    description:
      "Creates a project; you become its owner. Name required ('Project name is required.'); type campaign by default.",
    errors: {},
    args: {
      name: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
      type: t.arg({ type: ProjectTypeEnum, required: false }),
    },
    resolve: async (query, _root, args, ctx) => {
      const project = await createProject(ctx, args);
      return ctx.db.project.findUniqueOrThrow({ ...query, where: { id: project.id } });
    },
  }),
);

builder.mutationField('addProjectMember', (t) =>
  t.prismaField({
    type: 'ProjectMember',
    description: 'The project owner adds someone who has an account, by e-mail. They get a notification.',
    errors: {},
    args: {
      projectId: t.arg.id({ required: true }),
      email: t.arg.string({ required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = rawId(args.projectId, 'Project', 'projectId');
      const member = await addProjectMember(ctx, projectId, { email: args.email });
      return ctx.db.projectMember.findUniqueOrThrow({
        ...query,
        where: { projectId_userId: { projectId, userId: member.userId } },
      });
    },
  }),
);

builder.mutationField('removeProjectMember', (t) =>
  t.prismaField({
    type: 'Project',
    description: 'The owner removes a member, or a member leaves. Answers the project (null when you left it).',
    nullable: true,
    errors: {},
    args: {
      projectId: t.arg.id({ required: true }),
      userId: t.arg.id({ required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = rawId(args.projectId, 'Project', 'projectId');
      await removeProjectMember(ctx, projectId, rawId(args.userId, 'User', 'userId'));
      return ctx.db.project.findFirst({ ...query, where: { id: projectId, ...projectMemberWhere(ctx.viewer.id) } });
    },
  }),
);
