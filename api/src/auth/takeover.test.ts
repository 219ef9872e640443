import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, person, send, sendBody, signIn, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { tokenMailedTo } from '../../test/mail.ts';
import { makeGallery, makeProject } from '../galleries/testing.ts';

// The attack run's first finding, replayed: the owner invites newhire@…; before that person signs
// up, someone else signs up as NEWHIRE@… (an address they cannot read) and takes the invitation.

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const ACCEPT = `mutation($id: ID!) { acceptInvitation(id: $id) { __typename
  ... on MutationAcceptInvitationSuccess { data { id name } } ... on Error { message } } }`;
const DECLINE = `mutation($id: ID!) { declineInvitation(id: $id) { __typename ... on Error { message } } }`;

describe('a pending invitation and someone who signs up with its address', () => {
  it('cannot be taken by an account that never proved the address', async () => {
    const owner = await signedInUser(app, { name: 'Olga Owner' });
    const project = await makeProject(app, owner.cookie, { name: 'Unreleased Feature' });
    const gallery = await makeGallery(app, owner.cookie, { name: 'Secret Set' });
    expect(
      (await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/share`, { projectId: project.id })).status,
    ).toBe(201);
    const newhire = `newhire-${crypto.randomUUID()}@x.example`;
    const invited = await send(app, owner.cookie, 'POST', `/api/projects/${project.id}/invitations`, {
      email: newhire,
    });
    expect(invited.status).toBe(201);

    // The attacker signs up with the address in capitals, and signs in (an unverified account may).
    const attacker = person({ email: newhire.toUpperCase() });
    await send(app, undefined, 'POST', '/api/auth/signup', attacker);
    const { jar } = await signIn(app, attacker);
    const cookie = jar.header;
    expect((await send(app, cookie, 'GET', '/api/auth/user')).status).toBe(200);

    // REST: refused with a reason, and nothing of the project shows.
    const accept = await send(app, cookie, 'POST', `/api/invitations/${invited.body.id}/accept`);
    expect(accept.status).toBe(403);
    expect(accept.body.message).toBe('Verify your e-mail address to accept invitations.');
    // Nor can they turn it down in the real newhire's place.
    expect((await send(app, cookie, 'POST', `/api/invitations/${invited.body.id}/decline`)).status).toBe(403);

    // GraphQL: the same rule.
    const id = encodeGlobalID('Invitation', invited.body.id);
    const viaGraphql = await graphql<{ acceptInvitation: { __typename: string; message: string } }>(
      app,
      cookie,
      ACCEPT,
      { id },
    );
    expect(viaGraphql.data?.acceptInvitation.message).toBe('Verify your e-mail address to accept invitations.');
    const declined = await graphql<{ declineInvitation: { __typename: string } }>(app, cookie, DECLINE, { id });
    expect(declined.data?.declineInvitation.__typename).not.toMatch(/Success/);

    // No project data: not the project, its gallery, the invitation list, nor a notice naming them.
    expect((await send(app, cookie, 'GET', `/api/projects/${project.id}`)).status).toBe(404);
    expect((await send(app, cookie, 'GET', `/api/galleries/${gallery.id}`)).status).toBe(404);
    const mine = await send(app, cookie, 'GET', '/api/invitations');
    expect(JSON.stringify(mine.body)).not.toContain('Unreleased Feature');
    const notices = await send(app, cookie, 'GET', '/api/notifications');
    expect(JSON.stringify(notices.body)).not.toContain('Unreleased Feature');
    const projects = await send(app, cookie, 'GET', '/api/projects');
    expect(JSON.stringify(projects.body)).not.toContain(project.id);

    // The invitation still waits for the real person.
    const row = await app.database.prisma.invitation.findUniqueOrThrow({ where: { id: invited.body.id } });
    expect(row.status).toBe('pending');
    expect(await app.database.prisma.projectMember.count({ where: { projectId: project.id } })).toBe(1);

    // A verified account of another address gets the invitation's 404, as before.
    const outsider = await signedInUser(app);
    expect((await send(app, outsider.cookie, 'POST', `/api/invitations/${invited.body.id}/accept`)).status).toBe(404);

    // The real newhire cannot sign up (taken), but the reset link reaches their mailbox: it ends the
    // attacker's session, proves the address, and the invitation is theirs to accept.
    await send(app, undefined, 'POST', '/api/auth/password-reset', { email: newhire });
    const token = await tokenMailedTo(app, newhire, '/reset-password');
    const reset = await send(app, undefined, 'POST', '/api/auth/password-reset/confirm', {
      token,
      password: 'only the newhire knows',
    });
    expect(reset.status).toBe(200);
    expect((await sendBody(app, cookie, 'GET', '/api/auth/user')).status).toBe(401);
    const real = await signIn(app, { email: newhire, password: 'only the newhire knows' });
    const accepted = await send(app, real.jar.header, 'POST', `/api/invitations/${invited.body.id}/accept`);
    expect(accepted.status).toBe(200);
    expect((await send(app, real.jar.header, 'GET', `/api/galleries/${gallery.id}`)).status).toBe(200);
  });

  it('tells an account that signed up before the invitation nothing until it verifies', async () => {
    const owner = await signedInUser(app, { name: 'Olga Owner' });
    const project = await makeProject(app, owner.cookie, { name: 'Second Unreleased Feature' });
    const early = await signedInUser(app, {}, { verified: false });
    const invited = await send(app, owner.cookie, 'POST', `/api/projects/${project.id}/invitations`, {
      email: early.email,
    });
    expect(invited.status).toBe(201);
    const bell = await app.database.prisma.notification.findMany({ where: { userId: early.id } });
    expect(JSON.stringify(bell)).not.toContain('Second Unreleased Feature');
    expect((await send(app, early.cookie, 'GET', '/api/invitations')).body).toEqual([]);

    // Once the address is proved, the invitation and its notice are theirs.
    await send(app, early.cookie, 'POST', '/api/auth/verify-email', {
      token: await tokenMailedTo(app, early.email, '/verify-email'),
    });
    const notices = await app.database.prisma.notification.findMany({ where: { userId: early.id } });
    expect(notices.map((n) => n.message)).toEqual([
      'Olga Owner invited you to join the project "Second Unreleased Feature" as a member.',
    ]);
    const mine = await send(app, early.cookie, 'GET', '/api/invitations');
    expect(mine.body.map((i: { id: string }) => i.id)).toEqual([invited.body.id]);
    expect((await send(app, early.cookie, 'POST', `/api/invitations/${invited.body.id}/accept`)).status).toBe(200);
  });
});
