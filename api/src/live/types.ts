import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../graphql/builder.ts';
import type { AssistantDelta } from '../infra/events/pubsub.ts';
import { objectPathFor } from '../storage/uploads.ts';
import { oncePerEvent, ownEvents, ownEventsFromNow, unreadCountAfter, uploadProgressOf } from './rules.ts';

// Subscriptions carry only the subscriber's own events: every topic is keyed by the viewer's id,
// taken from the session that opened the subscription, never from an argument.

builder.subscriptionType({ description: 'Live updates for the signed-in user.' });

const NotificationAddedEvent = builder.objectRef<{ notificationId: string }>('NotificationAddedEvent').implement({
  description: 'A new notification for the signed-in user.',
  fields: (t) => ({
    notificationId: t.id({
      description: 'The global id of the Notification.',
      resolve: (e) => encodeGlobalID('Notification', e.notificationId),
    }),
    unreadCount: t.int({
      description: 'Unread notifications now, this one included.',
      resolve: (e, _args, ctx) => unreadCountAfter(ctx, e),
    }),
    notification: t.prismaField({
      type: 'Notification',
      nullable: true,
      description: 'The notification itself (null if it was deleted in the meantime).',
      // Rows shared by all of the person's subscriptions that select the same fields.
      resolve: (query, e, _args, ctx) =>
        oncePerEvent(ctx, e, `notification ${JSON.stringify(query)}`, () =>
          ctx.db.notification.findFirst({ ...query, where: { id: e.notificationId, userId: ctx.viewer.id } }),
        ),
    }),
  }),
});

builder.subscriptionField('notificationAdded', (t) =>
  t.field({
    type: NotificationAddedEvent,
    description: 'Each notification written for the signed-in user, as it is written.',
    subscribe: (_root, _args, ctx) => ownEvents(ctx, 'notification:added'),
    // The event itself travels on, so the person's other subscriptions share what it reads.
    resolve: (event) => event,
  }),
);

builder.subscriptionField('unreadNotificationCount', (t) =>
  t.int({
    description: 'How many notifications are unread: now, then each time it may have changed.',
    // The opening value is this subscription's own object; an event travels on as it came, so the
    // person's other subscriptions share its count.
    subscribe: (_root, _args, ctx) =>
      ownEventsFromNow<'notification:added' | 'notification:read', object>(
        ctx,
        ['notification:added', 'notification:read'],
        {},
      ),
    resolve: (event, _args, ctx) => unreadCountAfter(ctx, event),
  }),
);

const UploadProgress = builder
  .objectRef<{ uploadId: string; received: number; total: number; status: string }>('UploadProgress')
  .implement({
    description: 'How far one of the signed-in user’s uploads has come.',
    fields: (t) => ({
      uploadId: t.exposeID('uploadId'),
      received: t.exposeFloat('received', { description: 'Bytes received so far.' }),
      total: t.exposeFloat('total', { description: 'Bytes expected in all (0 when unknown).' }),
      percent: t.int({
        description: '0–100.',
        resolve: (p) => (p.total > 0 ? Math.min(100, Math.floor((p.received / p.total) * 100)) : 0),
      }),
      status: t.exposeString('status'),
    }),
  });

builder.subscriptionField('uploadProgress', (t) =>
  t.field({
    type: UploadProgress,
    description: 'Progress of the signed-in user’s uploads (only the one named, when uploadId is given).',
    args: { uploadId: t.arg.id({ required: false }) },
    subscribe: (_root, args, ctx) => uploadProgressOf(ctx, args.uploadId ? String(args.uploadId) : null),
    resolve: (p) => p,
  }),
);

const UploadProcessed = builder.objectRef<{ uploadId: string | null }>('UploadProcessed').implement({
  description: 'A picture the signed-in user uploaded was processed: its thumbnails and EXIF facts are there now.',
  fields: (t) => ({
    uploadId: t.exposeID('uploadId', {
      nullable: true,
      description:
        'Null on the opening event, sent once every later one is sure to arrive: read again, then, what you hold as still processing.',
    }),
    files: t.prismaField({
      type: ['File'],
      description: 'The signed-in user’s files holding these bytes, as they are now (none before the upload is filed).',
      resolve: (query, e, _args, ctx) => {
        const { uploadId } = e;
        if (uploadId === null) return [];
        return oncePerEvent(ctx, e, `files ${JSON.stringify(query)}`, () =>
          ctx.db.file.findMany({ ...query, where: { ownerId: ctx.viewer.id, objectPath: objectPathFor(uploadId) } }),
        );
      },
    }),
  }),
});

const OPENING = { uploadId: null };

builder.subscriptionField('uploadProcessed', (t) =>
  t.field({
    type: UploadProcessed,
    description:
      'First an opening event (no uploadId), then each of the signed-in user’s pictures whose thumbnails and EXIF facts were just made.',
    subscribe: (_root, _args, ctx) => ownEventsFromNow(ctx, ['upload:processed'], OPENING),
    resolve: (e) => e,
  }),
);

const AssistantReplyDelta = builder.objectRef<AssistantDelta>('AssistantReplyDelta').implement({
  description: 'A piece of the assistant’s reply as it is written.',
  fields: (t) => ({
    conversationId: t.id({
      description: 'The global id of the conversation (final even for a conversation the message starts).',
      resolve: (d) => encodeGlobalID('AssistantConversation', d.conversationId),
    }),
    streamId: t.exposeString('streamId', {
      nullable: true,
      description: 'The streamId the message was sent with, if any.',
    }),
    delta: t.exposeString('delta', { description: 'Text to append to the reply so far.' }),
    done: t.exposeBoolean('done', { description: 'True on the last piece.' }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Set on the last piece when the reply failed; nothing of it was saved.',
    }),
  }),
});

builder.subscriptionField('assistantReply', (t) =>
  t.field({
    type: AssistantReplyDelta,
    description:
      'The assistant’s replies to the signed-in user as they stream (optionally one conversation or stream).',
    args: {
      streamId: t.arg.string({ required: false }),
    },
    subscribe: (_root, args, ctx) =>
      ownEvents(ctx, 'assistant:delta', (d) => !args.streamId || d.streamId === args.streamId),
    resolve: (d) => d,
  }),
);
