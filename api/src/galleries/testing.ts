import { finishedUpload } from '../../test/fixtures.ts';
import { send as call, type TestApp } from '../../test/harness.ts';

// Shared arrangements for the gallery and project tests (not part of the app).

export { call };

export async function makeGallery(app: TestApp, cookie: string, fields: Record<string, unknown> = {}) {
  const { status, body } = await call(app, cookie, 'POST', '/api/galleries', { name: 'Warehouse district', ...fields });
  if (status !== 201) throw new Error(`gallery not created: ${status} ${JSON.stringify(body)}`);
  return body as { id: string; name: string; ownerId: string; [key: string]: unknown };
}

export async function makeProject(app: TestApp, cookie: string, fields: Record<string, unknown> = {}) {
  const { status, body } = await call(app, cookie, 'POST', '/api/projects', { name: 'Night Shift', ...fields });
  if (status !== 201) throw new Error(`project not created: ${status} ${JSON.stringify(body)}`);
  return body as { id: string; name: string; type: string };
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
  const invited = await call(app, owner.cookie, 'POST', `/api/projects/${projectId}/invitations`, {
    email: member.email,
    role,
  });
  if (invited.status !== 201) throw new Error(`not invited: ${invited.status} ${JSON.stringify(invited.body)}`);
  const accepted = await call(app, member.cookie, 'POST', `/api/invitations/${invited.body.id}/accept`);
  if (accepted.status !== 200) throw new Error(`not accepted: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return invited.body as { id: string };
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
  const shared = await call(app, owner.cookie, 'POST', `/api/galleries/${galleryId}/share`, {
    projectId: project.id,
    permission,
  });
  if (shared.status !== 201) throw new Error(`not shared: ${shared.status} ${JSON.stringify(shared.body)}`);
  return { project, share: shared.body as { id: string } };
}
