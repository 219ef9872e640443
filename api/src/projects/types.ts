import { encodeGlobalID } from '@pothos/plugin-relay';
import { InvitationStatus, ProjectRole, ProjectType } from '../generated/prisma/enums.ts';
import { managedProjectWhere, managesMembers, projectMemberWhere } from '../access/rules.ts';
import type { AccessChange } from '../infra/events/pubsub.ts';
import { ownEventsFromNow } from '../live/rules.ts';
import { builder } from '../graphql/builder.ts';
import { listConnection, prismaEnum, removalMutation, rowMutation } from '../graphql/shapes.ts';
import { rawIdOf } from '../shared/ids.ts';
import {
  accessChangedSince,
  cancelInvitation,
  createProject,
  invitationVisibleWhere,
  inviteToProject,
  myPendingInvitationsWhere,
  nameOf,
  removeProjectMember,
  respondToInvitation,
  userNameSelect,
} from './rules.ts';

export const ProjectTypeEnum = prismaEnum(
  ProjectType,
  'ProjectType',
  'What kind of production a project is; campaign unless said otherwise.',
);

export const ProjectRoleEnum = prismaEnum(
  ProjectRole,
  'ProjectRole',
  "owner: invites people, cancels invitations and removes members (the project's creator is an owner who can never be removed); member: sees the project, its members and the galleries shared with it.",
);

export const InvitationStatusEnum = prismaEnum(
  InvitationStatus,
  'InvitationStatus',
  'pending until the invitee accepts or declines, or an owner cancels it.',
);

/** A Relay global id of the given type, or a raw uuid (what the REST API and other domains use). */
export const rawId = (value: string | number, typename: string, field: string): string =>
  rawIdOf(value, typename, field);

builder.prismaNode('Project', {
  description: 'A production (campaign, movie, TV show, commercial) whose members galleries are shared with.',
  id: { field: 'id' },
  // node(id:) reaches only projects the viewer belongs to.
  findUnique: (id, ctx) => ({ id, AND: [projectMemberWhere(ctx.viewer.id)] }),
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    type: t.expose('type', { type: ProjectTypeEnum }),
    owner: t.relation('owner', { description: 'Who created the project: an owner who can never be removed.' }),
    viewerRole: t.field({
      type: ProjectRoleEnum,
      description: "The signed-in user's role in the project.",
      select: (_args, ctx) => ({ members: { where: { userId: ctx.viewer.id }, select: { role: true } } }),
      resolve: (project) => project.members[0]?.role ?? 'member',
    }),
    viewerCanManageMembers: t.boolean({
      description: 'Whether the signed-in user may invite people, cancel invitations and remove members (owners).',
      select: (_args, ctx) => ({ members: { where: { userId: ctx.viewer.id }, select: { role: true } } }),
      resolve: (project) => managesMembers(project.members[0]?.role ?? 'member'),
    }),
    memberCount: t.relationCount('members', { description: 'How many people belong to it, the owner included.' }),
    pendingInvitations: t.relatedConnection('invitations', {
      cursor: 'id',
      description:
        "Invitations nobody has answered yet, newest first. Empty unless you are one of the project's owners.",
      query: (_args, ctx) => ({
        where: { status: 'pending', project: managedProjectWhere(ctx.viewer.id) },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      }),
      totalCount: true,
    }),
    galleryShares: t.relatedConnection('shares', {
      cursor: 'id',
      description: 'The galleries shared with the project (active shares), newest first; every member may open them.',
      query: { where: { status: 'active' }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] },
      totalCount: true,
    }),
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
    isCreator: t.boolean({
      description: 'Whether this person created the project: they can never be removed.',
      select: { project: { select: { ownerId: true } } },
      resolve: (m) => m.userId === m.project.ownerId,
    }),
    viewerCanRemove: t.boolean({
      description:
        'Whether the signed-in user may remove this person: an owner, not the creator, not themselves (see leaveProject).',
      select: (_args, ctx) => ({
        project: {
          select: { ownerId: true, members: { where: { userId: ctx.viewer.id }, select: { role: true } } },
        },
      }),
      resolve: (m, _args, ctx) =>
        m.userId !== m.project.ownerId &&
        m.userId !== ctx.viewer.id &&
        managesMembers(m.project.members[0]?.role ?? 'member'),
    }),
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
  listConnection(t, 'Project', {
    description: 'The projects the signed-in user belongs to, newest first.',
    where: (_args, ctx) => projectMemberWhere(ctx.viewer.id),
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    counted: true,
  }),
);

builder.mutationField('createProject', (t) =>
  rowMutation(t, 'Project', {
    description:
      "Creates a project; you become its owner. Name required ('Project name is required.'); type campaign by default.",
    args: {
      name: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
      type: t.arg({ type: ProjectTypeEnum, required: false }),
    },
    change: (args, ctx) => createProject(ctx, args),
  }),
);

builder.prismaNode('Invitation', {
  description:
    'An invitation to join a project, addressed to an e-mail. Seen by the invitee (whose account has that e-mail) and by the project owners.',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, AND: [invitationVisibleWhere(ctx)] }),
  fields: (t) => ({
    email: t.exposeString('email', { description: 'The address invited, in lower case.' }),
    role: t.expose('role', { type: ProjectRoleEnum, description: 'The role the invitee gets on accepting.' }),
    status: t.expose('status', { type: InvitationStatusEnum }),
    projectName: t.string({ select: { project: { select: { name: true } } }, resolve: (i) => i.project.name }),
    projectType: t.field({
      type: ProjectTypeEnum,
      select: { project: { select: { type: true } } },
      resolve: (i) => i.project.type,
    }),
    project: t.prismaField({
      type: 'Project',
      nullable: true,
      description: 'The project itself, once you are a member of it (null for an invitee who has not accepted).',
      select: { projectId: true },
      resolve: (query, i, _args, ctx) =>
        ctx.db.project.findFirst({ ...query, where: { id: i.projectId, ...projectMemberWhere(ctx.viewer.id) } }),
    }),
    invitedByName: t.string({
      description: 'Who sent it, as they are shown.',
      select: { invitedBy: { select: userNameSelect } },
      resolve: (i) => nameOf(i.invitedBy),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    respondedAt: t.expose('respondedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryField('invitations', (t) =>
  listConnection(t, 'Invitation', {
    description:
      "Your pending invitations, newest first: those sent to your account's e-mail, also before you signed up.",
    where: (_args, ctx) => myPendingInvitationsWhere(ctx),
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    counted: true,
  }),
);

builder.mutationField('inviteToProject', (t) =>
  rowMutation(t, 'Invitation', {
    description:
      "An owner invites someone by e-mail (role member by default). The same answer whether or not the address has an account; inviting a pending address again answers that invitation. 'That person is already a member of this project.' for a member.",
    args: {
      projectId: t.arg.id({ required: true }),
      email: t.arg.string({ required: true }),
      role: t.arg({ type: ProjectRoleEnum, required: false }),
    },
    change: (args, ctx) =>
      inviteToProject(ctx, rawId(args.projectId, 'Project', 'projectId'), { email: args.email, role: args.role }),
  }),
);

builder.mutationField('acceptInvitation', (t) =>
  rowMutation(t, 'Project', {
    description: 'You accept an invitation addressed to you and join its project (answers it). Anyone else: not found.',
    args: { id: t.arg.id({ required: true }) },
    change: async (args, ctx) => {
      const invitation = await respondToInvitation(ctx, rawId(args.id, 'Invitation', 'id'), 'accepted');
      return { id: invitation.projectId };
    },
  }),
);

builder.mutationField('declineInvitation', (t) =>
  rowMutation(t, 'Invitation', {
    description: 'You decline an invitation addressed to you; the inviter is told. Anyone else: not found.',
    args: { id: t.arg.id({ required: true }) },
    change: (args, ctx) => respondToInvitation(ctx, rawId(args.id, 'Invitation', 'id'), 'declined'),
  }),
);

builder.mutationField('cancelInvitation', (t) =>
  rowMutation(t, 'Invitation', {
    description: "A project's owner withdraws a pending invitation.",
    args: { id: t.arg.id({ required: true }) },
    change: (args, ctx) => cancelInvitation(ctx, rawId(args.id, 'Invitation', 'id')),
  }),
);

builder.mutationField('leaveProject', (t) =>
  removalMutation(t, 'Project', {
    description:
      "You leave a project (its creator cannot) and lose the galleries shared with it. Answers the project's global id.",
    args: { projectId: t.arg.id({ required: true }) },
    change: async (args, ctx) => {
      const projectId = rawId(args.projectId, 'Project', 'projectId');
      await removeProjectMember(ctx, projectId, ctx.viewer.id);
      return { id: projectId };
    },
  }),
);

builder.mutationField('removeProjectMember', (t) =>
  t.prismaField({
    type: 'Project',
    description:
      "An owner removes a member (not the project's creator), or a member leaves. Answers the project (null when you left it).",
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

const AccessChangeKindEnum = builder.enumType('AccessChangeKind', {
  description:
    'listening: the first event, once every later change is sure to be sent; what you read before it may be stale, so read it again. invitations: your pending invitations, or those of a project you own; membership: you joined or left a project, or its members changed; galleries: a gallery was shared with or revoked from a project of yours.',
  values: ['listening', 'invitations', 'membership', 'galleries'] as const,
});

const LISTENING = { kind: 'listening', projectId: null, galleryId: null, galleriesChanged: true } as const;
type AccessEvent = AccessChange | (typeof LISTENING & { readAgain: boolean });

const AccessChangedEvent = builder.objectRef<AccessEvent>('AccessChangedEvent').implement({
  description: 'Something you may see changed; refetch what shows it.',
  fields: (t) => ({
    kind: t.field({ type: AccessChangeKindEnum, resolve: (e) => e.kind }),
    projectId: t.id({
      nullable: true,
      description: 'The global id of the Project concerned (null on listening).',
      resolve: (e) => (e.projectId ? encodeGlobalID('Project', e.projectId) : null),
    }),
    galleryId: t.id({
      nullable: true,
      description: 'The global id of the Gallery shared or revoked (kind galleries).',
      resolve: (e) => (e.galleryId ? encodeGlobalID('Gallery', e.galleryId) : null),
    }),
    galleriesChanged: t.boolean({
      description: 'The galleries you can see may have changed: refresh gallery lists and any open gallery.',
      resolve: (e) => e.galleriesChanged,
    }),
    readAgain: t.boolean({
      description:
        'Whether what you read before this event may be out of date. Always true on a change; on listening, false only when nothing you may see changed since `since`.',
      resolve: (e) => ('readAgain' in e ? e.readAgain : true),
    }),
    project: t.prismaField({
      type: 'Project',
      nullable: true,
      description: 'The project as it is now, if you are still a member (null after leaving or being removed).',
      resolve: (query, e, _args, ctx) =>
        e.projectId
          ? ctx.db.project.findFirst({ ...query, where: { id: e.projectId, ...projectMemberWhere(ctx.viewer.id) } })
          : null,
    }),
  }),
});

builder.subscriptionField('accessChanged', (t) =>
  t.field({
    type: AccessChangedEvent,
    description:
      'First `listening`, then each change to what you may see: invitations to you (or to a project you own), memberships, and galleries shared with or revoked from your projects.',
    args: {
      since: t.arg({
        type: 'DateTime',
        required: false,
        description:
          'When what you show was read (a signed-in page carries it): `listening` then says whether to read it again.',
      }),
    },
    subscribe: (_root, { since }, ctx) =>
      ownEventsFromNow<'access:changed', AccessEvent>(ctx, ['access:changed'], async () => ({
        ...LISTENING,
        readAgain: since ? await accessChangedSince(ctx, since) : true,
      })),
    resolve: (e) => e,
  }),
);
