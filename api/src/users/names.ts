import type { Prisma } from '../generated/prisma/client.ts';

/** The person's name as others see it. */
export function nameOf(user: {
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string;
}) {
  return user.displayName ?? ([user.firstName, user.lastName].filter(Boolean).join(' ') || user.email);
}

export const userNameSelect = { displayName: true, firstName: true, lastName: true, email: true } as const;

/** Someone's name as others see it, read by id (the one who acts, for what they did). */
export async function personName(db: Pick<Prisma.TransactionClient, 'user'>, userId: string) {
  return nameOf(await db.user.findUniqueOrThrow({ where: { id: userId }, select: userNameSelect }));
}
