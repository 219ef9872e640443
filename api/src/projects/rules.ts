import { z } from 'zod';
import type { Prisma, ProjectRole, ProjectType } from '../generated/prisma/client.ts';
import type { Services, ViewerContext } from '../context.ts';
import type { AccessChange } from '../infra/events/pubsub.ts';
import { publishNotifications, writeNotification } from '../notifications/rules.ts';
import { MANAGING_ROLE, managedProjectWhere, managesMembers, projectMemberWhere } from '../access/rules.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { optionalText, parse, requiredText } from '../shared/validation.ts';
import { isUuid } from '../shared/ids.ts';
import { normalizeEmail, sameEmail } from '../shared/email.ts';

export const PROJECT_TYPES = ['campaign', 'movie', 'tv_show', 'commercial'] as const satisfies readonly ProjectType[];

export const projectInput = z.strictObject({
  name: requiredText('Project name is required.', 200, 'Project name is too long (at most 200 characters).'),
  description: optionalText('Description', 5000),
  type: z
    .enum(PROJECT_TYPES, { error: `Project type must be one of ${PROJECT_TYPES.join(', ')}.` })
    .nullish()
    .transform((v) => v ?? 'campaign'),
});

/** Roles an invitation may carry: a member, or an owner who also invites and removes people. */
export const PROJECT_ROLES = ['member', 'owner'] as const satisfies readonly ProjectRole[];

export const invitationInput = z.strictObject({
  email: requiredText(
    'Enter the e-mail address of the person to invite.',
    320,
    'That e-mail address is too long.',
  ).pipe(
    z
      .string()
      .toLowerCase()
      .pipe(z.email({ error: 'Enter a valid e-mail address.' })),
  ),
  role: z
    .enum(PROJECT_ROLES, { error: `Role must be one of ${PROJECT_ROLES.join(', ')}.` })
    .nullish()
    .transform((v) => v ?? 'member'),
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

/** A project the viewer belongs to as an owner: a 404 to outsiders, a 403 to plain members. */
export async function projectManagedByViewer(
  ctx: ViewerContext,
  projectId: string,
  db: Prisma.TransactionClient,
  action: string,
) {
  const project = await projectForViewer(ctx, projectId, db);
  if (!managesMembers(project.viewerRole)) throw new ForbiddenError(`Only the project's owners can ${action}.`);
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

// ───────────────────────────── invitations and membership ─────────────────────────────

/**
 * Tells each person, live, that what they may see changed (after the transaction committed). Their
 * time of the last change is written first: a page whose answers were read before it (and whose
 * live connection opens after it) is then told to read them again (`accessChanged(since:)`), and
 * a connection already listening hears the event itself.
 */
export async function announceAccessChange(
  services: Pick<Services, 'db' | 'events' | 'logger'>,
  userIds: Iterable<string>,
  change: Omit<AccessChange, 'galleryId' | 'galleriesChanged'> & Partial<AccessChange>,
) {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return;
  // The change is committed whatever happens here: a failed write costs an open page one refresh
  // it needed only if it was read in this instant, so it is reported, not thrown.
  await services.db.user
    .updateMany({ where: { id: { in: ids } }, data: { accessChangedAt: new Date() } })
    .catch((error: unknown) => services.logger?.error({ err: error }, 'could not note an access change'));
  for (const userId of ids) {
    services.events.publish('access:changed', userId, {
      galleryId: null,
      galleriesChanged: change.kind === 'galleries',
      ...change,
    });
  }
}

/**
 * How far apart two servers' clocks may be: `since` comes from the one that made the page, the time
 * of a change from the one that made the change. Within it, a change counts as one the page missed.
 */
const CLOCK_SKEW_MS = 5_000;

/** Whether what the viewer may see changed at or after `since` (announceAccessChange notes it). */
export async function accessChangedSince(ctx: ViewerContext, since: Date) {
  const user = await ctx.db.user.findUnique({ where: { id: ctx.viewer.id }, select: { accessChangedAt: true } });
  return user?.accessChangedAt != null && user.accessChangedAt.getTime() >= since.getTime() - CLOCK_SKEW_MS;
}

const invitationInclude = {
  project: { select: { id: true, name: true, type: true } },
  invitedBy: { select: userNameSelect },
} satisfies Prisma.InvitationInclude;
export type InvitationRow = Prisma.InvitationGetPayload<{ include: typeof invitationInclude }>;

const roleWords = (role: ProjectRole) => (role === 'owner' ? 'an owner' : 'a member');

async function ownerIdsOf(db: Prisma.TransactionClient, projectId: string) {
  const owners = await db.projectMember.findMany({
    where: { projectId, role: MANAGING_ROLE },
    select: { userId: true },
  });
  return owners.map((o) => o.userId);
}

export async function memberIdsOf(db: Prisma.TransactionClient, projectId: string) {
  const members = await db.projectMember.findMany({ where: { projectId }, select: { userId: true } });
  return members.map((m) => m.userId);
}

function invitationNotice(userId: string, invitation: InvitationRow) {
  return {
    userId,
    type: 'team' as const,
    title: 'Invitation to a project',
    message: `${nameOf(invitation.invitedBy)} invited you to join the project "${invitation.project.name}" as ${roleWords(invitation.role)}.`,
    link: '/projects',
  };
}

/**
 * Someone who just proved their address (verified it, or came from a provider that had) hears
 * about the invitations that waited for it, as if they had had an account when invited. Not at
 * sign-up: whoever signs up with an address they cannot read must not learn a project's name.
 */
export async function noticeWaitingInvitations(db: Prisma.TransactionClient, user: { id: string; email: string }) {
  const waiting = await db.invitation.findMany({
    where: { email: user.email.toLowerCase(), status: 'pending' },
    orderBy: { createdAt: 'asc' },
    include: invitationInclude,
  });
  const notices = [];
  for (const invitation of waiting) notices.push(await writeNotification(db, invitationNotice(user.id, invitation)));
  return notices;
}

/**
 * An owner invites someone by e-mail with a role. The answer is the same whether or not the
 * address has an account, so inviting cannot be used to find out who uses the app. The invitee
 * is told if they have an account; otherwise the invitation waits for them to sign up with that
 * address. Inviting a pending address again answers the same invitation (with the new role) and
 * tells nobody twice; after a decline or cancel it becomes pending again.
 */
export async function inviteToProject(ctx: ViewerContext, projectId: string, input: unknown) {
  const { email, role } = parse(invitationInput, input ?? {});
  const { invitation, notification, inviteeId, ownerIds } = await ctx.db.$transaction(async (tx) => {
    await projectManagedByViewer(ctx, projectId, tx, 'invite people');
    // The inviter sees the member list already, so saying so tells them nothing new.
    const member = await tx.projectMember.findFirst({
      where: { projectId, user: { email } },
      select: { userId: true },
    });
    if (member) throw new ConflictError('That person is already a member of this project.');
    const before = await tx.invitation.findUnique({ where: { projectId_email: { projectId, email } } });
    const renewed = before?.status !== 'pending';
    const invitation = await tx.invitation.upsert({
      where: { projectId_email: { projectId, email } },
      create: { projectId, email, role, invitedById: ctx.viewer.id },
      update: renewed
        ? { role, status: 'pending', invitedById: ctx.viewer.id, createdAt: new Date(), respondedAt: null }
        : { role },
      include: invitationInclude,
    });
    // Only an account that proved the address hears of it (and sees the project's name); one that
    // has not yet is told when it verifies (noticeWaitingInvitations).
    const invitee = await tx.user.findFirst({ where: { email, emailVerified: { not: null } }, select: { id: true } });
    const notification =
      invitee && renewed ? await writeNotification(tx, invitationNotice(invitee.id, invitation)) : null;
    return { invitation, notification, inviteeId: invitee?.id, ownerIds: await ownerIdsOf(tx, projectId) };
  });
  if (notification) publishNotifications(ctx, [notification]);
  // The invitee's list refreshes on a repeat too: the role may have changed.
  await announceAccessChange(ctx, [...ownerIds, ...(inviteeId ? [inviteeId] : [])], { kind: 'invitations', projectId });
  return invitation;
}

/** The signed-in user's pending invitations, newest first: those sent to their account's e-mail. */
export async function listMyInvitations(ctx: ViewerContext) {
  return ctx.db.invitation.findMany({
    where: myPendingInvitationsWhere(ctx),
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: invitationInclude,
  });
}

/**
 * An invitation belongs to whoever proved they read its address: an account that has not verified
 * its address sees none (it may have been signed up with someone else's).
 */
export function myPendingInvitationsWhere(ctx: ViewerContext): Prisma.InvitationWhereInput {
  if (!ctx.viewer.emailVerified) return { id: { in: [] } };
  return { email: normalizeEmail(ctx.viewer.email), status: 'pending' };
}

/** A project's pending invitations, for its owners. */
export async function listProjectInvitations(ctx: ViewerContext, projectId: string) {
  await projectManagedByViewer(ctx, projectId, ctx.db, 'see its invitations');
  return ctx.db.invitation.findMany({
    where: { projectId, status: 'pending' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: invitationInclude,
  });
}

/** Who may see an invitation: the person it is addressed to, and the owners of its project. */
export function invitationVisibleWhere(ctx: ViewerContext): Prisma.InvitationWhereInput {
  const mine: Prisma.InvitationWhereInput[] = ctx.viewer.emailVerified
    ? [{ email: normalizeEmail(ctx.viewer.email) }]
    : [];
  return { OR: [...mine, { project: managedProjectWhere(ctx.viewer.id) }] };
}

/** A pending invitation addressed to the viewer; anyone else (the inviter too) gets a 404. */
async function pendingInvitationOfViewer(ctx: ViewerContext, invitationId: string, tx: Prisma.TransactionClient) {
  if (!isUuid(invitationId)) throw new NotFoundError('Invitation');
  const invitation = await tx.invitation.findFirst({
    where: { id: invitationId, ...myPendingInvitationsWhere(ctx) },
    include: invitationInclude,
  });
  if (!invitation) throw new NotFoundError('Invitation');
  return invitation;
}

/**
 * Only an account that proved it reads the invited address may answer for it: signing up with an
 * address proves nothing (the attack run took an invitation that way). Read from the account row,
 * not the session's copy, so a verification a moment ago counts and nothing stale does.
 */
async function assertVerifiedInvitee(ctx: ViewerContext, tx: Prisma.TransactionClient, answer: string) {
  const account = await tx.user.findUnique({
    where: { id: ctx.viewer.id },
    select: { email: true, emailVerified: true },
  });
  if (!account?.emailVerified) {
    throw new ForbiddenError(
      answer === 'accepted'
        ? 'Verify your e-mail address to accept invitations.'
        : 'Verify your e-mail address to answer invitations.',
    );
  }
  return account;
}

/** The invitee answers; the inviter is told. */
export async function respondToInvitation(ctx: ViewerContext, invitationId: string, answer: 'accepted' | 'declined') {
  const { invitation, notification, memberIds, ownerIds } = await ctx.db.$transaction(async (tx) => {
    const account = await assertVerifiedInvitee(ctx, tx, answer);
    const verified = { ...ctx, viewer: { ...ctx.viewer, email: account.email, emailVerified: true } };
    const pending = await pendingInvitationOfViewer(verified, invitationId, tx);
    // The verified address is the invited one, in the one form both are compared in.
    if (!sameEmail(account.email, pending.email)) throw new NotFoundError('Invitation');
    // Claimed by status, so two answers at once cannot both count.
    const claimed = await tx.invitation.updateMany({
      where: { id: pending.id, status: 'pending' },
      data: { status: answer, respondedAt: new Date() },
    });
    if (claimed.count !== 1) throw new NotFoundError('Invitation');
    if (answer === 'accepted') {
      await tx.projectMember.createMany({
        data: [{ projectId: pending.projectId, userId: ctx.viewer.id, role: pending.role }],
        skipDuplicates: true,
      });
    }
    const invitee = await tx.user.findUniqueOrThrow({ where: { id: ctx.viewer.id }, select: userNameSelect });
    const notification = await writeNotification(tx, {
      userId: pending.invitedById,
      type: 'team',
      title: answer === 'accepted' ? 'Invitation accepted' : 'Invitation declined',
      message:
        answer === 'accepted'
          ? `${nameOf(invitee)} accepted your invitation and joined "${pending.project.name}".`
          : `${pending.email} declined your invitation to "${pending.project.name}".`,
      link: '/projects',
    });
    const invitation = await tx.invitation.findUniqueOrThrow({ where: { id: pending.id }, include: invitationInclude });
    return {
      invitation,
      notification,
      memberIds: await memberIdsOf(tx, pending.projectId),
      ownerIds: await ownerIdsOf(tx, pending.projectId),
    };
  });
  publishNotifications(ctx, [notification]);
  const projectId = invitation.projectId;
  if (answer === 'accepted') {
    await announceAccessChange(ctx, [ctx.viewer.id], { kind: 'membership', projectId, galleriesChanged: true });
    await announceAccessChange(
      ctx,
      memberIds.filter((id) => id !== ctx.viewer.id),
      { kind: 'membership', projectId },
    );
  } else {
    await announceAccessChange(ctx, [ctx.viewer.id, ...ownerIds], { kind: 'invitations', projectId });
  }
  return invitation;
}

/** An owner withdraws a pending invitation (optionally named with its project, as REST does). */
export async function cancelInvitation(ctx: ViewerContext, invitationId: string, projectId?: string) {
  if (!isUuid(invitationId) || (projectId !== undefined && !isUuid(projectId))) throw new NotFoundError('Invitation');
  const { invitation, ownerIds, inviteeId } = await ctx.db.$transaction(async (tx) => {
    const found = await tx.invitation.findFirst({
      where: { id: invitationId, status: 'pending', ...(projectId && { projectId }) },
      select: { projectId: true },
    });
    if (!found) throw new NotFoundError('Invitation');
    // Outsiders (the invitee too) get the project's 404; plain members a 403.
    await projectManagedByViewer(ctx, found.projectId, tx, 'cancel invitations');
    const invitation = await tx.invitation.update({
      where: { id: invitationId },
      data: { status: 'cancelled', respondedAt: new Date() },
      include: invitationInclude,
    });
    const invitee = await tx.user.findUnique({ where: { email: invitation.email }, select: { id: true } });
    return { invitation, ownerIds: await ownerIdsOf(tx, found.projectId), inviteeId: invitee?.id };
  });
  await announceAccessChange(ctx, [...ownerIds, ...(inviteeId ? [inviteeId] : [])], {
    kind: 'invitations',
    projectId: invitation.projectId,
  });
  return invitation;
}

/**
 * An owner removes a member (an owner too), or a member leaves. The person who created the
 * project stays, so every project keeps someone who manages it. Access to the galleries shared
 * with the project ends with the next request.
 */
export async function removeProjectMember(ctx: ViewerContext, projectId: string, userId: string) {
  const leaving = userId === ctx.viewer.id;
  const { notification, memberIds } = await ctx.db.$transaction(async (tx) => {
    const project = leaving
      ? await projectForViewer(ctx, projectId, tx)
      : await projectManagedByViewer(ctx, projectId, tx, 'remove members');
    if (userId === project.ownerId) {
      throw new ValidationError('The person who created the project cannot be removed from it.');
    }
    if (!isUuid(userId)) throw new NotFoundError('Member');
    const removed = await tx.projectMember.deleteMany({ where: { projectId, userId } });
    if (removed.count === 0) throw new NotFoundError('Member');
    const remover = await tx.user.findUniqueOrThrow({ where: { id: ctx.viewer.id }, select: userNameSelect });
    const notification = leaving
      ? null
      : await writeNotification(tx, {
          userId,
          type: 'team',
          title: 'Removed from a project',
          message: `${nameOf(remover)} removed you from the project "${project.name}".`,
          link: '/projects',
        });
    return { notification, memberIds: await memberIdsOf(tx, projectId) };
  });
  if (notification) publishNotifications(ctx, [notification]);
  await announceAccessChange(ctx, [userId], { kind: 'membership', projectId, galleriesChanged: true });
  await announceAccessChange(ctx, memberIds, { kind: 'membership', projectId });
}
