import type { ActivityAction, Prisma, ResourceType } from '../generated/prisma/client.ts';
import type { Db } from '../infra/db/database.ts';

export interface ActivityInput {
  userId: string;
  action: ActivityAction;
  resourceType: ResourceType;
  resourceId?: string | null;
  resourceName: string;
  /** e.g. { size } in bytes for files, { sharedWith } for shares. */
  metadata?: Prisma.InputJsonObject;
}

/**
 * Records what a user did: the dashboard's feed and the audit trail. Pass the transaction the
 * action runs in, so the record and the action are written together or not at all.
 */
export async function recordActivity(db: Db | Prisma.TransactionClient, input: ActivityInput) {
  await db.activity.create({
    data: {
      userId: input.userId,
      action: input.action,
      resourceType: input.resourceType,
      resourceId: input.resourceId ?? null,
      resourceName: input.resourceName,
      metadata: input.metadata ?? {},
    },
  });
}
