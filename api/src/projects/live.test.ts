import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedInUser, type TestApp } from '../../test/harness.ts';
import { collect, type Listening, listeningApp, wsClient } from '../../test/live.ts';
import { call, makeGallery, makeProject } from '../galleries/testing.ts';

const ACCESS_CHANGED = `subscription { accessChanged { kind projectId galleryId galleriesChanged project { name } } }`;
type Event = {
  accessChanged: {
    kind: string;
    projectId: string;
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

/** Repeats an action that may be repeated until the subscription has heard it once (it is live from then on). */
async function untilHeard(sub: { results: unknown[] }, act: () => Promise<unknown>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (sub.results.length === 0) {
    if (Date.now() > deadline) throw new Error('the subscription never heard anything');
    await act();
    await new Promise((r) => setTimeout(r, 100));
  }
}

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

  // Inviting a pending address again is harmless, so it is repeated until a subscription is live.
  // The bystander hears about their own project's invitation only.
  const theirs = await makeProject(app, bystander.cookie);
  await untilHeard(bystanderSub, () =>
    call(app, bystander.cookie, 'POST', `/api/projects/${theirs.id}/invitations`, { email: 'someone@example.com' }),
  );
  let invitationId = '';
  await untilHeard(crewSub, async () => {
    invitationId = (
      await call(app, owner.cookie, 'POST', `/api/projects/${project.id}/invitations`, { email: crew.email })
    ).body.id;
  });
  expect(crewSub.results[0]?.data?.accessChanged).toEqual({
    kind: 'invitations',
    projectId,
    galleryId: null,
    galleriesChanged: false,
    project: null,
  });
  // A repeated invitation's event may still be on its way: each step looks for its own kind.
  let seen = 0;
  const nextOf = async (kind: string) => {
    for (;;) {
      const found = crewSub.results.findIndex((r, i) => i >= seen && r.data?.accessChanged.kind === kind);
      if (found >= 0) {
        seen = found + 1;
        return crewSub.results[found]?.data?.accessChanged;
      }
      await crewSub.next(crewSub.results.length + 1, 15_000);
    }
  };

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
