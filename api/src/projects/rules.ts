import { z } from 'zod';
import type { Prisma, ProjectType } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { projectMemberWhere } from '../galleries/access.ts';
import { publishNotifications, writeNotification } from '../notifications/rules.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { optionalText, requiredText } from '../galleries/input.ts';

export const PROJECT_TYPES = ['campaign', 'movie', 'tv_show', 'commercial'] as const satisfies readonly ProjectType[];

export const projectInput = z.strictObject({
  name: requiredText('Project name is required.', 200, 'Project name is too long (at most 200 characters).'),
  description: optionalText('Description', 5000),
  type: z
    .enum(PROJECT_TYPES, { error: `Project type must be one of ${PROJECT_TYPES.join(', ')}.` })
    .nullish()
    .transform((v) => v ?? 'campaign'),
});

export const memberInput = z.strictObject({
  email: requiredText('Enter the e-mail address of the person to add.', 320, 'That e-mail address is too long.').pipe(
    z
      .string()
      .toLowerCase()
      .pipe(z.email({ error: 'Enter a valid e-mail address.' })),
  ),
});

/** The person's name as others see it. */
export function nameOf(user: {
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string;
}) {
  return user.displayName ?? ([user.firstName, user.lastName].filter(Boolean).join(' ') || user.email);
}

export const userNameSelect = { displayName: true, firstName: true, lastName: true, email: true } as const;

/** A project the viewer belongs to, or a 404 (whether it exists elsewhere is none of their business). */
export async function projectForViewer(ctx: ViewerContext, projectId: string, db: Prisma.TransactionClient = ctx.db) {
  if (!isUuid(projectId)) throw new NotFoundError('Project');
  const project = await db.project.findFirst({
    where: { id: projectId, ...projectMemberWhere(ctx.viewer.id) },
    include: { members: { where: { userId: ctx.viewer.id }, select: { role: true } } },
  });
  if (!project) throw new NotFoundError('Project');
  return { ...project, viewerRole: project.members[0]?.role ?? 'member' };
}

async function projectOwnedByViewer(
  ctx: ViewerContext,
  projectId: string,
  db: Prisma.TransactionClient,
  action: string,
) {
  const project = await projectForViewer(ctx, projectId, db);
  if (project.ownerId !== ctx.viewer.id) throw new ForbiddenError(`Only the project owner can ${action}.`);
  return project;
}

/** Creates a project; its creator becomes its owner and first member. */
export async function createProject(ctx: ViewerContext, input: unknown) {
  const data = parse(projectInput, input ?? {});
  return ctx.db.project.create({
    data: {
      name: data.name,
      description: data.description ?? null,
      type: data.type,
      ownerId: ctx.viewer.id,
      members: { create: { userId: ctx.viewer.id, role: 'owner' } },
    },
  });
}

/** The projects the viewer belongs to, newest first, with how many people are in each. */
export async function listProjects(ctx: ViewerContext) {
  return ctx.db.project.findMany({
    where: projectMemberWhere(ctx.viewer.id),
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: { _count: { select: { members: true } } },
  });
}

export async function listMembers(ctx: ViewerContext, projectId: string) {
  await projectForViewer(ctx, projectId);
  return ctx.db.projectMember.findMany({
    where: { projectId },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
    include: { user: { select: { id: true, profileImageUrl: true, ...userNameSelect } } },
  });
}

/** The owner adds someone who already has an account, by e-mail; they hear about it. */
export async function addProjectMember(ctx: ViewerContext, projectId: string, input: unknown) {
  const { email } = parse(memberInput, input ?? {});
  const { member, notification } = await ctx.db.$transaction(async (tx) => {
    const project = await projectOwnedByViewer(ctx, projectId, tx, 'add members');
    const user = await tx.user.findUnique({ where: { email }, select: { id: true } });
    if (!user) throw notFound('No one with that e-mail address has an account yet; they need to sign up first.');
    const existing = await tx.projectMember.findUnique({ where: { projectId_userId: { projectId, userId: user.id } } });
    if (existing) throw new ConflictError('That person is already a member of this project.');
    const member = await tx.projectMember.create({
      data: { projectId, userId: user.id, role: 'member' },
      include: { user: { select: { id: true, profileImageUrl: true, ...userNameSelect } } },
    });
    const adder = await tx.user.findUniqueOrThrow({ where: { id: ctx.viewer.id }, select: userNameSelect });
    const notification = await writeNotification(tx, {
      userId: user.id,
      type: 'team',
      title: 'Added to a project',
      message: `${nameOf(adder)} added you to the project "${project.name}".`,
      link: '/galleries',
    });
    return { member, notification };
  });
  publishNotifications(ctx, [notification]);
  return member;
}

/** The owner removes a member; a member may also leave. The owner stays. */
export async function removeProjectMember(ctx: ViewerContext, projectId: string, userId: string) {
  await ctx.db.$transaction(async (tx) => {
    const project =
      userId === ctx.viewer.id
        ? await projectForViewer(ctx, projectId, tx)
        : await projectOwnedByViewer(ctx, projectId, tx, 'remove members');
    if (userId === project.ownerId) throw new ValidationError('The project owner cannot be removed from the project.');
    if (!isUuid(userId)) throw new NotFoundError('Member');
    const removed = await tx.projectMember.deleteMany({ where: { projectId, userId } });
    if (removed.count === 0) throw new NotFoundError('Member');
  });
}

/** A 404 whose message says more than "X not found". */
export function notFound(message: string) {
  const error = new NotFoundError();
  error.message = message;
  return error;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs; anything else cannot name a record (and PostgreSQL would refuse to compare it). */
export function isUuid(id: string) {
  return UUID.test(id);
}
