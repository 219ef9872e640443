import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
// Each domain registers its types on the one builder when its module loads.
import '../users/types.ts';
import '../projects/types.ts';
import '../galleries/types.ts';
import '../tasks/types.ts';
import '../live/types.ts';
import '../assistant/types.ts';
import '../files/types.ts';
import '../notifications/types.ts';
import '../activity/types.ts';
import '../settings/types.ts';
import '../dashboard/types.ts';
import '../storage/types.ts';
import '../imports/types.ts';
import '../reviews/types.ts';
import '../auth/session-types.ts';

export const schema = builder.toSchema();

export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
