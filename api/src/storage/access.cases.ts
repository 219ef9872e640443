import { expect } from 'vitest';
import type { AccessCase } from '../../test/access.ts';
import type { AccessHarness } from '../../test/access.ts';
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

async function stillOwners({ app, owner }: AccessHarness, location: string) {
  const head = await app.request(location, {
    method: 'HEAD',
    cookie: owner.cookie,
    headers: { 'tus-resumable': '1.0.0' },
  });
  expect(head.status).toBe(200);
  expect(head.headers.get('upload-offset')).toBe('0');
}

let ownersUploads = 0;

export const accessCases: AccessCase[] = [
  {
    route: 'POST /api/objects/upload',
    name: 'a stranger gets an upload URL of their own, never one into the owner’s storage',
    async arrange({ app, owner }) {
      ownersUploads = await app.database.prisma.upload.count({ where: { userId: owner.id } });
      return { method: 'POST', path: '/api/objects/upload' };
    },
    expect: 'own-data-only',
    async unchanged({ app, owner }) {
      expect(await app.database.prisma.upload.count({ where: { userId: owner.id } })).toBe(ownersUploads);
    },
  },
  {
    route: 'GET /api/storage/usage',
    name: 'a stranger sees their own usage, not the owner’s',
    async arrange({ app, owner }) {
      await uploaded(app, owner, 'call sheet for day two\n');
      return { method: 'GET', path: '/api/storage/usage' };
    },
    expect: 'own-data-only',
  },
  {
    route: 'GET /api/storage/config',
    name: 'how uploads travel is for signed-in people only, and holds nobody’s data',
    async arrange() {
      return { method: 'GET', path: '/api/storage/config' };
    },
    expect: 'own-data-only',
  },
  {
    route: 'POST /api/objects/tus',
    name: 'a stranger cannot start a resumable upload without an upload URL of their own',
    async arrange({ app, owner }) {
      await uploadUrl(app, owner);
      return { method: 'POST', path: '/api/objects/tus' };
    },
    expect: 'refused',
  },
  ...(['GET', 'PATCH', 'DELETE'] as const).map((method): AccessCase => {
    let location = '';
    return {
      route: `${method} /api/objects/tus/:id`,
      name: 'a stranger cannot look at, continue or end the owner’s resumable upload',
      async arrange(t) {
        location = await ownersTusUpload(t);
        return { method, path: location };
      },
      expect: 'not-found',
      unchanged: (t) => stillOwners(t, location),
    };
  }),
];
