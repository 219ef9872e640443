import { builder } from '../graphql/builder.ts';
import type { ImportProgress } from '../infra/events/pubsub.ts';
import { ownEvents } from '../live/rules.ts';

// Import jobs start over REST (POST /api/imports); their progress also streams here, so a page
// already subscribed over graphql-ws or SSE needs no polling.

const ImportFailure = builder.objectRef<{ name: string; message: string }>('ImportFailure').implement({
  description: 'A file an import could not bring in, and why.',
  fields: (t) => ({
    name: t.exposeString('name'),
    message: t.exposeString('message'),
  }),
});

const ImportProgressEvent = builder.objectRef<ImportProgress>('ImportProgress').implement({
  description: 'How far one of the signed-in user’s import jobs has come.',
  fields: (t) => ({
    jobId: t.exposeID('jobId', { description: 'The id of GET /api/imports/{id}.' }),
    status: t.exposeString('status', { description: 'running, completed or failed.' }),
    total: t.exposeInt('total', { description: 'Files chosen.' }),
    done: t.exposeInt('done', { description: 'Files handled so far, imported or failed.' }),
    failed: t.field({ type: [ImportFailure], resolve: (p) => p.failed }),
  }),
});

builder.subscriptionField('importProgress', (t) =>
  t.field({
    type: ImportProgressEvent,
    description: 'Progress of the signed-in user’s imports (only the one named, when jobId is given).',
    args: { jobId: t.arg.id({ required: false }) },
    subscribe: (_root, args, ctx) =>
      ownEvents(ctx, 'import:progress', (p) => !args.jobId || p.jobId === String(args.jobId)),
    resolve: (p) => p,
  }),
);
