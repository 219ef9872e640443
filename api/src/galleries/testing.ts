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

/** Adds `member` to a new project of `owner`'s and shares the gallery with it. */
export async function shareWith(
  app: TestApp,
  owner: { cookie: string },
  member: { email: string },
  galleryId: string,
  permission: 'read' | 'write' = 'read',
) {
  const project = await makeProject(app, owner.cookie);
  const added = await call(app, owner.cookie, 'POST', `/api/projects/${project.id}/members`, { email: member.email });
  if (added.status !== 201) throw new Error(`member not added: ${added.status} ${JSON.stringify(added.body)}`);
  const shared = await call(app, owner.cookie, 'POST', `/api/galleries/${galleryId}/share`, {
    projectId: project.id,
    permission,
  });
  if (shared.status !== 201) throw new Error(`not shared: ${shared.status} ${JSON.stringify(shared.body)}`);
  return { project, share: shared.body as { id: string } };
}
