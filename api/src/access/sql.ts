import { Prisma } from '../generated/prisma/client.ts';

// The SQL form of a rule is built once, whichever way its statement carries the viewer's id:
// as a bound value of a Prisma.sql statement, or as a positional mark ('$1') of text sent
// through Db.$sql (the builder's `.sql` is then that text, since it holds no values).

/** The viewer's id in an SQL rule: viewerValue(id) or viewerMark('$1'). */
export type SqlViewer = Prisma.Sql;

/** The viewer's id bound as a value (Prisma.sql statements). */
export const viewerValue = (userId: string): SqlViewer => Prisma.sql`${userId}::uuid`;

/** The viewer's id as the positional parameter `mark` of a statement sent as text. */
export const viewerMark = (mark: string): SqlViewer => Prisma.raw(`${mark}::uuid`);

/** A table alias of the statement a rule goes into. */
export const sqlAlias = (alias: string) => Prisma.raw(alias);
