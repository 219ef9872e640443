import { builder } from '../graphql/builder.ts';
import { listSessions, type SessionSummary } from './session-control.ts';

const SignedInSessionObject = builder.objectRef<SessionSummary>('SignedInSession').implement({
  description: 'A browser or device signed in to this account (GET /api/auth/sessions answers the same).',
  fields: (t) => ({
    id: t.exposeID('id'),
    current: t.exposeBoolean('current', { description: 'The session of this request.' }),
    userAgent: t.exposeString('userAgent', { nullable: true }),
    ip: t.exposeString('ip', { nullable: true, description: 'The address it signed in from.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it signed in.' }),
    lastSeenAt: t.expose('lastSeenAt', {
      type: 'DateTime',
      description: 'When it was last used, to the hour: it moves forward at most once an hour.',
    }),
  }),
});

builder.prismaObjectField('User', 'sessions', (t) =>
  t.field({
    type: [SignedInSessionObject],
    nullable: true,
    description:
      'Where this account is signed in, the current session first. Only for the signed-in user themselves; null on anyone else.',
    select: { id: true },
    resolve: (user, _args, ctx) => (user.id === ctx.viewer.id ? listSessions(ctx.db, ctx.viewer) : null),
  }),
);
