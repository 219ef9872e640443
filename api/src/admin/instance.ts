import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../infra/db/database.ts';

type Tx = Pick<Prisma.TransactionClient, '$executeRaw' | '$queryRaw'>;

/**
 * Makes a just-created account an administrator when it is the instance's only account: whoever
 * sets a fresh instance up can run it. Call it inside the transaction that created the user.
 * Two first sign-ups at once each see only their own uncommitted row, so the ones that find no
 * one else take turns on a lock, and the statement after it reads afresh (READ COMMITTED) whether
 * another account has been committed meanwhile. Any later account skips the lock.
 */
export async function makeAdminIfFirst(tx: Tx, userId: string): Promise<boolean> {
  const [others] = await tx.$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "User" WHERE id <> ${userId}::uuid) AS any`;
  if (others?.any) return false;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('scoutbase.first-administrator'))`;
  const promoted = await tx.$executeRaw`
    UPDATE "User" SET "isAdmin" = true
    WHERE id = ${userId}::uuid AND NOT EXISTS (SELECT 1 FROM "User" WHERE id <> ${userId}::uuid)`;
  return promoted > 0;
}

/** The settings administrators change at run time, with the operator's settings where none is set. */
export interface EffectiveInstanceSettings {
  allowSignup: boolean;
  requireTwoFactor: boolean;
}

export async function instanceSettings(
  db: Pick<Db, 'instanceSettings'>,
  defaults: { allowSignup: boolean },
): Promise<EffectiveInstanceSettings> {
  const row = await db.instanceSettings.findUnique({ where: { id: 1 } });
  return {
    allowSignup: row?.allowSignup ?? defaults.allowSignup,
    requireTwoFactor: row?.requireTwoFactor ?? false,
  };
}

/** Whether open sign-up is on now: an administrator's choice, else ALLOW_SIGNUP. */
export async function signUpOpen(db: Pick<Db, 'instanceSettings'>, configured: boolean): Promise<boolean> {
  return (await instanceSettings(db, { allowSignup: configured })).allowSignup;
}
