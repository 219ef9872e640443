import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { graphql, send, type SignedInUser, type TestApp } from '../../test/harness.ts';
import { listeningOverSse } from '../../test/sse.ts';
import { makeFile } from '../galleries/testing.ts';
import { variantKey } from '../storage/images.ts';
import { photoFeedback } from './feedback.ts';
import { resolveReviewLink } from './links.ts';
import { withFourPeople, galleryWithPhoto, makeReviewLink, PHOTO_BYTES, reviewedGallery, withCrew } from './testing.ts';

let app: TestApp, owner: SignedInUser, editor: SignedInUser, reader: SignedInUser, outsider: SignedInUser;
withFourPeople((people) => {
  ({ app, owner, editor, reader, outsider } = people);
});

const db = () => app.database.prisma;
const anonymous = (method: string, path: string, body?: unknown, cookie?: string) =>
  send(app, cookie, method, path, body);

describe('review links', () => {
  it('carry a 192-bit token that the database keeps only as its sha256', async () => {
    const { gallery } = await galleryWithPhoto(app, owner);
    const made = await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/review-links`, {
      label: 'Director',
      allowDownload: true,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ label: 'Director', allowDownload: true, expiresAt: null, hasPassword: false });
    const token = (made.body.url as string).split('/r/')[1] as string;
    expect(Buffer.from(token, 'base64url')).toHaveLength(24);
    const row = await db().reviewLink.findUniqueOrThrow({ where: { id: made.body.id } });
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    // Listed later without an address: nobody knows the token any more.
    const listed = await send(app, owner.cookie, 'GET', `/api/galleries/${gallery.id}/review-links`);
    expect(listed.body).toEqual([expect.objectContaining({ id: made.body.id, url: null, active: true })]);
  });

  it('refuses bad input with a clear 400', async () => {
    const { gallery } = await galleryWithPhoto(app, owner);
    const path = `/api/galleries/${gallery.id}/review-links`;
    const past = await send(app, owner.cookie, 'POST', path, { expiresAt: '2000-01-01T00:00:00Z' });
    expect(past).toMatchObject({ status: 400, body: { message: 'The expiry must be in the future.' } });
    const short = await send(app, owner.cookie, 'POST', path, { password: 'abc' });
    expect(short).toMatchObject({ status: 400, body: { message: 'The password must have at least 4 characters.' } });
    const extra = await send(app, owner.cookie, 'POST', path, { token: 'mine' });
    expect(extra.status).toBe(400);
  });

  it('shows the gallery and its photos, and nothing of its owner, folders or object paths', async () => {
    const folder = await send(app, owner.cookie, 'POST', '/api/folders', { name: 'Secret folder name' });
    const { gallery, file, token } = await reviewedGallery(app, owner);
    if (folder.status === 201) await db().file.update({ where: { id: file.id }, data: { folderId: folder.body.id } });
    const page = await anonymous('GET', `/api/review/${token}`);
    expect(page.status).toBe(200);
    expect(page.body.gallery).toMatchObject({ name: gallery.name, photoCount: 1, allowDownload: false });
    expect(page.body.photos).toEqual([
      expect.objectContaining({ id: file.id, url: `/api/review/${token}/photos/${file.id}`, thumbnailUrl: null }),
    ]);
    // The map's tiles as members get them: a reviewer has no session for /api/map/config.
    expect(page.body.map).toEqual(app.config.map);
    // Compressed for phones on mobile networks, when the browser says it can take it.
    const gzipped = await app.request(`/api/review/${token}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    const text = JSON.stringify(page.body);
    for (const secret of [owner.id, owner.email, file.objectPath, 'Secret folder name', gallery.ownerId]) {
      expect(text).not.toContain(secret);
    }
    const photo = await app.request(`/api/review/${token}/photos/${file.id}`);
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(PHOTO_BYTES);
  });

  it('serves previews, not originals, when downloads are off', async () => {
    const { file, token, link } = await reviewedGallery(app, owner);
    await db().file.update({
      where: { id: file.id },
      data: { metadata: { thumbnails: { grid: true, grid2x: true, preview: true } } },
    });
    const objectKey = `uploads/${file.objectPath.split('/').pop()}`;
    const preview = Buffer.from('preview bytes');
    await app.storage.store.put(variantKey(objectKey, 'preview'), Readable.from([preview]), { size: preview.length });
    const sharp2x = Buffer.from('grid2x bytes');
    await app.storage.store.put(variantKey(objectKey, 'grid2x'), Readable.from([sharp2x]), { size: sharp2x.length });
    const page = await anonymous('GET', `/api/review/${token}`);
    expect(page.body.photos[0]).toMatchObject({
      url: `/api/review/${token}/photos/${file.id}?variant=preview`,
      thumbnailUrl: `/api/review/${token}/photos/${file.id}?variant=grid`,
      thumbnail2xUrl: `/api/review/${token}/photos/${file.id}?variant=grid2x`,
    });
    const dense = await app.request(`/api/review/${token}/photos/${file.id}?variant=grid2x`);
    expect(Buffer.from(await dense.arrayBuffer())).toEqual(sharp2x);
    const original = await anonymous('GET', `/api/review/${token}/photos/${file.id}`);
    expect(original).toMatchObject({ status: 403, body: { message: 'Downloads are not allowed on this link.' } });
    const shown = await app.request(`/api/review/${token}/photos/${file.id}?variant=preview`);
    expect(Buffer.from(await shown.arrayBuffer())).toEqual(preview);
    await db().reviewLink.update({ where: { id: link.id }, data: { allowDownload: true } });
    const allowed = await app.request(`/api/review/${token}/photos/${file.id}`);
    expect(Buffer.from(await allowed.arrayBuffer())).toEqual(PHOTO_BYTES);
  });

  it('serves photos in byte ranges, answers 304 to their ETag and 416 past the end', async () => {
    const { file, token } = await reviewedGallery(app, owner);
    const path = `/api/review/${token}/photos/${file.id}`;
    const size = PHOTO_BYTES.length;
    const whole = await app.request(path);
    expect(whole.status).toBe(200);
    const etag = whole.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(size));
    // The review route's own headers stay.
    expect(whole.headers.get('cache-control')).toBe('private, max-age=600');
    expect(whole.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(PHOTO_BYTES);

    const part = await app.request(path, { headers: { range: 'bytes=4-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-9/${size}`);
    expect(part.headers.get('content-length')).toBe('6');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(PHOTO_BYTES.subarray(4, 10));

    const cached = await app.request(path, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    expect(cached.headers.get('etag')).toBe(etag);

    const past = await app.request(path, { headers: { range: `bytes=${size}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(past.headers.get('content-type')).toBe('application/json');
    expect(await past.json()).toHaveProperty('message');
  });

  it("never reaches another gallery's photo, even by its file id", async () => {
    const { token } = await reviewedGallery(app, owner);
    const other = await galleryWithPhoto(app, owner, 'Other gallery');
    const loose = await makeFile(app, owner.id, 'not-in-any-gallery.jpg');
    for (const fileId of [other.file.id, loose.id, '00000000-0000-0000-0000-000000000000', 'x']) {
      const photo = await app.request(`/api/review/${token}/photos/${fileId}`);
      expect(photo.status).toBe(404);
      const comment = await anonymous('POST', `/api/review/${token}/comments`, { fileId, name: 'Dana', body: 'Hi' });
      expect(comment).toMatchObject({ status: 404, body: { message: 'Photo not found' } });
      const pick = await anonymous('PUT', `/api/review/${token}/picks/${fileId}`, { name: 'Dana', pick: 'yes' });
      expect(pick.status).toBe(404);
    }
    expect(await db().photoComment.count({ where: { fileId: other.file.id } })).toBe(0);
    expect(await db().photoPick.count({ where: { fileId: other.file.id } })).toBe(0);
  });

  it('answers 404 at once after revoking, and after expiry', async () => {
    const { link, token } = await reviewedGallery(app, owner);
    expect((await anonymous('GET', `/api/review/${token}`)).status).toBe(200);
    const revoked = await send(app, owner.cookie, 'DELETE', `/api/review-links/${link.id}`);
    expect(revoked.body).toMatchObject({ active: false });
    expect(await anonymous('GET', `/api/review/${token}`)).toMatchObject({
      status: 404,
      body: { message: 'Review link not found' },
    });

    const later = await reviewedGallery(app, owner);
    await db().reviewLink.update({ where: { id: later.link.id }, data: { expiresAt: new Date(Date.now() + 60_000) } });
    expect((await anonymous('GET', `/api/review/${later.token}`)).status).toBe(200);
    await expect(resolveReviewLink(db(), later.token, null, new Date(Date.now() + 120_000))).rejects.toMatchObject({
      status: 404,
    });
  });

  it('keeps picks one per reviewer name and photo, and validates them', async () => {
    const { file, token } = await reviewedGallery(app, owner);
    const path = `/api/review/${token}/picks/${file.id}`;
    expect((await anonymous('PUT', path, { name: 'Dana', pick: 'maybe' })).status).toBe(200);
    expect((await anonymous('PUT', path, { name: 'Dana', pick: 'yes' })).body).toMatchObject({ pick: 'yes' });
    expect((await anonymous('PUT', path, { name: 'Sam', pick: 'no' })).status).toBe(200);
    expect(await anonymous('PUT', path, { name: 'Dana', pick: 'love' })).toMatchObject({
      status: 400,
      body: { message: "pick must be 'yes', 'no' or 'maybe'." },
    });
    expect(await anonymous('PUT', path, { name: '  ', pick: 'yes' })).toMatchObject({
      status: 400,
      body: { message: 'Please give your name.' },
    });
    const picks = await db().photoPick.findMany({ where: { fileId: file.id }, orderBy: { reviewerName: 'asc' } });
    expect(picks.map((p) => `${p.reviewerName}:${p.pick}`)).toEqual(['Dana:yes', 'Sam:no']);
  });
});

describe('password links', () => {
  it('ask for the password, unlock only their own link, and lock out like sign-in', async () => {
    const { gallery, token } = await reviewedGallery(app, owner, 'locked');
    const other = await makeReviewLink(app, owner.cookie, gallery.id, { password: 'hunter22' });

    const asked = await anonymous('GET', `/api/review/${token}`);
    expect(asked).toMatchObject({ status: 401, body: { message: 'This link needs a password.' } });
    const wrong = await anonymous('POST', `/api/review/${token}/unlock`, { password: 'nope' });
    expect(wrong).toMatchObject({ status: 401, body: { message: 'That password is not right.' } });

    const unlocked = await app.request(`/api/review/${token}/unlock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'hunter22' }),
    });
    expect(unlocked.status).toBe(200);
    const setCookie = unlocked.headers.getSetCookie()[0] ?? '';
    expect(setCookie).toContain(`Path=/api/review/${token}`);
    expect(setCookie).toContain('HttpOnly');
    const cookie = setCookie.split(';')[0] as string;
    expect((await anonymous('GET', `/api/review/${token}`, undefined, cookie)).status).toBe(200);
    // The same cookie does not open the other link with the same password.
    expect((await anonymous('GET', `/api/review/${other.token}`, undefined, cookie)).status).toBe(401);
    // A forged one neither.
    const forged = cookie.replace(/=\d+\./, '=99999999999.');
    expect((await anonymous('GET', `/api/review/${token}`, undefined, forged)).status).toBe(401);

    // Sign-in's per-account buckets: a few quick tries, then a wait, even for the right password.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await anonymous('POST', `/api/review/${other.token}/unlock`, { password: `guess-${i}` })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const right = await anonymous('POST', `/api/review/${other.token}/unlock`, { password: 'hunter22' });
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/^Too many wrong passwords\. Try again in \d+ seconds\.$/);
  });
});

describe('comments', () => {
  it('notify the owner once per review session, not per comment', async () => {
    const { gallery, file, token } = await reviewedGallery(app, owner);
    const before = await db().notification.count({ where: { userId: owner.id, title: 'Review started' } });
    for (const body of ['Great stairs', 'Too dark?']) {
      const made = await anonymous('POST', `/api/review/${token}/comments`, { fileId: file.id, name: 'Dana', body });
      expect(made.status).toBe(201);
    }
    await anonymous('PUT', `/api/review/${token}/picks/${file.id}`, { name: 'Dana', pick: 'yes' });
    const notices = await db().notification.findMany({ where: { userId: owner.id, title: 'Review started' } });
    expect(notices.length - before).toBe(1);
    expect(notices.at(-1)?.message).toBe(`Dana is reviewing "${gallery.name}".`);
    // The owner's comment list shows the reviewer's name; the page shows this link's own comments.
    const listed = await send(app, owner.cookie, 'GET', `/api/galleries/${gallery.id}/comments`);
    expect(listed.body.map((c: { reviewerName: string; body: string }) => `${c.reviewerName}: ${c.body}`)).toEqual([
      'Dana: Great stairs',
      'Dana: Too dark?',
    ]);
    const page = await anonymous('GET', `/api/review/${token}`);
    expect(page.body.comments).toHaveLength(2);
    expect(page.body.picks).toEqual([expect.objectContaining({ fileId: file.id, name: 'Dana', pick: 'yes' })]);
  });

  it('by members: @mentions notify people who can see the gallery, and the activity feed records them', async () => {
    const { gallery, file } = await galleryWithPhoto(app, owner);
    await withCrew(app, owner, { editor, reader }, gallery.id);
    const made = await send(app, reader.cookie, 'POST', `/api/galleries/${gallery.id}/comments`, {
      fileId: file.id,
      body: `@${editor.email.split('@')[0]} and @${owner.email} and @${outsider.email.split('@')[0]}: this one?`,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ body: expect.stringContaining('this one?'), author: { id: reader.id } });
    const mentions = await db().notification.findMany({ where: { title: 'You were mentioned', link: { not: null } } });
    const told = mentions.filter((n) => n.message.includes(gallery.name)).map((n) => n.userId);
    expect(told.sort()).toEqual([owner.id, editor.id].sort());
    // The outsider cannot see the gallery: a mention must not tell them about it.
    expect(told).not.toContain(outsider.id);
    const activity = await db().activity.findMany({ where: { resourceId: gallery.id, action: 'photo_commented' } });
    expect(activity).toEqual([expect.objectContaining({ userId: reader.id, resourceName: gallery.name })]);

    const empty = await send(app, reader.cookie, 'POST', `/api/galleries/${gallery.id}/comments`, {
      fileId: file.id,
      body: '   ',
    });
    expect(empty).toMatchObject({ status: 400, body: { message: 'Write a comment first.' } });
  });

  it("reach the owner's open gallery live, through the galleryFeedback subscription", async () => {
    const { gallery, file, token } = await reviewedGallery(app, owner);
    type Event = { data?: { galleryFeedback: { comment: { body: string; reviewerName: string } | null } } };
    const stream = await listeningOverSse<Event>(
      app,
      owner.cookie,
      'subscription($id: ID!) { galleryFeedback(galleryId: $id) { comment { body reviewerName } pick { pick } } }',
      { id: encodeGlobalID('Gallery', gallery.id) },
    );
    try {
      const made = await anonymous('POST', `/api/review/${token}/comments`, {
        fileId: file.id,
        name: 'Dana',
        body: 'Live!',
      });
      expect(made.status).toBe(201);
      const [first] = await stream.until((r) => r.length >= 1);
      expect(first?.data?.galleryFeedback.comment).toEqual({ body: 'Live!', reviewerName: 'Dana' });
    } finally {
      await stream.close();
    }
    // Someone who cannot see the gallery cannot subscribe to it.
    const refused = await graphql(
      app,
      outsider.cookie,
      'subscription($id: ID!) { galleryFeedback(galleryId: $id) { pick { pick } } }',
      { id: encodeGlobalID('Gallery', gallery.id) },
    );
    expect(refused.errors?.[0]?.message).toBe('Gallery not found');
  });
});

describe('photoFeedback (for the lookbook)', () => {
  it("gathers each photo's comments and picks under names, never e-mail addresses", async () => {
    const { gallery, file, token } = await reviewedGallery(app, owner);
    await anonymous('POST', `/api/review/${token}/comments`, { fileId: file.id, name: 'Dana', body: 'Yes please' });
    await anonymous('PUT', `/api/review/${token}/picks/${file.id}`, { name: 'Dana', pick: 'maybe' });
    await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/comments`, { fileId: file.id, body: 'Booked' });
    const lookup = await photoFeedback(db(), gallery.id);
    const feedback = lookup(file.id);
    expect(feedback?.picks).toEqual([{ name: 'Dana', pick: 'maybe' }]);
    expect(feedback?.comments.map((c) => c.body)).toEqual(['Yes please', 'Booked']);
    expect(JSON.stringify(feedback)).not.toContain(owner.email);
    expect(lookup('00000000-0000-0000-0000-000000000000')).toBeUndefined();
  });
});

describe('GraphQL', () => {
  it('creates, lists and revokes links, and comments', async () => {
    const { gallery, file } = await galleryWithPhoto(app, owner);
    const galleryId = encodeGlobalID('Gallery', gallery.id);
    const created = await graphql<{
      createReviewLink: { data: { url: string; reviewLink: { id: string; label: string; active: boolean } } };
    }>(
      app,
      owner.cookie,
      `mutation($g: ID!) { createReviewLink(galleryId: $g, label: "Client", password: "hunter22") {
        ... on MutationCreateReviewLinkSuccess { data { url reviewLink { id label active hasPassword } } }
        ... on Error { message }
      } }`,
      { g: galleryId },
    );
    expect(created.errors).toBeUndefined();
    const data = created.data?.createReviewLink.data;
    if (!data) throw new Error('no link made');
    expect(data.url).toMatch(/\/r\/[A-Za-z0-9_-]{32}$/);

    const commented = await graphql(
      app,
      owner.cookie,
      `mutation($g: ID!, $f: ID!) { addPhotoComment(galleryId: $g, fileId: $f, body: "Check the parking") {
        ... on MutationAddPhotoCommentSuccess { data { body author { id } } }
        ... on Error { message }
      } }`,
      { g: galleryId, f: encodeGlobalID('File', file.id) },
    );
    expect(commented.errors).toBeUndefined();

    const read = await graphql<{
      node: { reviewLinks: { label: string }[]; comments: { totalCount: number }; items: unknown };
    }>(
      app,
      owner.cookie,
      `query($g: ID!) { node(id: $g) { ... on Gallery {
        reviewLinks { label active }
        comments(first: 10) { totalCount edges { node { body } } }
        items(first: 5) { edges { node { comments { body } picks { pick } } } }
      } } }`,
      { g: galleryId },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data?.node.reviewLinks).toEqual([{ label: 'Client', active: true }]);
    expect(read.data?.node.comments.totalCount).toBe(1);

    // A reader sees comments but no links.
    await withCrew(app, owner, { editor, reader }, gallery.id);
    const asReader = await graphql<{ node: { reviewLinks: unknown[] } }>(
      app,
      reader.cookie,
      'query($g: ID!) { node(id: $g) { ... on Gallery { reviewLinks { id } } } }',
      { g: galleryId },
    );
    expect(asReader.data?.node.reviewLinks).toEqual([]);

    const revoked = await graphql(
      app,
      editor.cookie,
      `mutation($id: ID!) { revokeReviewLink(id: $id) {
        ... on MutationRevokeReviewLinkSuccess { data { active } }
        ... on Error { message }
      } }`,
      { id: data.reviewLink.id },
    );
    expect(revoked.data).toEqual({ revokeReviewLink: { data: { active: false } } });
  });
});
