import { z } from 'zod';
import type { Viewer } from '../context.ts';
import type { Db } from '../infra/db/database.ts';
import { parse } from '../shared/validation.ts';
import { visibleUsersWhere } from '../access/rules.ts';
import { twoFactorRequiredFor } from '../auth/two-factor.ts';
import { NAME_MAX, type Profile } from './contract.ts';

// What a viewer may know of other people. Anyone reachable through something shared (who added a
// photo, who did something in a shared gallery) has a name on it; the e-mail address, which can
// be written to, goes only to the people visibleUsersWhere lets the viewer see.
const knownPeople = new WeakMap<object, Promise<Set<string>>>();

/** Whether the viewer may know this person's e-mail address. Asked once per request context. */
export async function mayKnowEmailOf(ctx: { db: Db; viewer: Viewer }, userId: string): Promise<boolean> {
  if (userId === ctx.viewer.id) return true;
  let known = knownPeople.get(ctx);
  if (!known) {
    known = ctx.db.user
      .findMany({ where: visibleUsersWhere(ctx.viewer.id), select: { id: true } })
      .then((rows) => new Set(rows.map((row) => row.id)));
    knownPeople.set(ctx, known);
  }
  return (await known).has(userId);
}

/** A person's e-mail address, or null when the viewer may not know it. */
export async function emailFor(ctx: { db: Db; viewer: Viewer }, user: { id: string; email: string }) {
  return (await mayKnowEmailOf(ctx, user.id)) ? user.email : null;
}

type Named = { displayName: string | null; firstName: string | null; lastName: string | null };

/** The name to show: the display name, else first and last name, else the e-mail when it may be known. */
export function nameToShow(user: Named, email: string | null) {
  return user.displayName || [user.firstName, user.lastName].filter(Boolean).join(' ') || email || 'Someone';
}

/** The shape of GET /api/auth/user. */
export async function profileOf(db: Db, userId: string): Promise<Profile> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      id: true,
      email: true,
      firstName: true,
      lastName: true,
      displayName: true,
      profileImageUrl: true,
      createdAt: true,
      twoFactorEnabledAt: true,
      isAdmin: true,
      emailVerified: true,
    },
  });
  const { twoFactorEnabledAt, emailVerified, ...shown } = user;
  return {
    ...shown,
    displayName: user.displayName ?? ([user.firstName, user.lastName].filter(Boolean).join(' ') || user.email),
    createdAt: user.createdAt.toISOString(),
    twoFactorEnabled: twoFactorEnabledAt !== null,
    emailVerified: emailVerified !== null,
    twoFactorRequired: !twoFactorEnabledAt && (await twoFactorRequiredFor(db, userId)),
  };
}

const nameField = (label: string) =>
  z
    .string()
    .trim()
    .max(NAME_MAX, `${label} is too long.`)
    .transform((v) => (v === '' ? null : v))
    .nullish();

export const profileInput = z.object({
  // The name others see and the avatar's letters come from: when sent, it must say something.
  firstName: z.preprocess(
    (v) => (v === null ? '' : v),
    z.string().trim().min(1, 'First name is required.').max(NAME_MAX, 'First name is too long.').optional(),
  ),
  lastName: nameField('Last name'),
});

/** Changes the viewer's own first and last name. */
export async function updateProfile(db: Db, viewer: Viewer, input: z.input<typeof profileInput>) {
  const data = parse(profileInput, input);
  return db.user.update({
    where: { id: viewer.id },
    data: {
      ...(data.firstName !== undefined && { firstName: data.firstName }),
      ...(data.lastName !== undefined && { lastName: data.lastName }),
    },
  });
}
