import { expect } from 'vitest';
import type { AccessCase, AccessHarness, AccessRole } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';
import { call } from '../galleries/testing.ts';
import { type LinkState, makeReviewLink, reviewedGallery, withCrew } from './testing.ts';

// Who may reach each review path. Members' paths: owner and editors manage links, every member
// comments and reads comments and picks, a stranger gets a 404. Public paths: only an open link
// answers; a revoked, expired or made-up token is a 404 to anyone, and a locked link asks for its
// password (401 with a message).

const db = (t: AccessHarness) => t.app.database.prisma;

async function crewGallery(t: AccessHarness, state: LinkState = 'open') {
  const arranged = await reviewedGallery(t.app, t.owner, state);
  await withCrew(t.app, t.owner, t, arranged.gallery.id);
  return arranged;
}

/** The same, with a reviewer's comment and pick on its photo, so reading them has something to read. */
async function reviewedCrewGallery(t: AccessHarness) {
  const arranged = await crewGallery(t);
  const { token, file } = arranged;
  const comment = await call(t.app, undefined, 'POST', `/api/review/${token}/comments`, {
    fileId: file.id,
    name: 'Dana',
    body: 'Love it',
  });
  const pick = await call(t.app, undefined, 'PUT', `/api/review/${token}/picks/${file.id}`, {
    name: 'Dana',
    pick: 'yes',
  });
  if (comment.status !== 201 || pick.status !== 200)
    throw new Error(`feedback not arranged: ${comment.status} ${pick.status}`);
  return arranged;
}

type Crew = Awaited<ReturnType<typeof crewGallery>>;
type Row = Parameters<typeof accessCase<Crew>>[0];

// Who gets what on a members' path: the owner and the editor manage, or the whole crew may.
const EDITORS_ONLY = { owner: 'allowed', editor: 'allowed', reader: 'forbidden', stranger: 'not-found' } as const;
const WHOLE_CREW = { owner: 'allowed', editor: 'allowed', reader: 'allowed', stranger: 'not-found' } as const;

/** One row per role for a members' path: what each of them gets. */
function members(
  route: string,
  what: string,
  asks: NonNullable<Row['asks']>,
  expected: Partial<Record<AccessRole, AccessCase['expect']>>,
  unchanged?: Row['unchanged'],
  given: (t: AccessHarness) => Promise<Crew> = crewGallery,
): AccessCase[] {
  return Object.entries(expected).map(([role, expect]) =>
    accessCase<Crew>({
      route,
      name: `${role}: ${what}`,
      as: role as AccessRole,
      given,
      asks,
      expect,
      ...(expect !== 'allowed' && unchanged && { unchanged }),
    }),
  );
}

/** The whole crew reads at a gallery route (`:id` filled in) of a gallery with feedback; a stranger may not. */
function crewReads(route: string, what: string) {
  const path = route.slice(route.indexOf(' ') + 1);
  const asks: NonNullable<Row['asks']> = ({ gallery }) => path.replace(':id', gallery.id);
  return members(route, what, asks, WHOLE_CREW, undefined, reviewedCrewGallery);
}

const linkStillOpen: Row['unchanged'] = async (t, { link }) => {
  expect((await db(t).reviewLink.findUniqueOrThrow({ where: { id: link.id } })).revokedAt).toBeNull();
};

const noComments: Row['unchanged'] = async (t, { gallery }) => {
  expect(await db(t).photoComment.count({ where: { galleryId: gallery.id } })).toBe(0);
};

/** Rows for a public path: an open link answers anyone; revoked, expired, made-up and locked ones do not. */
function reviewers(
  route: string,
  what: string,
  asks: (token: string, given: Awaited<ReturnType<typeof crewGallery>>) => string | { path: string; body?: unknown },
  open: AccessCase['expect'] = 'allowed',
): AccessCase[] {
  const row = (state: LinkState, name: string, expect: AccessCase['expect'], madeUp = false) =>
    accessCase({
      route,
      name: `anonymous, ${name}: ${what}`,
      as: 'anonymous',
      given: (t) => reviewedGallery(t.app, t.owner, state),
      asks: (given) => asks(madeUp ? 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' : given.token, given),
      expect,
    });
  return [
    row('open', 'an open link', open),
    row('revoked', 'a revoked link', 'not-found'),
    row('expired', 'an expired link', 'not-found'),
    row('open', 'a made-up token', 'not-found', true),
    row('locked', 'a password link not unlocked', 'unauthorized'),
  ];
}

export const accessCases: AccessCase[] = [
  ...members(
    'POST /api/galleries/:id/review-links',
    'makes a review link',
    ({ gallery }) => ({ path: `/api/galleries/${gallery.id}/review-links`, body: { label: 'Director' } }),
    EDITORS_ONLY,
    async (t, { gallery }) => {
      expect(await db(t).reviewLink.count({ where: { galleryId: gallery.id } })).toBe(1);
    },
  ),
  ...members(
    'GET /api/galleries/:id/review-links',
    'lists the review links',
    ({ gallery }) => `/api/galleries/${gallery.id}/review-links`,
    EDITORS_ONLY,
  ),
  ...members(
    'DELETE /api/review-links/:id',
    'revokes a review link',
    ({ link }) => `/api/review-links/${link.id}`,
    EDITORS_ONLY,
    linkStillOpen,
  ),
  ...crewReads('GET /api/galleries/:id/comments', 'reads the comments'),
  ...members(
    'POST /api/galleries/:id/comments',
    'comments on a photo',
    ({ gallery, file }) => ({
      path: `/api/galleries/${gallery.id}/comments`,
      body: { fileId: file.id, body: 'Nice light' },
    }),
    WHOLE_CREW,
    noComments,
  ),
  ...crewReads('GET /api/galleries/:id/picks', 'reads the picks'),
  ...crewReads('GET /api/galleries/:id/feedback', 'reads the feedback totals'),
  // Only photos one added oneself go into a gallery of one's own: the crew's picks are the owner's photos.
  ...members(
    'POST /api/galleries/:id/from-picks',
    'makes a new gallery from the picks',
    ({ gallery }) => ({ path: `/api/galleries/${gallery.id}/from-picks`, body: {} }),
    { owner: 'allowed', editor: 'forbidden', reader: 'forbidden', stranger: 'not-found' },
    async (t, { file }) => {
      expect(await db(t).galleryItem.count({ where: { fileId: file.id } })).toBe(1);
    },
    reviewedCrewGallery,
  ),
  accessCase({
    route: 'POST /api/galleries/:id/comments',
    name: 'stranger: cannot comment on a photo of a gallery they cannot see, through their own gallery either',
    async given(t) {
      const owners = await reviewedGallery(t.app, t.owner);
      const theirs = await call(t.app, t.stranger.cookie, 'POST', '/api/galleries', { name: 'Mine' });
      return { ...owners, theirs: theirs.body as { id: string } };
    },
    asks: ({ theirs, file }) => ({
      path: `/api/galleries/${theirs.id}/comments`,
      body: { fileId: file.id, body: 'x' },
    }),
    expect: 'not-found',
    async unchanged(t, { file }) {
      expect(await db(t).photoComment.count({ where: { fileId: file.id } })).toBe(0);
    },
  }),

  ...reviewers('GET /api/review/:token', 'opens the gallery', (token) => `/api/review/${token}`),
  // The page's live channel: an open link's stays open (reviews/live.test.ts), so only the refusals here.
  ...reviewers('GET /api/review/:token/events', 'hears the link end', (token) => `/api/review/${token}/events`).slice(
    1,
  ),
  ...reviewers('POST /api/review/:token/comments', 'comments', (token, { file }) => ({
    path: `/api/review/${token}/comments`,
    body: { fileId: file.id, name: 'Dana', body: 'Love the windows' },
  })),
  ...reviewers('PUT /api/review/:token/picks/:fileId', 'picks', (token, { file }) => ({
    path: `/api/review/${token}/picks/${file.id}`,
    body: { name: 'Dana', pick: 'yes' },
  })),
  ...reviewers(
    'GET /api/review/:token/photos/:fileId',
    'loads a photo',
    (token, { file }) => `/api/review/${token}/photos/${file.id}`,
  ),
  // A link without downloads opens the gallery but not its package.
  ...reviewers(
    'GET /api/review/:token/export.zip',
    'downloads the ZIP',
    (token) => `/api/review/${token}/export.zip`,
    'forbidden',
  ),
  ...reviewers(
    'GET /api/review/:token/export.pdf',
    'downloads the PDF',
    (token) => `/api/review/${token}/export.pdf`,
    'forbidden',
  ),
  ...(['zip', 'pdf'] as const).map((kind) =>
    accessCase({
      route: `GET /api/review/:token/export.${kind}`,
      name: `anonymous, an open link with downloads: downloads the ${kind.toUpperCase()}`,
      as: 'anonymous',
      async given(t) {
        const { gallery } = await reviewedGallery(t.app, t.owner);
        return makeReviewLink(t.app, t.owner.cookie, gallery.id, { allowDownload: true });
      },
      asks: ({ token }) => `/api/review/${token}/export.${kind}`,
      expect: 'allowed',
    }),
  ),
  // Unlocking checks the password before anything else; a link without one unlocks as is.
  ...reviewers('POST /api/review/:token/unlock', 'unlocks with a wrong password', (token) => ({
    path: `/api/review/${token}/unlock`,
    body: { password: 'not-it' },
  })),
];
