import { finishedUpload } from '../../test/fixtures.ts';
import { send as call, type TestApp } from '../../test/harness.ts';

// Shared arrangements for the gallery and project tests (not part of the app).

export { call };

/** The body of the answer to `request`, which must be `status`: an arrangement that fails throws, saying `what`. */
async function arranged(what: string, status: number, request: Promise<{ status: number; body: unknown }>) {
  const answer = await request;
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

type MadeGallery = { id: string; name: string; ownerId: string; [key: string]: unknown };

export async function makeGallery(app: TestApp, cookie: string, fields: Record<string, unknown> = {}) {
  const created = call(app, cookie, 'POST', '/api/galleries', { name: 'Warehouse district', ...fields });
  return (await arranged('gallery not created', 201, created)) as MadeGallery;
}

export async function makeProject(app: TestApp, cookie: string, fields: Record<string, unknown> = {}) {
  const created = call(app, cookie, 'POST', '/api/projects', { name: 'Night Shift', ...fields });
  return (await arranged('project not created', 201, created)) as { id: string; name: string; type: string };
}

/** A file record of `userId`'s, with real upload bytes behind it as far as the database knows. */
export async function makeFile(app: TestApp, userId: string, name = 'still.jpg') {
  const upload = await finishedUpload(app, userId);
  return app.database.prisma.file.create({
    data: {
      ownerId: userId,
      name,
      originalName: name,
      mimeType: 'image/jpeg',
      size: 1024n,
      objectUrl: upload.uploadURL,
      objectPath: upload.objectPath,
    },
  });
}

/** `member` joins the project the way people do: `owner` invites them and they accept. */
export async function joinProject(
  app: TestApp,
  owner: { cookie: string },
  member: { email: string; cookie: string },
  projectId: string,
  role: 'member' | 'owner' = 'member',
) {
  const invited = (await arranged(
    'not invited',
    201,
    call(app, owner.cookie, 'POST', `/api/projects/${projectId}/invitations`, { email: member.email, role }),
  )) as { id: string };
  await arranged('not accepted', 200, call(app, member.cookie, 'POST', `/api/invitations/${invited.id}/accept`));
  return invited;
}

/** Adds `member` to a new project of `owner`'s and shares the gallery with it. */
export async function shareWith(
  app: TestApp,
  owner: { cookie: string },
  member: { email: string; cookie: string },
  galleryId: string,
  permission: 'read' | 'write' = 'read',
) {
  const project = await makeProject(app, owner.cookie);
  await joinProject(app, owner, member, project.id);
  const shared = await arranged(
    'not shared',
    201,
    call(app, owner.cookie, 'POST', `/api/galleries/${galleryId}/share`, { projectId: project.id, permission }),
  );
  return { project, share: shared as { id: string } };
}
