import { z } from 'zod';
import type { Services, Viewer } from '../context.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import { projectMemberWhere } from '../access/rules.ts';
import { recordAudit } from '../auth/audit.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { endSessions } from '../auth/session-control.ts';
import { requireSecondFactor, SecondFactorError, twoFactorKey } from '../auth/two-factor.ts';
import type { SignInGate } from '../auth/throttle.ts';
import { lockFor, TX } from '../files/shared.ts';
import { publishNotifications, writeNotification } from '../notifications/rules.ts';
import { announceAccessChange } from '../projects/rules.ts';
import { DELETED_USER } from '../reviews/feedback.ts';
import { ConflictError, TooManyRequestsError, ValidationError } from '../shared/errors.ts';
import { sameEmail } from '../shared/email.ts';
import { parse } from '../shared/validation.ts';
import { removeTusLeftovers } from '../storage/rules.ts';
import { nameToShow } from '../users/rules.ts';

// A person's own data (the Privacy Policy's access and deletion): deleting the account with what it
// holds here, everything of theirs as one ZIP in export.ts. Both act only on the signed-in person:
// no id is ever taken from the request.

export interface AccountDeps extends Services {
  store: ObjectStore;
  /** The instance secret: two-factor secrets are sealed under a key derived from it. */
  secret: string;
  /** Sign-in's throttle: a wrong password here counts as a failed sign-in. */
  gate: SignInGate;
}

/** Where a request came from, for the audit log. */
export interface Origin {
  ipAddress: string | null;
  userAgent: string | null;
}

/** How others see a person: a name only, never an address (the export carries no one else's data). */
export const nameSelect = { displayName: true, firstName: true, lastName: true } as const;
type Named = { displayName: string | null; firstName: string | null; lastName: string | null };
export const nameOf = (user: Named | null | undefined) => (user ? nameToShow(user, null) : DELETED_USER);

// ───────────────────────────── deletion ─────────────────────────────

/** What deleting a project of the person does to it: handed to a co-owner, or deleted with them. */
interface ProjectFate {
  id: string;
  name: string;
  members: number;
  /** The co-owner who takes it over; null: the project is deleted. */
  newOwner: { id: string; name: string } | null;
}

/**
 * The projects the person created: each goes to its longest-standing other owner, or, with no
 * other owner, is deleted with the account (its galleries' shares and invitations with it).
 */
async function projectFates(db: Prisma.TransactionClient, userId: string): Promise<ProjectFate[]> {
  const projects = await db.project.findMany({
    where: { ownerId: userId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      name: true,
      members: {
        where: { userId: { not: userId } },
        orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
        select: { userId: true, role: true, user: { select: nameSelect } },
      },
    },
  });
  return projects.map((p) => {
    const heir = p.members.find((m) => m.role === 'owner');
    return {
      id: p.id,
      name: p.name,
      members: p.members.length,
      newOwner: heir ? { id: heir.userId, name: nameOf(heir.user) } : null,
    };
  });
}

export interface DeletionPreview {
  email: string;
  /** Without a password (an identity provider's account), the typed address confirms instead. */
  hasPassword: boolean;
  twoFactor: boolean;
  files: number;
  bytes: number;
  folders: number;
  galleries: number;
  tasks: number;
  reviewLinks: number;
  comments: number;
  projectsDeleted: { id: string; name: string; members: number }[];
  projectsHandedOver: { id: string; name: string; newOwner: { id: string; name: string } }[];
  /** The last administrator of an instance with other people cannot leave it without one. */
  blocked: string | null;
}

const LAST_ADMIN =
  'You are the only administrator of this Scoutbase. Make someone else an administrator before you delete your account.';

/** Why the person may not delete their account now, or null. */
async function deletionBlocked(db: Prisma.TransactionClient, userId: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { isAdmin: true } });
  if (!user.isAdmin) return null;
  const [admins, others] = await Promise.all([
    db.user.count({ where: { id: { not: userId }, isAdmin: true, disabledAt: null } }),
    db.user.count({ where: { id: { not: userId } } }),
  ]);
  return admins === 0 && others > 0 ? LAST_ADMIN : null;
}

/** GET /api/account/deletion-preview: what deleting the account would remove and hand over. */
export async function deletionPreview(deps: Pick<Services, 'db'>, viewer: Viewer): Promise<DeletionPreview> {
  const { db } = deps;
  const userId = viewer.id;
  const [user, files, folders, galleries, tasks, reviewLinks, comments, fates, blocked] = await Promise.all([
    db.user.findUniqueOrThrow({
      where: { id: userId },
      select: { email: true, passwordHash: true, twoFactorEnabledAt: true },
    }),
    db.storageUsage.findUnique({ where: { userId } }).then(async (usage) => ({
      count: await db.file.count({ where: { ownerId: userId } }),
      bytes: Number(usage?.usedBytes ?? 0n),
    })),
    db.folder.count({ where: { ownerId: userId } }),
    db.gallery.count({ where: { ownerId: userId } }),
    db.task.count({ where: { creatorId: userId } }),
    db.reviewLink.count({ where: { createdById: userId } }),
    db.photoComment.count({ where: { authorId: userId, gallery: { ownerId: { not: userId } } } }),
    projectFates(db, userId),
    deletionBlocked(db, userId),
  ]);
  return {
    email: user.email,
    hasPassword: user.passwordHash !== null,
    twoFactor: user.twoFactorEnabledAt !== null,
    files: files.count,
    bytes: files.bytes,
    folders,
    galleries,
    tasks,
    reviewLinks,
    comments,
    projectsDeleted: fates.filter((f) => !f.newOwner).map(({ id, name, members }) => ({ id, name, members })),
    projectsHandedOver: fates.flatMap(({ id, name, newOwner }) => (newOwner ? [{ id, name, newOwner }] : [])),
    blocked,
  };
}

export const deleteAccountInput = z.strictObject({
  password: z.string({ error: 'password must be text.' }).max(1000).optional(),
  code: z.string({ error: 'code must be text.' }).max(100).optional(),
  /** For an account without a password: the person's own e-mail address, typed again. */
  confirm: z.string({ error: 'confirm must be text.' }).max(320).optional(),
});

/**
 * Proves the request is the person and not just their open session: the password (or, without
 * one, their address typed again) and, with two-factor on, a code. A wrong password counts as a
 * failed sign-in in sign-in's throttle.
 */
async function confirmIdentity(deps: AccountDeps, viewer: Viewer, input: unknown, origin: Origin) {
  const data = parse(deleteAccountInput, input ?? {});
  const user = await deps.db.user.findUniqueOrThrow({
    where: { id: viewer.id },
    select: {
      id: true,
      email: true,
      passwordHash: true,
      twoFactorEnabledAt: true,
      twoFactorSecret: true,
      ...nameSelect,
    },
  });
  const address = origin.ipAddress ?? undefined;
  if (user.passwordHash) {
    if (!data.password) throw new ValidationError('Enter your password to delete your account.', 'password');
    const wait = await deps.gate.enter(user.email, address);
    if (wait > 0) throw new TooManyRequestsError(`Too many failed attempts. Try again in ${wait} seconds.`, wait);
    if (!(await verifyPassword(data.password, user.passwordHash))) {
      await recordAudit(deps.db, {
        action: 'sign_in_failed',
        actor: { id: user.id, email: user.email },
        ...origin,
        metadata: { reason: 'account_deletion_password' },
      });
      throw new ValidationError('Your password is not right.', 'password');
    }
  } else {
    if (!data.confirm || !sameEmail(data.confirm.trim(), user.email)) {
      throw new ValidationError('Type your e-mail address to confirm.', 'confirm');
    }
  }
  try {
    await requireSecondFactor(deps.db, twoFactorKey(deps.secret), user, data.code, origin);
  } catch (error) {
    if (error instanceof SecondFactorError) throw new ValidationError(error.message, 'code');
    throw error;
  }
  if (user.passwordHash) await deps.gate.succeeded(user.email, address);
  return user;
}

export interface DeletedAccount {
  deleted: true;
  files: number;
  galleries: number;
  projectsDeleted: number;
  projectsHandedOver: number;
}

/**
 * DELETE /api/account: the person's files (and their stored bytes), folders, galleries, review
 * links and tasks go; a project they created goes to its longest-standing other owner or is
 * deleted; their comments on others' galleries stay, signed "Deleted user" (PhotoComment.author
 * is SetNull). One transaction for the records; the sessions end and the sockets close after.
 */
export async function deleteAccount(
  deps: AccountDeps,
  viewer: Viewer,
  input: unknown,
  origin: Origin,
): Promise<DeletedAccount> {
  const user = await confirmIdentity(deps, viewer, input, origin);
  const userId = user.id;
  const done = await deps.db.$transaction(async (tx) => {
    // Two administrators leaving at once must not both see the other one stay.
    await lockFor(tx, 'instance-administrators');
    // Uploads of this person (quota reservations) wait for the row, and see it gone after.
    await tx.$executeRaw`SELECT id FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
    const blocked = await deletionBlocked(tx, userId);
    if (blocked) throw new ConflictError(blocked);

    const fates = await projectFates(tx, userId);
    // Who will want to know: the crews of the projects that change hands or go, and of the
    // projects the person's galleries were shared with.
    const touched = await tx.projectMember.findMany({
      where: {
        userId: { not: userId },
        project: {
          OR: [{ ownerId: userId }, { shares: { some: { gallery: { ownerId: userId } } } }, projectMemberWhere(userId)],
        },
      },
      select: { userId: true, projectId: true },
    });
    for (const fate of fates) {
      if (!fate.newOwner) continue;
      await tx.project.update({ where: { id: fate.id }, data: { ownerId: fate.newOwner.id } });
      // Their invitations stay, sent now in the new owner's name.
      await tx.invitation.updateMany({
        where: { projectId: fate.id, invitedById: userId },
        data: { invitedById: fate.newOwner.id },
      });
    }
    const gone = fates.filter((f) => !f.newOwner).map((f) => f.id);
    // The crews hear what became of their projects.
    // Their crew may know their address (users/rules.ts mayKnowEmailOf): it names someone without a name.
    const leaver = nameToShow(user, user.email);
    const notices = [];
    for (const fate of fates) {
      const crew = await tx.projectMember.findMany({
        where: { projectId: fate.id, userId: { not: userId } },
        select: { userId: true },
      });
      for (const { userId: memberId } of crew) {
        const message = !fate.newOwner
          ? `The project "${fate.name}" was deleted with the account of ${leaver}, its owner.`
          : memberId === fate.newOwner.id
            ? `${leaver} deleted their account: you now own the project "${fate.name}".`
            : `${leaver} deleted their account: ${fate.newOwner.name} now owns the project "${fate.name}".`;
        notices.push(
          await writeNotification(tx, {
            userId: memberId,
            type: 'team',
            title: fate.newOwner ? 'A project changed hands' : 'A project was deleted',
            message,
            link: '/projects',
          }),
        );
      }
    }
    if (gone.length > 0) await tx.project.deleteMany({ where: { id: { in: gone } } });

    // What stays in places that are not theirs keeps a holder who stays: the gallery's owner for
    // photos they added and shares they made, the project's owner for invitations they sent, the
    // file's owner for versions they uploaded.
    await tx.$executeRaw`UPDATE "GalleryItem" i SET "addedById" = g."ownerId" FROM "Gallery" g
      WHERE i."galleryId" = g.id AND i."addedById" = ${userId}::uuid AND g."ownerId" <> ${userId}::uuid`;
    await tx.$executeRaw`UPDATE "GalleryShare" s SET "sharedById" = g."ownerId" FROM "Gallery" g
      WHERE s."galleryId" = g.id AND s."sharedById" = ${userId}::uuid AND g."ownerId" <> ${userId}::uuid`;
    await tx.$executeRaw`UPDATE "Invitation" i SET "invitedById" = p."ownerId" FROM "Project" p
      WHERE i."projectId" = p.id AND i."invitedById" = ${userId}::uuid AND p."ownerId" <> ${userId}::uuid`;
    await tx.$executeRaw`UPDATE "FileVersion" v SET "createdById" = f."ownerId" FROM "File" f
      WHERE v."fileId" = f.id AND v."createdById" = ${userId}::uuid AND f."ownerId" <> ${userId}::uuid`;

    // Files the way a file delete removes them (files/shared.ts removeFiles), in bulk and without
    // an activity row each (the activity goes with the account).
    // By owner, not by a list of ids: a library of 50,000 files is more ids than one statement takes.
    const theirs = { file: { ownerId: userId } };
    await tx.gallery.updateMany({ where: { coverImage: { ownerId: userId } }, data: { coverImageId: null } });
    await tx.galleryItem.deleteMany({ where: theirs });
    await tx.fileVersion.deleteMany({ where: theirs });
    const files = await tx.file.deleteMany({ where: { ownerId: userId } });
    // A folder's parent link refuses to dangle: cut the tree before it goes.
    await tx.folder.updateMany({ where: { ownerId: userId }, data: { parentId: null } });
    await tx.folder.deleteMany({ where: { ownerId: userId } });
    const galleries = await tx.gallery.deleteMany({ where: { ownerId: userId } });
    await tx.reviewLink.deleteMany({ where: { createdById: userId } });
    await tx.task.deleteMany({ where: { creatorId: userId } });

    // The bytes: every upload row goes with the account (Upload.user cascades), so the keys are
    // taken now and the objects removed once this commits. A crash in between leaves objects
    // without a row, which the cleanup pass's orphan sweep removes after the grace period.
    const uploads = await tx.upload.findMany({ where: { userId }, select: { id: true, objectKey: true } });
    await tx.user.delete({ where: { id: userId } });
    // The quota's rows: the triggers emptied them as the rows holding bytes went.
    await tx.storedObject.deleteMany({ where: { ownerId: userId } });
    await tx.storageUsage.deleteMany({ where: { userId } });

    const summary = {
      files: files.count,
      galleries: galleries.count,
      projectsDeleted: gone.length,
      projectsHandedOver: fates.length - gone.length,
    };
    await recordAudit(tx, {
      action: 'account_deleted',
      actor: { id: userId, email: user.email },
      ...origin,
      metadata: summary,
    });
    return { summary, uploads, touched, notices };
  }, TX);

  // Every session already went with the account; this closes their live sockets on every instance.
  await endSessions(deps, { userId }).catch((error: unknown) =>
    deps.logger?.error({ err: error }, 'could not announce the ended sessions of a deleted account'),
  );
  publishNotifications(deps, done.notices);
  const byProject = new Map<string, string[]>();
  for (const m of done.touched) byProject.set(m.projectId, [...(byProject.get(m.projectId) ?? []), m.userId]);
  for (const [projectId, members] of byProject) {
    await announceAccessChange(deps, members, { kind: 'membership', projectId, galleriesChanged: true });
  }
  await removeObjects(deps, done.uploads);
  return { deleted: true, ...done.summary };
}

/** Removes the objects (and their thumbnails) of uploads whose rows are gone. */
async function removeObjects(deps: AccountDeps, uploads: { id: string; objectKey: string }[]) {
  for (const upload of uploads) {
    try {
      await deps.store.deletePrefix(upload.objectKey);
      await removeTusLeftovers(deps.config.dataDir, upload.id);
    } catch (error) {
      // The orphan sweep of the cleanup pass removes what is left after the grace period.
      deps.logger?.error({ err: error, uploadId: upload.id }, 'could not remove the bytes of a deleted account');
    }
  }
}
