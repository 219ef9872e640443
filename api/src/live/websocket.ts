import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import { type ExecutionArgs, GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Viewer } from '../context.ts';
import type { GraphQLContext } from '../graphql/builder.ts';
import { UNEXPECTED_ERROR } from '../graphql/errors.ts';
import type { OperationParams, OperationRule } from '../graphql/guards.ts';
import type { Metrics } from '../infra/metrics.ts';
import type { Events } from '../infra/events/pubsub.ts';
import { listenForEndedSessions, sessionEnded } from '../auth/session-control.ts';

/** What the socket server asks of the app (app.ts's App is one): it reaches no domain itself. */
export interface SubscriptionHost {
  config: Pick<Config, 'publicUrl'>;
  logger: Logger;
  metrics: Pick<Metrics, 'websocketOpened' | 'websocketClosed'>;
  /** Who an upgrade request is from, by its session cookie or access token. */
  viewerFor(headers: Headers): Promise<Viewer | null>;
  /** Whether a session still holds (not signed out, expired or of a deleted account). */
  sessionIsCurrent(sessionId: string): Promise<boolean>;
  /** Where ended sessions are announced ('sessions:ended'), from any instance. */
  services: { events: Events };
  yoga: YogaServerInstance<{ viewer: Viewer; clientAddress?: string; requestId?: string }, GraphQLContext>;
  graphqlOperation: OperationRule;
}

type Enveloped = ReturnType<SubscriptionHost['yoga']['getEnveloped']>;

/** An error as HTTP answers it: yoga's HTTP status hints stay on the server. */
function forSocket(error: GraphQLError): GraphQLError {
  if (!error.extensions?.http) return error;
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}

/** Whether the upgrade came from the app's own origin (or from no browser page at all). */
function sameSite(headers: Record<string, string | string[] | undefined>, publicUrl: string | undefined) {
  const origin = headers.origin;
  if (typeof origin !== 'string') return true;
  try {
    if (publicUrl) return new URL(origin).origin === new URL(publicUrl).origin;
    const forwarded = headers['x-forwarded-host'];
    const host = (typeof forwarded === 'string' ? forwarded.split(',')[0]?.trim() : undefined) ?? headers.host;
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * GraphQL over WebSocket (graphql-ws) on the app's own HTTP server and path (/graphql), for
 * browsers that subscribe to live updates. A connection is admitted only for a signed-in person:
 * the session cookie of the upgrade request, or the short-lived token of GET
 * /api/auth/firebase-token sent as the connection's `token` (or `Authorization: Bearer …`) param.
 */
export function attachSubscriptions(
  server: Server | Http2Server | Http2SecureServer,
  app: SubscriptionHost,
  { sessionCheckMs = 30_000 }: { sessionCheckMs?: number } = {},
) {
  const wss = new WebSocketServer({ server: server as Server, path: '/graphql' });
  const viewers = new WeakMap<object, Viewer>();
  wss.on('connection', (socket) => {
    app.metrics.websocketOpened();
    socket.once('close', () => app.metrics.websocketClosed());
  });

  // A socket outlives the request that opened it: once its session ends (sign-out, expiry, a
  // deleted account) it is closed, so a signed-out browser stops hearing the user's events.
  // One look-up per session, not per socket: a person's many tabs share one session.
  const sessionCheck = setInterval(() => {
    const socketsBySession = new Map<string, WebSocket[]>();
    for (const socket of wss.clients) {
      const viewer = viewers.get(socket);
      if (!viewer) continue;
      const sockets = socketsBySession.get(viewer.sessionId);
      if (sockets) sockets.push(socket);
      else socketsBySession.set(viewer.sessionId, [socket]);
    }
    for (const [sessionId, sockets] of socketsBySession) {
      app
        .sessionIsCurrent(sessionId)
        .then((current) => {
          if (!current) for (const socket of sockets) socket.close(4401, 'Unauthorized');
        })
        .catch((error) => app.logger.warn({ err: error }, 'could not check a subscription session'));
    }
  }, sessionCheckMs);
  sessionCheck.unref();

  // Signed out elsewhere, a password reset, a disabled account: the sockets of those sessions close
  // now, not at the next check (4403, as for a socket refused at the door: the client signs in again).
  const stopListening = listenForEndedSessions(app.services.events, (ended) => {
    for (const socket of wss.clients) {
      const viewer = viewers.get(socket);
      if (viewer && sessionEnded(ended, viewer)) socket.close(4403, 'Forbidden');
    }
  });

  const disposable = useServer<Record<string, unknown> | undefined>(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args as ExecutionArgs),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args as ExecutionArgs),
      onConnect: async (ctx) => {
        const headers = new Headers();
        const cookie = ctx.extra.request.headers.cookie;
        if (cookie) headers.set('cookie', cookie);
        const params = ctx.connectionParams ?? {};
        const bearer =
          (typeof params.token === 'string' && params.token) ||
          (typeof params.authorization === 'string' && params.authorization.replace(/^Bearer\s+/i, '')) ||
          (typeof params.Authorization === 'string' && params.Authorization.replace(/^Bearer\s+/i, ''));
        if (bearer) headers.set('authorization', `Bearer ${bearer}`);
        // Cross-site WebSocket hijacking: a page elsewhere may open a socket that carries the
        // session cookie. Cookie connections must come from the app's own pages (a token is not
        // ambient, so it may connect from anywhere).
        if (!bearer && !sameSite(ctx.extra.request.headers, app.config.publicUrl)) return false;
        const viewer = await app.viewerFor(headers).catch(() => null);
        if (!viewer) return false; // closes with 4403 Forbidden
        viewers.set(ctx.extra.socket, viewer);
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const viewer = viewers.get(ctx.extra.socket);
        if (!viewer) return [new GraphQLError('Unauthorized', { extensions: { code: 'UNAUTHENTICATED' } })];
        // Each operation is a request of its own in the logs (the upgrade never passed the HTTP
        // middleware that names requests).
        const requestId = randomUUID();
        // The same rules as HTTP and SSE: the persisted-operations rule, then yoga's own parse and
        // validation with the depth, cost, alias and token limits. A refusal is this operation's
        // error; thrown out of here it would close the whole socket (4500).
        try {
          const params = app.graphqlOperation(payload as OperationParams);
          const enveloped = app.yoga.getEnveloped({ viewer, requestId, params, request: ctx.extra.request });
          const document = enveloped.parse(params.query as string);
          const errors = enveloped.validate(enveloped.schema, document);
          if (errors.length > 0) return errors.map(forSocket);
          return {
            schema: enveloped.schema,
            operationName: params.operationName,
            document,
            variableValues: params.variables,
            contextValue: await enveloped.contextFactory(),
            rootValue: enveloped,
          };
        } catch (error) {
          if (error instanceof GraphQLError) return [forSocket(error)];
          app.logger.error({ err: error, requestId, userId: viewer.id }, 'websocket operation failed');
          return [new GraphQLError(UNEXPECTED_ERROR, { extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } })];
        }
      },
      onError: (_ctx, _id, _payload, errors) => {
        app.logger.warn({ errors: errors.map((e) => e.message) }, 'subscription error');
      },
    },
    wss,
  );

  return {
    async close() {
      clearInterval(sessionCheck);
      stopListening();
      // 1012 Service Restart: graphql-ws's client (and any other) reconnects after its backoff;
      // its default of 1001 Going Away reads as "this server is gone" to some clients.
      for (const socket of wss.clients) socket.close(1012, 'Service restart');
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
