import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, signedInUser, type SignedInUser, type TestApp, testApp } from '../../test/harness.ts';
import { crewProject } from '../../test/fixtures.ts';
import { mailsTo } from '../../test/mail.ts';
import { makeFile, makeGallery, shareWith } from '../galleries/testing.ts';
import { uploadFile } from '../files/testing.ts';
import { DIGEST_QUEUE, sendDigest } from './digest.ts';

// Issue 53: one's own uploads are not e-mailed, others' uploads to one's galleries come as one digest.

let app: TestApp;
beforeAll(async () => {
  // A short window, so the test sees the digest go out.
  app = await testApp({ MAIL_DIGEST_SECONDS: '5' });
}, 120_000);
afterAll(() => app.close());

/** The e-mails about uploads (not the sign-up's or the project invitation's). */
const UPLOAD_SUBJECTS = /^(New photos in your galler|Files added to your gallery|Upload complete)/;
const notices = async (who: { email: string }) =>
  (await mailsTo(app, who.email)).filter((m) => UPLOAD_SUBJECTS.test(m.subject ?? ''));

/** The mails to `who` once the digest jobs due by now have run. */
async function afterTheWindow(who: { email: string }, count: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mails = await notices(who);
    const queue = (await app.services.jobs.stats()).find((q) => q.name === DIGEST_QUEUE);
    if ((mails.length >= count && queue?.queued === 0 && queue.active === 0) || Date.now() > deadline) return mails;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function crew() {
  const owner = await signedInUser(app);
  const member = await signedInUser(app);
  const gallery = await makeGallery(app, owner.cookie, { name: 'Harbour' });
  await shareWith(app, owner, member, gallery.id, 'write');
  return { owner, member, gallery };
}

async function memberAdds(member: SignedInUser, galleryId: string, name: string) {
  const file = await makeFile(app, member.id, name);
  const added = await send(app, member.cookie, 'POST', `/api/galleries/${galleryId}/items`, { fileIds: [file.id] });
  expect(added.status).toBe(201);
}

describe('upload e-mails', () => {
  it("gathers a member's five uploads to my gallery into one digest e-mail", async () => {
    const { owner, member, gallery } = await crew();
    await Promise.all([1, 2, 3, 4, 5].map((n) => memberAdds(member, gallery.id, `dock-${n}.jpg`)));
    // Five notices in the bell, at once.
    expect(await app.database.prisma.notification.count({ where: { userId: owner.id, type: 'file' } })).toBe(5);

    const mails = await afterTheWindow(owner, 1);
    expect(mails).toHaveLength(1);
    const [digest] = mails;
    expect(digest?.subject).toBe('New photos in your galleries (5 updates)');
    for (const n of [1, 2, 3, 4, 5]) expect(digest?.text).toContain(`"dock-${n}.jpg" to "Harbour"`);
    expect(digest?.html).toContain('/galleries/');
    // Nothing more after the window: every notice was in it.
    expect(await sendDigest(app.services, owner.id)).toBe(0);
    expect(await notices(owner)).toHaveLength(1);
  }, 300_000);

  it('sends nothing about my own uploads by default', async () => {
    const uploader = await signedInUser(app);
    await crewProject(app, 'Own', uploader);
    await uploadFile(app, uploader, { name: 'mine.jpg' });
    await uploadFile(app, uploader, { name: 'mine-too.jpg' });
    const gallery = await makeGallery(app, uploader.cookie, { name: 'Mine' });
    const file = await makeFile(app, uploader.id, 'own.jpg');
    await send(app, uploader.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [file.id] });
    // The bell says so; the inbox stays empty.
    expect(await app.database.prisma.notification.count({ where: { userId: uploader.id } })).toBe(1);
    expect(await afterTheWindow(uploader, 0)).toHaveLength(0);
  }, 300_000);

  it('sends one digest when two instances (or a job run again after a crash) send it at once', async () => {
    const { owner, member, gallery } = await crew();
    // The window's own job is held back: these runs stand for two instances and a rerun.
    await memberAdds(member, gallery.id, 'crane.jpg');
    await memberAdds(member, gallery.id, 'quay.jpg');
    const sent = await Promise.all([sendDigest(app.services, owner.id), sendDigest(app.services, owner.id)]);
    // At most one of them (or the window's own job, if it came first) sent the two.
    expect(sent.filter((n) => n > 0).length).toBeLessThanOrEqual(1);
    expect(await sendDigest(app.services, owner.id)).toBe(0);
    const mails = await afterTheWindow(owner, 1);
    expect(mails.map((m) => m.subject)).toEqual(['New photos in your galleries (2 updates)']);
  }, 300_000);

  it('sends no digest to someone who turned Email Notifications off', async () => {
    const { owner, member, gallery } = await crew();
    expect((await send(app, owner.cookie, 'PATCH', '/api/user/settings', { emailNotifications: false })).status).toBe(
      200,
    );
    await memberAdds(member, gallery.id, 'quiet.jpg');
    expect(await afterTheWindow(owner, 0)).toHaveLength(0);
  }, 300_000);
});
