import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';
import { uploaded, uploadUrl } from './testing.ts';

/** The owner's resumable upload, begun with a few bytes sent. */
async function ownersTusUpload({ app, owner }: AccessHarness) {
  const url = await uploadUrl(app, owner);
  const created = await app.request('/api/objects/tus', {
    method: 'POST',
    cookie: owner.cookie,
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': '100',
      'upload-metadata': `uploadURL ${Buffer.from(url).toString('base64')}`,
    },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) throw new Error(`tus creation failed: ${created.status}`);
  return location;
}

function ownersUploadCount({ app, owner }: AccessHarness) {
  return app.database.prisma.upload.count({ where: { userId: owner.id } });
}

async function stillOwners({ app, owner }: AccessHarness, location: string) {
  const head = await app.request(location, {
    method: 'HEAD',
    cookie: owner.cookie,
    headers: { 'tus-resumable': '1.0.0' },
  });
  expect(head.status).toBe(200);
  expect(head.headers.get('upload-offset')).toBe('0');
}

/** A stranger asking for upload URLs gets their own (at `path`, the route's own unless given); the owner's count stays. */
function ownUploadUrls(route: string, name: string, path?: string) {
  return accessCase({
    route,
    name,
    given: ownersUploadCount,
    asks: path ? () => path : undefined,
    expect: 'own-data-only',
    async unchanged(t, before) {
      expect(await ownersUploadCount(t)).toBe(before);
    },
  });
}

export const accessCases: AccessCase[] = [
  ownUploadUrls(
    'POST /api/objects/upload',
    'a stranger gets an upload URL of their own, never one into the owner’s storage',
  ),
  ownUploadUrls(
    'POST /api/objects/uploads',
    'a stranger gets a batch of upload URLs of their own, never into the owner’s storage',
    '/api/objects/uploads?count=3',
  ),
  accessCase({
    route: 'GET /api/storage/usage',
    name: 'a stranger sees their own usage, not the owner’s',
    async given({ app, owner }) {
      await uploaded(app, owner, 'call sheet for day two\n');
    },
    expect: 'own-data-only',
  }),
  accessCase({
    route: 'GET /api/storage/config',
    name: 'how uploads travel is for signed-in people only, and holds nobody’s data',
    expect: 'own-data-only',
  }),
  accessCase({
    route: 'POST /api/objects/tus',
    name: 'a stranger cannot start a resumable upload without an upload URL of their own',
    async given({ app, owner }) {
      await uploadUrl(app, owner);
    },
    expect: 'refused',
  }),
  ...(['GET', 'PATCH', 'DELETE'] as const).map((method) =>
    accessCase({
      route: `${method} /api/objects/tus/:id`,
      name: 'a stranger cannot look at, continue or end the owner’s resumable upload',
      given: ownersTusUpload,
      asks: (location) => location,
      expect: 'not-found',
      unchanged: stillOwners,
    }),
  ),
];
