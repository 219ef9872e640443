import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { type TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crewProject } from '../../test/fixtures.ts';
import { graphql, type SignedInUser, send, sendBody, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { collect, type Listening, listen, wsClient } from '../../test/live.ts';
import { unzip } from '../../test/zip.ts';
import { uploaded } from '../storage/testing.ts';

let app: TestApp;
let server: Listening;
let admin: SignedInUser;
const db = () => app.database.prisma;

beforeAll(async () => {
  app = await testApp();
  // Live sockets are checked by the hour here: one that closes at once was closed by the deletion.
  server = await listen(app, { sessionCheckMs: 3_600_000 });
  // The instance's administrator, so nobody below is its last one (a rule of its own, tested last).
  admin = await signedInUser(app);
  await db().user.update({ where: { id: admin.id }, data: { isAdmin: true } });
});
afterAll(async () => {
  await server.close();
  await app.close();
});

/** Every object file on disk (bytes and thumbnails), by name. */
async function objectsOnDisk() {
  return (await readdir(path.join(app.dataDir, 'objects', 'uploads')).catch(() => [])).sort();
}

async function person() {
  const who = await signedInUser(app);
  await db().user.update({ where: { id: who.id }, data: { isAdmin: false } });
  return who;
}

/** Files `bytes` as `name` in the folder; a second call with the same name makes a new version. */
async function fileBytes(who: SignedInUser, name: string, bytes: string, folderId?: string) {
  const upload = await uploaded(app, who, bytes);
  const response = await send(app, who.cookie, 'POST', '/api/files', {
    name,
    originalName: name,
    objectUrl: upload.uploadURL,
    ...(folderId && { folderId }),
    onConflict: 'replace',
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.id as string, uploadId: upload.uploadId };
}

async function folder(who: SignedInUser, name: string, parentId?: string) {
  const response = await send(app, who.cookie, 'POST', '/api/folders', { name, ...(parentId && { parentId }) });
  expect(response.status).toBe(201);
  return response.body.id as string;
}

/** A person with files (one with an earlier version), a gallery, a task, a review link and a comment on `other`'s gallery. */
async function personWithData(other: SignedInUser) {
  const who = await person();
  const barn = await folder(who, 'Barn', await folder(who, 'Scouting'));
  const first = await fileBytes(who, 'gate.jpg', 'the gate, first take\n', barn);
  const gate = await fileBytes(who, 'gate.jpg', 'the gate, second take\n', barn);
  expect(gate.id).toBe(first.id);
  const loose = await fileBytes(who, 'notes.txt', 'loose notes\n');
  const gallery = await db().gallery.create({ data: { ownerId: who.id, name: `Gallery of ${who.email}` } });
  await db().galleryItem.create({ data: { galleryId: gallery.id, fileId: gate.id, position: 0, addedById: who.id } });
  const task = await db().task.create({ data: { creatorId: who.id, title: 'Scout the barn', galleryId: gallery.id } });
  const given = await db().task.create({
    data: { creatorId: other.id, assigneeId: who.id, title: 'Given by the other' },
  });
  const link = await db().reviewLink.create({
    data: { galleryId: gallery.id, createdById: who.id, tokenHash: `hash-${who.id}`, label: 'For the director' },
  });
  const othersGallery = await db().gallery.create({ data: { ownerId: other.id, name: 'Shared with a comment' } });
  const othersFile = await db().file.create({
    data: { ownerId: other.id, name: 'porch.jpg', originalName: 'porch.jpg', objectUrl: '/x', objectPath: '/x' },
  });
  const othersItem = await db().galleryItem.create({
    data: { galleryId: othersGallery.id, fileId: othersFile.id, position: 0, addedById: other.id },
  });
  const comment = await db().photoComment.create({
    data: { galleryId: othersGallery.id, fileId: othersFile.id, authorId: who.id, body: 'Lovely light here' },
  });
  return { who, gate, first, loose, gallery, task, given, link, othersGallery, othersItem, comment };
}

describe('GET /api/account/export', () => {
  it('streams a ZIP of the person’s files, their versions and their records, and nothing of another’s private gallery', async () => {
    const other = await person();
    const secret = await db().gallery.create({
      data: { ownerId: other.id, name: 'Private gallery of the other', description: 'nobody else reads this' },
    });
    const data = await personWithData(other);
    // A file named as a folder beside it, and a name some systems cannot write.
    await fileBytes(data.who, 'Scouting', 'named like the folder\n');
    await fileBytes(data.who, 'take: 2?.txt', 'odd name\n');

    const response = await app.request('/api/account/export', { cookie: data.who.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="scoutbase-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    const entries = await unzip(bytes);
    const text = (name: string) => entries.get(name)?.toString('utf8');
    expect(text('files/Scouting/Barn/gate.jpg')).toBe('the gate, second take\n');
    expect(text('versions/Scouting/Barn/gate.jpg/v1-gate.jpg')).toBe('the gate, first take\n');
    expect(text('files/notes.txt')).toBe('loose notes\n');
    expect(text('files/Scouting (1)')).toBe('named like the folder\n');
    expect(text('files/take_ 2_.txt')).toBe('odd name\n');
    expect(text('README.txt')).toContain('Your Scoutbase data');

    const record = (name: string) => JSON.parse(text(`data/${name}.json`) ?? 'null');
    expect(record('profile')).toMatchObject({ id: data.who.id, email: data.who.email });
    expect(record('galleries')).toEqual([
      expect.objectContaining({ id: data.gallery.id, items: [expect.objectContaining({ fileName: 'gate.jpg' })] }),
    ]);
    expect(record('files')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: data.gate.id, folder: 'Scouting/Barn', versions: expect.any(Array) }),
      ]),
    );
    expect(
      record('tasks')
        .map((t: { id: string }) => t.id)
        .sort(),
    ).toEqual([data.task.id, data.given.id].sort());
    expect(record('comments')).toEqual([expect.objectContaining({ id: data.comment.id, body: 'Lovely light here' })]);
    expect(record('review-links')).toEqual([expect.objectContaining({ id: data.link.id, label: 'For the director' })]);
    expect(record('sessions')).toEqual(expect.arrayContaining([expect.objectContaining({ current: true })]));

    const everything = [...entries.values()].map((b) => b.toString('utf8')).join('\n');
    // No secrets, and nothing of the other person but what gives context (their name on a task).
    expect(everything).not.toContain('tokenHash');
    expect(everything).not.toContain(`hash-${data.who.id}`);
    expect(everything).not.toContain('passwordHash');
    expect(everything).not.toContain(secret.id);
    expect(everything).not.toContain('nobody else reads this');
    expect(everything).not.toContain(other.email);

    const audit = await db().auditEvent.findMany({ where: { action: 'account_exported', actorId: data.who.id } });
    expect(audit).toHaveLength(1);
  });

  it('is refused without a session', async () => {
    expect((await app.request('/api/account/export')).status).toBe(401);
  });
});

describe('DELETE /api/account', () => {
  it('refuses a wrong or missing password and deletes nothing', async () => {
    const other = await person();
    const data = await personWithData(other);
    for (const body of [{ password: 'not the password' }, {}]) {
      const refused = await send(app, data.who.cookie, 'DELETE', '/api/account', body);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/password/i);
    }
    expect(await db().file.count({ where: { ownerId: data.who.id } })).toBe(2);
    expect(await db().gallery.count({ where: { ownerId: data.who.id } })).toBe(1);
    expect((await app.request('/api/auth/user', { cookie: data.who.cookie })).status).toBe(200);
  });

  it('lists what will go and what is handed over, then deletes it with the right password', async () => {
    const other = await person();
    const coOwner = await person();
    const data = await personWithData(other);
    const { who } = data;
    const alone = await crewProject(app, 'Owned alone', who, other);
    const shared = await crewProject(app, 'Owned with a co-owner', who, other);
    // The co-owner joined later than the project's creator, as an owner.
    await db().projectMember.create({ data: { projectId: shared.id, userId: coOwner.id, role: 'owner' } });
    const invitation = await db().invitation.create({
      data: { projectId: shared.id, email: 'newhire@example.com', invitedById: who.id },
    });
    const uploads = (await db().upload.findMany({ where: { userId: who.id } })).map((u) => u.id);
    expect(uploads).toHaveLength(3);
    for (const id of uploads) expect((await objectsOnDisk()).some((name) => name.startsWith(id))).toBe(true);

    const preview = await send(app, who.cookie, 'GET', '/api/account/deletion-preview');
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      email: who.email,
      hasPassword: true,
      twoFactor: false,
      files: 2,
      galleries: 1,
      tasks: 1,
      reviewLinks: 1,
      comments: 1,
      blocked: null,
      projectsDeleted: [{ id: alone.id, name: 'Owned alone', members: 1 }],
      projectsHandedOver: [{ id: shared.id, name: 'Owned with a co-owner', newOwner: { id: coOwner.id } }],
    });
    expect(preview.body.bytes).toBeGreaterThan(0);

    const deleted = await send(app, who.cookie, 'DELETE', '/api/account', { password: who.password });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({
      deleted: true,
      files: 2,
      galleries: 1,
      projectsDeleted: 1,
      projectsHandedOver: 1,
    });

    expect(await db().user.findUnique({ where: { id: who.id } })).toBeNull();
    expect(await db().file.count({ where: { ownerId: who.id } })).toBe(0);
    expect(await db().gallery.count({ where: { id: data.gallery.id } })).toBe(0);
    expect(await db().task.count({ where: { id: data.task.id } })).toBe(0);
    expect(await db().reviewLink.count({ where: { id: data.link.id } })).toBe(0);
    // A task someone else gave them stays with its creator, now without an assignee.
    expect(await db().task.findUnique({ where: { id: data.given.id } })).toMatchObject({ assigneeId: null });
    // The projects: one gone with them, the other the co-owner's, its invitation sent in their name.
    expect(await db().project.findUnique({ where: { id: alone.id } })).toBeNull();
    expect(await db().project.findUnique({ where: { id: shared.id } })).toMatchObject({ ownerId: coOwner.id });
    expect(await db().invitation.findUnique({ where: { id: invitation.id } })).toMatchObject({
      invitedById: coOwner.id,
    });
    // The crews are told.
    expect(await db().notification.findMany({ where: { userId: coOwner.id } })).toEqual([
      expect.objectContaining({ title: 'A project changed hands', message: expect.stringContaining('you now own') }),
    ]);
    const told = await db().notification.findMany({ where: { userId: other.id, type: 'team' } });
    expect(told.map((n) => n.title).sort()).toEqual(['A project changed hands', 'A project was deleted']);
    // The comment on another's gallery stays, signed "Deleted user".
    const comments = await send(app, other.cookie, 'GET', `/api/galleries/${data.othersGallery.id}/comments`);
    expect(comments.status).toBe(200);
    expect(comments.body).toEqual([
      expect.objectContaining({
        id: data.comment.id,
        body: 'Lovely light here',
        author: { id: null, name: 'Deleted user' },
      }),
    ]);

    const { data: read } = await graphql<{ node: { comments: { authorName: string; author: null }[] } }>(
      app,
      other.cookie,
      'query($id: ID!) { node(id: $id) { ... on GalleryItem { comments { authorName author { id } } } } }',
      { id: encodeGlobalID('GalleryItem', data.othersItem.id) },
    );
    expect(read?.node.comments).toEqual([{ authorName: 'Deleted user', author: null }]);

    // The bytes and the quota's rows go; the cleanup pass finds nothing left behind.
    expect(await db().upload.count({ where: { id: { in: uploads } } })).toBe(0);
    expect(await app.storage.cleanup()).toMatchObject({ failed: 0 });
    const left = await objectsOnDisk();
    for (const id of uploads) expect(left.filter((name) => name.startsWith(id))).toEqual([]);
    expect(await db().storageUsage.count({ where: { userId: who.id } })).toBe(0);
    expect(await db().storedObject.count({ where: { ownerId: who.id } })).toBe(0);

    // Signed out everywhere; the audit log keeps the event.
    expect((await app.request('/api/auth/user', { cookie: who.cookie })).status).toBe(401);
    expect((await app.request('/api/files', { cookie: who.cookie })).status).toBe(401);
    const audit = await db().auditEvent.findMany({ where: { action: 'account_deleted', actorId: who.id } });
    expect(audit).toEqual([expect.objectContaining({ actorEmail: who.email })]);
  });

  it('closes the person’s live sockets at once', async () => {
    const who = await person();
    const client = wsClient(server.ws, { cookie: who.cookie });
    const sub = collect<{ unreadNotificationCount: number }>(client, 'subscription { unreadNotificationCount }');
    await sub.next(1);
    const started = Date.now();
    expect((await send(app, who.cookie, 'DELETE', '/api/account', { password: who.password })).status).toBe(200);
    await sub.ended(1000);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(client.closes).toContain(4403);
    await client.dispose();
  });

  it('asks an account without a password to type its address, and two-factor accounts for a code', async () => {
    const other = await person();
    const google = await person();
    await db().user.update({ where: { id: google.id }, data: { passwordHash: null } });
    const wrong = await send(app, google.cookie, 'DELETE', '/api/account', { confirm: other.email });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/e-mail/);
    expect((await send(app, google.cookie, 'GET', '/api/account/deletion-preview')).body).toMatchObject({
      hasPassword: false,
    });

    // Two-factor on, the Security screen's way: a password alone, or with a wrong code, is refused.
    const guarded = await person();
    const setup = await send<{ otpauthUrl: string }>(app, guarded.cookie, 'POST', '/api/auth/two-factor/setup');
    expect(setup.status).toBe(200);
    const totp = URI.parse(setup.body.otpauthUrl) as TOTP;
    const enabled = await send<{ recoveryCodes: string[] }>(
      app,
      guarded.cookie,
      'POST',
      '/api/auth/two-factor/enable',
      {
        code: totp.generate(),
      },
    );
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect((await send(app, guarded.cookie, 'GET', '/api/account/deletion-preview')).body).toMatchObject({
      twoFactor: true,
    });
    for (const body of [{ password: guarded.password }, { password: guarded.password, code: '000000' }]) {
      const refused = await send(app, guarded.cookie, 'DELETE', '/api/account', body);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/code/i);
    }
    expect(await db().user.count({ where: { id: guarded.id } })).toBe(1);
    const recovery = enabled.body.recoveryCodes[0];
    const withCode = await send(app, guarded.cookie, 'DELETE', '/api/account', {
      password: guarded.password,
      code: recovery,
    });
    expect(withCode.status, JSON.stringify(withCode.body)).toBe(200);
    expect(await db().user.count({ where: { id: guarded.id } })).toBe(0);

    const gone = await send(app, google.cookie, 'DELETE', '/api/account', { confirm: google.email.toUpperCase() });
    expect(gone.status).toBe(200);
    expect(await db().user.count({ where: { id: google.id } })).toBe(0);
  });

  it('keeps the last administrator while other people are here', async () => {
    const preview = await send(app, admin.cookie, 'GET', '/api/account/deletion-preview');
    expect(preview.body.blocked).toMatch(/administrator/);
    const refused = await sendBody(app, admin.cookie, 'DELETE', '/api/account', { password: admin.password });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(/Make someone else an administrator/);
    expect(await db().user.count({ where: { id: admin.id } })).toBe(1);

    // With a second administrator, the first may go.
    const successor = await person();
    await db().user.update({ where: { id: successor.id }, data: { isAdmin: true } });
    const gone = await send(app, admin.cookie, 'DELETE', '/api/account', { password: admin.password });
    expect(gone.status).toBe(200);
  });
});
