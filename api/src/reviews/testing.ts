import { Readable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { signedInUser, type SignedInUser, type TestApp, testApp } from '../../test/harness.ts';
import { call, makeFile, makeGallery, shareWith } from '../galleries/testing.ts';

// Arrangements for the review tests and authorization rows (not part of the app).

export const PHOTO_BYTES = Buffer.from('not really a jpeg, but bytes all the same');

/** A gallery of `owner`'s holding one photo whose bytes are in the object store. */
export async function galleryWithPhoto(app: TestApp, owner: { id: string; cookie: string }, name = 'Review gallery') {
  const gallery = await makeGallery(app, owner.cookie, { name });
  const file = await makeFile(app, owner.id, 'loft.jpg');
  const added = await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [file.id] });
  if (added.status !== 201) throw new Error(`photo not added: ${added.status} ${JSON.stringify(added.body)}`);
  await app.storage.store.put(`uploads/${file.objectPath.split('/').pop()}`, Readable.from([PHOTO_BYTES]), {
    size: PHOTO_BYTES.length,
  });
  return { gallery, file };
}

export async function makeReviewLink(app: TestApp, cookie: string, galleryId: string, fields: object = {}) {
  const made = await call(app, cookie, 'POST', `/api/galleries/${galleryId}/review-links`, fields);
  if (made.status !== 201) throw new Error(`review link not made: ${made.status} ${JSON.stringify(made.body)}`);
  const link = made.body as { id: string; url: string };
  return { ...link, token: link.url.split('/r/')[1] as string };
}

export type LinkState = 'open' | 'revoked' | 'expired' | 'locked';

/** The owner's gallery with a photo and a review link in the given state. */
export async function reviewedGallery(app: TestApp, owner: { id: string; cookie: string }, state: LinkState = 'open') {
  const { gallery, file } = await galleryWithPhoto(app, owner);
  const link = await makeReviewLink(app, owner.cookie, gallery.id, state === 'locked' ? { password: 'hunter22' } : {});
  if (state === 'revoked') await call(app, owner.cookie, 'DELETE', `/api/review-links/${link.id}`);
  if (state === 'expired') {
    await app.database.prisma.reviewLink.update({
      where: { id: link.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
  }
  return { gallery, file, link, token: link.token };
}

/** The gallery shared with `editor` (write) and `reader` (read), each through a project of the owner's. */
export async function withCrew(
  app: TestApp,
  owner: { cookie: string },
  crew: { editor: { email: string; cookie: string }; reader: { email: string; cookie: string } },
  galleryId: string,
) {
  await shareWith(app, owner, crew.editor, galleryId, 'write');
  await shareWith(app, owner, crew.reader, galleryId, 'read');
}

/** A fresh app with four people signed in: the gallery's owner, an editor, a reader and an outsider. */
export async function appWithFourPeople(): Promise<{
  app: TestApp;
  owner: SignedInUser;
  editor: SignedInUser;
  reader: SignedInUser;
  outsider: SignedInUser;
}> {
  const app = await testApp();
  const [owner, editor, reader, outsider] = [
    await signedInUser(app),
    await signedInUser(app),
    await signedInUser(app),
    await signedInUser(app),
  ] as [SignedInUser, SignedInUser, SignedInUser, SignedInUser];
  return { app, owner, editor, reader, outsider };
}

export type FourPeople = Awaited<ReturnType<typeof appWithFourPeople>>;

/** One app with the four people for a whole test file: opened before its tests, closed after; `use` takes them. */
export function withFourPeople(use: (people: FourPeople) => void) {
  let app: TestApp | undefined;
  beforeAll(async () => {
    const people = await appWithFourPeople();
    app = people.app;
    use(people);
  }, 120_000);
  afterAll(() => app?.close());
}
