import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithPeople, graphql, type SignedInUser as User, signedInUser, type TestApp } from '../../test/harness.ts';
import { VERIFY_SUBJECT } from '../auth/mails.ts';
import { call, joinProject, makeGallery, makeProject } from '../galleries/testing.ts';

let app: TestApp, owner: User;
beforeAll(async () => {
  [app, owner] = await appWithPeople({ name: 'Pat Producer' });
});
afterAll(() => app.close());

const db = () => app.database.prisma;
const unusedAddress = () => `nobody-${crypto.randomUUID()}@example.com`;

async function invite(who: { cookie: string }, projectId: string, body: Record<string, unknown>) {
  return call(app, who.cookie, 'POST', `/api/projects/${projectId}/invitations`, body);
}

/** The shape of an answer: its keys and the type of each value, nested. */
function shapeOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, shapeOf(v)]),
  );
}

/** The e-mails written to the outbox for one address, but the verification link every sign-up sends. */
async function mailsTo(address: string) {
  await app.services.mailer?.idle();
  const dir = app.config.mail.outboxDir;
  const files = await readdir(dir).catch(() => []);
  const mails = await Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(dir, file)))));
  return mails
    .filter((m) => m.subject !== VERIFY_SUBJECT)
    .filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((to) => to?.text.includes(address)));
}

describe('inviting', () => {
  it('answers the same for an address with an account and one without (no account enumeration)', async () => {
    const project = await makeProject(app, owner.cookie, { name: 'Harbour Lights' });
    const known = await signedInUser(app);
    const unknown = unusedAddress();
    const toKnown = await invite(owner, project.id, { email: known.email, role: 'member' });
    const toUnknown = await invite(owner, project.id, { email: unknown, role: 'member' });

    expect(toKnown.status).toBe(201);
    expect(toUnknown.status).toBe(toKnown.status);
    expect(shapeOf(toUnknown.body)).toEqual(shapeOf(toKnown.body));
    expect(toKnown.body).toMatchObject({ email: known.email, role: 'member', status: 'pending' });
    expect(toUnknown.body).toMatchObject({ email: unknown, role: 'member', status: 'pending' });
    // Invited is not a member.
    expect(await db().projectMember.count({ where: { projectId: project.id } })).toBe(1);
  });

  it('tells an invitee who has an account, by notification and e-mail', async () => {
    const project = await makeProject(app, owner.cookie, { name: 'Night Market' });
    const crew = await signedInUser(app);
    await invite(owner, project.id, { email: crew.email, role: 'owner' });
    const note = await db().notification.findFirstOrThrow({ where: { userId: crew.id } });
    expect(note).toMatchObject({ type: 'team', title: 'Invitation to a project', link: '/projects' });
    expect(note.message).toBe('Pat Producer invited you to join the project "Night Market" as an owner.');
    const mails = await mailsTo(crew.email);
    expect(mails.map((m) => m.subject)).toEqual(['Invitation to a project']);
  });

  it('does not e-mail an invitee whose Email Notifications switch is off', async () => {
    const project = await makeProject(app, owner.cookie);
    const quiet = await signedInUser(app);
    const off = await call(app, quiet.cookie, 'PATCH', '/api/user/settings', { emailNotifications: false });
    expect(off.status).toBe(200);
    await invite(owner, project.id, { email: quiet.email });
    expect(await db().notification.count({ where: { userId: quiet.id, type: 'team' } })).toBe(1);
    expect(await mailsTo(quiet.email)).toEqual([]);
  });

  it('says what is wrong with an e-mail or a role', async () => {
    const project = await makeProject(app, owner.cookie);
    const member = await signedInUser(app);
    await joinProject(app, owner, member, project.id);
    const cases = [
      [{}, 400, 'Enter the e-mail address of the person to invite.'],
      [{ email: '   ' }, 400, 'Enter the e-mail address of the person to invite.'],
      [{ email: 'not-an-email' }, 400, 'Enter a valid e-mail address.'],
      [{ email: 'crew@example.com', role: 'director' }, 400, 'Role must be one of member, owner.'],
      [{ email: member.email }, 409, 'That person is already a member of this project.'],
      [{ email: owner.email.toUpperCase() }, 409, 'That person is already a member of this project.'],
    ] as const;
    for (const [body, status, message] of cases) {
      const answer = await invite(owner, project.id, body);
      expect([answer.status, answer.body.message]).toEqual([status, message]);
    }
    expect(await db().invitation.count({ where: { projectId: project.id, status: 'pending' } })).toBe(0);
  });

  it('inviting a pending address again answers the same invitation and tells nobody twice', async () => {
    const project = await makeProject(app, owner.cookie);
    const crew = await signedInUser(app);
    const first = await invite(owner, project.id, { email: crew.email });
    const again = await invite(owner, project.id, { email: ` ${crew.email.toUpperCase()} `, role: 'owner' });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: first.body.id, role: 'owner', status: 'pending' });
    expect(await db().notification.count({ where: { userId: crew.id } })).toBe(1);
  });

  it('the old members path invites too, never adding a member', async () => {
    const project = await makeProject(app, owner.cookie);
    const crew = await signedInUser(app);
    const answer = await call(app, owner.cookie, 'POST', `/api/projects/${project.id}/members`, { email: crew.email });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ email: crew.email, role: 'member', status: 'pending' });
    expect(await db().projectMember.findFirst({ where: { projectId: project.id, userId: crew.id } })).toBeNull();
    const mine = await call(app, crew.cookie, 'GET', '/api/invitations');
    expect(mine.body.map((i: { id: string }) => i.id)).toEqual([answer.body.id]);
  });

  it('an invitation to an address without an account waits for whoever signs up with it', async () => {
    const project = await makeProject(app, owner.cookie, { name: 'Late Arrival' });
    const address = unusedAddress();
    const sent = await invite(owner, project.id, { email: address.toUpperCase() });
    expect(sent.body.email).toBe(address);

    const newcomer = await signedInUser(app, { email: address });
    // Told at sign-up, as if they had had an account when invited.
    const notes = await db().notification.findMany({ where: { userId: newcomer.id } });
    expect(notes.map((n) => [n.title, n.message])).toEqual([
      ['Invitation to a project', 'Pat Producer invited you to join the project "Late Arrival" as a member.'],
    ]);
    const mine = await call(app, newcomer.cookie, 'GET', '/api/invitations');
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([
      expect.objectContaining({
        id: sent.body.id,
        status: 'pending',
        project: { id: project.id, name: 'Late Arrival', type: 'campaign' },
        invitedBy: { id: owner.id, name: 'Pat Producer' },
      }),
    ]);
    expect((await call(app, newcomer.cookie, 'POST', `/api/invitations/${sent.body.id}/accept`)).status).toBe(200);
    expect((await call(app, newcomer.cookie, 'GET', `/api/projects/${project.id}`)).body.role).toBe('member');
  });
});

describe('answering', () => {
  it('nobody is a member, nor sees a shared gallery, before accepting', async () => {
    const project = await makeProject(app, owner.cookie, { name: 'Dock Scene' });
    const gallery = await makeGallery(app, owner.cookie, { name: 'Pier 9' });
    const crew = await signedInUser(app);
    const sent = await invite(owner, project.id, { email: crew.email });
    const shared = await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/share`, {
      projectId: project.id,
    });
    expect(shared.status).toBe(201);

    expect((await call(app, crew.cookie, 'GET', `/api/galleries/${gallery.id}`)).status).toBe(404);
    expect((await call(app, crew.cookie, 'GET', `/api/projects/${project.id}`)).status).toBe(404);
    expect((await call(app, crew.cookie, 'GET', '/api/galleries')).body.map((g: { id: string }) => g.id)).not.toContain(
      gallery.id,
    );

    const accepted = await call(app, crew.cookie, 'POST', `/api/invitations/${sent.body.id}/accept`);
    expect(accepted).toMatchObject({ status: 200, body: { status: 'accepted', role: 'member' } });
    expect((await call(app, crew.cookie, 'GET', `/api/galleries/${gallery.id}`)).status).toBe(200);
    expect((await call(app, crew.cookie, 'GET', '/api/invitations')).body).toEqual([]);
    const note = await db().notification.findFirstOrThrow({
      where: { userId: owner.id, title: 'Invitation accepted' },
      orderBy: { createdAt: 'desc' },
    });
    expect(note.message).toBe(`${crew.name} accepted your invitation and joined "Dock Scene".`);
  });

  it('only the invitee may accept: the inviter, a member and a stranger get 404', async () => {
    const project = await makeProject(app, owner.cookie);
    const member = await signedInUser(app);
    const stranger = await signedInUser(app);
    await joinProject(app, owner, member, project.id);
    const sent = await invite(owner, project.id, { email: unusedAddress() });
    for (const who of [owner, member, stranger]) {
      for (const answer of ['accept', 'decline']) {
        const tried = await call(app, who.cookie, 'POST', `/api/invitations/${sent.body.id}/${answer}`);
        expect([tried.status, tried.body.message]).toEqual([404, 'Invitation not found']);
      }
    }
    expect((await call(app, stranger.cookie, 'POST', '/api/invitations/not-a-uuid/accept')).status).toBe(404);
    expect(await db().projectMember.count({ where: { projectId: project.id } })).toBe(2);
    expect((await db().invitation.findUniqueOrThrow({ where: { id: sent.body.id } })).status).toBe('pending');
  });

  it('declining leaves them out, tells the inviter, and cannot be undone by accepting', async () => {
    const project = await makeProject(app, owner.cookie, { name: 'Rooftop' });
    const crew = await signedInUser(app);
    const sent = await invite(owner, project.id, { email: crew.email });
    const declined = await call(app, crew.cookie, 'POST', `/api/invitations/${sent.body.id}/decline`);
    expect(declined).toMatchObject({ status: 200, body: { status: 'declined' } });
    expect((await call(app, crew.cookie, 'POST', `/api/invitations/${sent.body.id}/accept`)).status).toBe(404);
    expect((await call(app, crew.cookie, 'GET', `/api/projects/${project.id}`)).status).toBe(404);
    expect((await call(app, owner.cookie, 'GET', `/api/projects/${project.id}/invitations`)).body).toEqual([]);
    const note = await db().notification.findFirstOrThrow({
      where: { userId: owner.id, title: 'Invitation declined' },
      orderBy: { createdAt: 'desc' },
    });
    expect(note.message).toBe(`${crew.email} declined your invitation to "Rooftop".`);

    // Invited again later: the same invitation is pending again.
    const again = await invite(owner, project.id, { email: crew.email });
    expect(again.body).toMatchObject({ id: sent.body.id, status: 'pending' });
    expect((await call(app, crew.cookie, 'POST', `/api/invitations/${sent.body.id}/accept`)).status).toBe(200);
  });

  it('an owner lists and cancels pending invitations; a plain member may do neither', async () => {
    const project = await makeProject(app, owner.cookie);
    const member = await signedInUser(app);
    const crew = await signedInUser(app);
    await joinProject(app, owner, member, project.id);
    const sent = await invite(owner, project.id, { email: crew.email });
    const listed = await call(app, owner.cookie, 'GET', `/api/projects/${project.id}/invitations`);
    expect(listed.body.map((i: { email: string }) => i.email)).toEqual([crew.email]);

    const byMember = await call(app, member.cookie, 'GET', `/api/projects/${project.id}/invitations`);
    expect(byMember).toMatchObject({
      status: 403,
      body: { message: "Only the project's owners can see its invitations." },
    });
    const cancelByMember = await call(
      app,
      member.cookie,
      'DELETE',
      `/api/projects/${project.id}/invitations/${sent.body.id}`,
    );
    expect(cancelByMember.status).toBe(403);

    const cancelled = await call(
      app,
      owner.cookie,
      'DELETE',
      `/api/projects/${project.id}/invitations/${sent.body.id}`,
    );
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect((await call(app, crew.cookie, 'GET', '/api/invitations')).body).toEqual([]);
    expect((await call(app, crew.cookie, 'POST', `/api/invitations/${sent.body.id}/accept`)).status).toBe(404);
    const twice = await call(app, owner.cookie, 'DELETE', `/api/projects/${project.id}/invitations/${sent.body.id}`);
    expect(twice.status).toBe(404);
  });
});

describe('membership', () => {
  it('a removed member loses the galleries shared with the project at once', async () => {
    const project = await makeProject(app, owner.cookie);
    const gallery = await makeGallery(app, owner.cookie);
    const crew = await signedInUser(app);
    await joinProject(app, owner, crew, project.id);
    await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/share`, { projectId: project.id });
    expect((await call(app, crew.cookie, 'GET', `/api/galleries/${gallery.id}`)).status).toBe(200);

    const removed = await call(app, owner.cookie, 'DELETE', `/api/projects/${project.id}/members/${crew.id}`);
    expect(removed.status).toBe(200);
    expect((await call(app, crew.cookie, 'GET', `/api/galleries/${gallery.id}`)).status).toBe(404);
    expect((await call(app, crew.cookie, 'GET', `/api/projects/${project.id}`)).status).toBe(404);
    const note = await db().notification.findFirstOrThrow({
      where: { userId: crew.id, title: 'Removed from a project' },
    });
    expect(note.type).toBe('team');
  });

  it('a member leaves and loses access; the creator can neither leave nor be removed, even by a co-owner', async () => {
    const project = await makeProject(app, owner.cookie);
    const gallery = await makeGallery(app, owner.cookie);
    const coOwner = await signedInUser(app);
    const crew = await signedInUser(app);
    await joinProject(app, owner, coOwner, project.id, 'owner');
    // A co-owner invites and removes like the creator.
    await joinProject(app, coOwner, crew, project.id);
    await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/share`, { projectId: project.id });

    const creatorOut = await call(app, coOwner.cookie, 'DELETE', `/api/projects/${project.id}/members/${owner.id}`);
    expect(creatorOut).toMatchObject({
      status: 400,
      body: { message: 'The person who created the project cannot be removed from it.' },
    });
    const creatorLeaves = await call(app, owner.cookie, 'DELETE', `/api/projects/${project.id}/members/${owner.id}`);
    expect(creatorLeaves.status).toBe(400);

    const left = await call(app, crew.cookie, 'DELETE', `/api/projects/${project.id}/members/${crew.id}`);
    expect(left.status).toBe(200);
    expect((await call(app, crew.cookie, 'GET', `/api/galleries/${gallery.id}`)).status).toBe(404);
    // Leaving tells nobody with a notification.
    expect(await db().notification.count({ where: { userId: crew.id, title: 'Removed from a project' } })).toBe(0);

    const coOwnerRemoved = await call(app, owner.cookie, 'DELETE', `/api/projects/${project.id}/members/${coOwner.id}`);
    expect(coOwnerRemoved.status).toBe(200);
    expect(await db().projectMember.findMany({ where: { projectId: project.id }, select: { userId: true } })).toEqual([
      { userId: owner.id },
    ]);
  });
});

describe('invitations over GraphQL', () => {
  const MINE = `{ invitations(first: 10) { totalCount edges { node { id email role status projectName projectType
    invitedByName project { id } } } } }`;
  type Mine = {
    invitations: {
      totalCount: number;
      edges: { node: { id: string; email: string; role: string; projectName: string; project: unknown } }[];
    };
  };

  it('invite, list mine, accept; owners see pending invitations, members do not', async () => {
    const project = await makeProject(app, owner.cookie, { name: 'Graph Night', type: 'movie' });
    const projectId = Buffer.from(`Project:${project.id}`).toString('base64');
    const crew = await signedInUser(app);
    const other = await signedInUser(app);

    const INVITE = `mutation($projectId: ID!, $email: String!, $role: ProjectRole) {
      inviteToProject(projectId: $projectId, email: $email, role: $role) {
        __typename
        ... on MutationInviteToProjectSuccess { data { id email role status } }
        ... on Error { message }
      } }`;
    const sent = await graphql<{ inviteToProject: { __typename: string; data: { id: string; status: string } } }>(
      app,
      owner.cookie,
      INVITE,
      { projectId, email: crew.email },
    );
    expect(sent.errors).toBeUndefined();
    expect(sent.data?.inviteToProject.data).toMatchObject({ email: crew.email, role: 'member', status: 'pending' });
    const invitationId = sent.data?.inviteToProject.data.id;
    const bad = await graphql<{ inviteToProject: { __typename: string; message: string } }>(app, owner.cookie, INVITE, {
      projectId,
      email: 'nope',
    });
    expect(bad.data?.inviteToProject).toEqual({
      __typename: 'ValidationError',
      message: 'Enter a valid e-mail address.',
    });

    const mine = await graphql<Mine>(app, crew.cookie, MINE);
    expect(mine.data?.invitations.totalCount).toBe(1);
    expect(mine.data?.invitations.edges[0]?.node).toMatchObject({
      id: invitationId,
      projectName: 'Graph Night',
      projectType: 'movie',
      invitedByName: 'Pat Producer',
      project: null,
    });
    expect((await graphql<Mine>(app, other.cookie, MINE)).data?.invitations.totalCount).toBe(0);
    const NODE = 'query($id: ID!) { node(id: $id) { id } }';
    expect((await graphql(app, other.cookie, NODE, { id: invitationId })).data).toEqual({ node: null });
    expect((await graphql(app, crew.cookie, NODE, { id: invitationId })).data).toEqual({ node: { id: invitationId } });

    const ACCEPT = `mutation($id: ID!) { acceptInvitation(id: $id) { __typename
      ... on MutationAcceptInvitationSuccess { data { id name viewerRole viewerCanManageMembers } }
      ... on Error { message } } }`;
    const byOther = await graphql<{ acceptInvitation: { __typename: string; message: string } }>(
      app,
      other.cookie,
      ACCEPT,
      { id: invitationId },
    );
    expect(byOther.data?.acceptInvitation).toEqual({ __typename: 'BaseError', message: 'Invitation not found' });
    const accepted = await graphql<{ acceptInvitation: { data: unknown } }>(app, crew.cookie, ACCEPT, {
      id: invitationId,
    });
    expect(accepted.data?.acceptInvitation.data).toEqual({
      id: projectId,
      name: 'Graph Night',
      viewerRole: 'member',
      viewerCanManageMembers: false,
    });

    await graphql(app, owner.cookie, INVITE, { projectId, email: other.email });
    const PROJECT = `query($id: ID!) { node(id: $id) { ... on Project { viewerCanManageMembers
      pendingInvitations(first: 10) { totalCount edges { node { email } } }
      members(first: 10) { edges { node { isCreator viewerCanRemove user { id } } } } } } }`;
    type ProjectView = {
      node: {
        viewerCanManageMembers: boolean;
        pendingInvitations: { totalCount: number; edges: { node: { email: string } }[] };
        members: { edges: { node: { isCreator: boolean; viewerCanRemove: boolean } }[] };
      };
    };
    const asOwner = await graphql<ProjectView>(app, owner.cookie, PROJECT, { id: projectId });
    expect(asOwner.data?.node.viewerCanManageMembers).toBe(true);
    expect(asOwner.data?.node.pendingInvitations.edges.map((e) => e.node.email)).toEqual([other.email]);
    expect(asOwner.data?.node.members.edges.map((e) => [e.node.isCreator, e.node.viewerCanRemove])).toEqual([
      [true, false],
      [false, true],
    ]);
    const asCrew = await graphql<ProjectView>(app, crew.cookie, PROJECT, { id: projectId });
    expect(asCrew.data?.node.pendingInvitations).toEqual({ totalCount: 0, edges: [] });
    expect(asCrew.data?.node.members.edges.map((e) => [e.node.isCreator, e.node.viewerCanRemove])).toEqual([
      [true, false],
      [false, false],
    ]);

    const LEAVE = `mutation($projectId: ID!) { leaveProject(projectId: $projectId) { __typename
      ... on MutationLeaveProjectSuccess { data } ... on Error { message } } }`;
    const left = await graphql<{ leaveProject: { data: string } }>(app, crew.cookie, LEAVE, { projectId });
    expect(left.data?.leaveProject.data).toBe(projectId);
    expect((await graphql(app, crew.cookie, NODE, { id: projectId })).data).toEqual({ node: null });
    const creatorLeaves = await graphql<{ leaveProject: { __typename: string; message: string } }>(
      app,
      owner.cookie,
      LEAVE,
      { projectId },
    );
    expect(creatorLeaves.data?.leaveProject).toEqual({
      __typename: 'ValidationError',
      message: 'The person who created the project cannot be removed from it.',
    });
  });

  it('decline and cancel', async () => {
    const project = await makeProject(app, owner.cookie);
    const crew = await signedInUser(app);
    const first = await invite(owner, project.id, { email: crew.email });
    const second = await invite(owner, (await makeProject(app, owner.cookie)).id, { email: crew.email });
    const gid = (id: string) => Buffer.from(`Invitation:${id}`).toString('base64');
    const DECLINE = `mutation($id: ID!) { declineInvitation(id: $id) { __typename
      ... on MutationDeclineInvitationSuccess { data { status } } ... on Error { message } } }`;
    const CANCEL = `mutation($id: ID!) { cancelInvitation(id: $id) { __typename
      ... on MutationCancelInvitationSuccess { data { status } } ... on Error { message } } }`;
    const declined = await graphql<{ declineInvitation: { data: { status: string } } }>(app, crew.cookie, DECLINE, {
      id: gid(first.body.id),
    });
    expect(declined.data?.declineInvitation.data.status).toBe('declined');
    const cancelByInvitee = await graphql<{ cancelInvitation: { __typename: string } }>(app, crew.cookie, CANCEL, {
      id: gid(second.body.id),
    });
    expect(cancelByInvitee.data?.cancelInvitation.__typename).toBe('BaseError');
    const cancelled = await graphql<{ cancelInvitation: { data: { status: string } } }>(app, owner.cookie, CANCEL, {
      id: gid(second.body.id),
    });
    expect(cancelled.data?.cancelInvitation.data.status).toBe('cancelled');
    expect((await graphql<Mine>(app, crew.cookie, MINE)).data?.invitations.totalCount).toBe(0);
  });
});
