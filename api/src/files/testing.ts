import { afterAll, beforeAll } from 'vitest';
import { finishedUpload } from '../../test/fixtures.ts';
import { anyone, appWithPeople, send, type SignedInUser, type TestApp } from '../../test/harness.ts';

// Shared arrangements for the files tests (not part of the app).

export { send };

/**
 * A test file's app with two signed-in people, an owner and a stranger to the owner's files:
 * started before the file's tests, which `started` hands them to, and closed after them.
 */
export function appWithOwnerAndStranger(started: (app: TestApp, owner: SignedInUser, stranger: SignedInUser) => void) {
  let app: TestApp | undefined;
  beforeAll(async () => {
    const [testApp, owner, stranger] = await appWithPeople(anyone, anyone);
    app = testApp;
    started(testApp, owner, stranger);
  });
  afterAll(() => app?.close());
}

export async function newFolder(app: TestApp, cookie: string, name: string, parentId: string | null = null) {
  const { status, body } = await send(app, cookie, 'POST', '/api/folders', { name, parentId });
  if (status !== 201) throw new Error(`folder not created: ${status} ${JSON.stringify(body)}`);
  return body as { id: string; name: string; parentId: string | null };
}

/** Uploads (as far as the database knows) and records a file through POST /api/files. */
export async function uploadFile(
  app: TestApp,
  user: { id: string; cookie: string },
  fields: Record<string, unknown> = {},
  upload: { size?: number; mimeType?: string; metadata?: object } = {},
) {
  const finished = await finishedUpload(app, user.id, upload);
  const { status, body } = await send(app, user.cookie, 'POST', '/api/files', {
    name: 'still.jpg',
    originalName: 'IMG_0001.jpg',
    mimeType: 'image/jpeg',
    size: upload.size ?? 1024,
    objectUrl: finished.uploadURL,
    folderId: null,
    isPublic: false,
    tags: [],
    metadata: { uploadedAt: new Date().toISOString() },
    ...fields,
  });
  if (status !== 201) throw new Error(`file not created: ${status} ${JSON.stringify(body)}`);
  return body as {
    id: string;
    name: string;
    size: number;
    objectPath: string;
    version: number;
    [key: string]: unknown;
  };
}
