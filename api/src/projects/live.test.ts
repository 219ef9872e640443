import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedInUser, type TestApp } from '../../test/harness.ts';
import { collect, type Listening, listeningApp, wsClient } from '../../test/live.ts';
import { call, makeGallery, makeProject } from '../galleries/testing.ts';

const ACCESS_CHANGED = `subscription { accessChanged { kind projectId galleryId galleriesChanged project { name } } }`;
type Event = {
  accessChanged: {
    kind: string;
    projectId: string | null;
    galleryId: string | null;
    galleriesChanged: boolean;
    project: { name: string } | null;
  };
};

let app: TestApp, server: Listening;
beforeAll(async () => {
  [app, server] = await listeningApp();
});
afterAll(() => server?.close());

it('opens with `listening` once its events are sure to reach it, so one invitation sent then is heard', async () => {
  const owner = await signedInUser(app);
  const crew = await signedInUser(app);
  const project = await makeProject(app, owner.cookie, { name: 'Opening Shoot' });
  const client = wsClient(server.ws, { cookie: crew.cookie });
  const sub = collect<Event>(client, ACCESS_CHANGED);
  await sub.next(1);
  // What a screen read before this moment may be stale: the browser reads it again on `listening`.
  expect(sub.results[0]?.data?.accessChanged).toEqual({
    kind: 'listening',
    projectId: null,
    galleryId: null,
    galleriesChanged: true,
    project: null,
  });
  const invited = await call(app, owner.cookie, 'POST', `/api/projects/${project.id}/invitations`, {
    email: crew.email,
  });
  expect(invited.status).toBe(201);
  await sub.next(2);
  expect(sub.results[1]?.data?.accessChanged.kind).toBe('invitations');
  await client.dispose();
});

it('with `since`, says on `listening` whether anything changed since then, so a page read before need not be read again', async () => {
  const owner = await signedInUser(app);
  const crew = await signedInUser(app);
  const project = await makeProject(app, owner.cookie, { name: 'Quiet Shoot' });
  const SINCE = 'subscription ($since: DateTime) { accessChanged(since: $since) { kind readAgain } }';
  type Opening = { accessChanged: { kind: string; readAgain: boolean } };
  const opening = async (variables: { since?: string }) => {
    const client = wsClient(server.ws, { cookie: crew.cookie });
    const sub = collect<Opening>(client, SINCE, variables);
    await sub.next(1);
    await client.dispose();
    return sub.results[0]?.data?.accessChanged;
  };
  // The page's answers were read at `readAt`; nothing the crew member may see has changed since.
  const readAt = new Date().toISOString();
  expect(await opening({ since: readAt })).toEqual({ kind: 'listening', readAgain: false });
  // Without `since` nothing is known of what was read before: read it again, as ever.
  expect(await opening({})).toEqual({ kind: 'listening', readAgain: true });
  // An invitation after the page was read and before its live connection listened.
  const invited = await call(app, owner.cookie, 'POST', `/api/projects/${project.id}/invitations`, {
    email: crew.email,
  });
  expect(invited.status).toBe(201);
  expect(await opening({ since: readAt })).toEqual({ kind: 'listening', readAgain: true });
  // The owner, whose screens show the invitation too, heard of it as well.
  const ownerClient = wsClient(server.ws, { cookie: owner.cookie });
  const ownerSub = collect<Opening>(ownerClient, SINCE, { since: readAt });
  await ownerSub.next(1);
  expect(ownerSub.results[0]?.data?.accessChanged.readAgain).toBe(true);
  await ownerClient.dispose();
});

it('tells a crew member, live, about their invitation, joining, galleries shared and revoked, and removal', async () => {
  const owner = await signedInUser(app);
  const crew = await signedInUser(app);
  const bystander = await signedInUser(app);
  const project = await makeProject(app, owner.cookie, { name: 'Live Shoot' });
  const gallery = await makeGallery(app, owner.cookie);
  const projectId = encodeGlobalID('Project', project.id);
  const galleryId = encodeGlobalID('Gallery', gallery.id);

  const crewClient = wsClient(server.ws, { cookie: crew.cookie });
  const bystanderClient = wsClient(server.ws, { cookie: bystander.cookie });
  const crewSub = collect<Event>(crewClient, ACCESS_CHANGED);
  const bystanderSub = collect<Event>(bystanderClient, ACCESS_CHANGED);

  // From `listening` on, each change is heard once; the bystander hears about their own project only.
  await Promise.all([crewSub.next(1), bystanderSub.next(1)]);
  const theirs = await makeProject(app, bystander.cookie);
  await call(app, bystander.cookie, 'POST', `/api/projects/${theirs.id}/invitations`, { email: 'someone@example.com' });
  await bystanderSub.next(2);
  const invitationId = (
    await call(app, owner.cookie, 'POST', `/api/projects/${project.id}/invitations`, { email: crew.email })
  ).body.id;
  let seen = 1;
  const nextOf = async (kind: string) => {
    await crewSub.next(seen + 1, 15_000);
    const event = crewSub.results[seen++]?.data?.accessChanged;
    expect(event?.kind).toBe(kind);
    return event;
  };
  expect(await nextOf('invitations')).toEqual({
    kind: 'invitations',
    projectId,
    galleryId: null,
    galleriesChanged: false,
    project: null,
  });

  expect((await call(app, crew.cookie, 'POST', `/api/invitations/${invitationId}/accept`)).status).toBe(200);
  expect(await nextOf('membership')).toEqual({
    kind: 'membership',
    projectId,
    galleryId: null,
    galleriesChanged: true,
    project: { name: 'Live Shoot' },
  });

  const shared = await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/share`, {
    projectId: project.id,
    permission: 'write',
  });
  expect(shared.status).toBe(201);
  expect(await nextOf('galleries')).toEqual({
    kind: 'galleries',
    projectId,
    galleryId,
    galleriesChanged: true,
    project: { name: 'Live Shoot' },
  });

  expect((await call(app, owner.cookie, 'DELETE', `/api/project-galleries/${shared.body.id}`)).status).toBe(200);
  expect(await nextOf('galleries')).toMatchObject({ kind: 'galleries', galleryId, galleriesChanged: true });

  expect((await call(app, owner.cookie, 'DELETE', `/api/projects/${project.id}/members/${crew.id}`)).status).toBe(200);
  expect(await nextOf('membership')).toEqual({
    kind: 'membership',
    projectId,
    galleryId: null,
    galleriesChanged: true,
    project: null,
  });

  // Someone with nothing to do with the project, listening all along, heard none of it.
  expect(bystanderSub.results.map((r) => r.data?.accessChanged.projectId)).not.toContain(projectId);
  await crewClient.dispose();
  await bystanderClient.dispose();
});
