import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { GraphQLObjectType } from 'graphql';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { schema } from '../../src/graphql/schema.ts';
import { BASE, signedInUser, type SignedInUser, testApp, type TestApp } from '../harness.ts';
import { listen, secondInstance } from '../live.ts';

// Errors somebody sees: a failure of ours is logged with the request id and answered masked with
// that id; a malformed id or cursor is the caller's input error; node(id) of an unknown type is
// null; a client hanging up is a client abort in the logs, not a database outage.

const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');
const cursor = (text: string) => Buffer.from(text).toString('base64');

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
};

let first: TestApp;
let app: App;
let logs: { level: number; msg: string; requestId?: string; err?: { message: string } }[];
let user: SignedInUser;

async function ask(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const response = await app.fetch(
    new Request(new URL('/graphql', BASE), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', cookie: user.cookie, ...headers },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return { status: response.status, ...((await response.json()) as Answer) };
}

beforeAll(async () => {
  first = await testApp();
  logs = [];
  // The same database as `first`, with a logger the test reads.
  app = await secondInstance(first, {
    logger: pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
  });
  user = await signedInUser(first);
});
afterAll(async () => {
  await app.close();
  await first.close();
});

describe('a failure of ours', () => {
  it('is logged with the request id, and the answer is masked but names that id', async () => {
    const db = app.services.db;
    // A real failure under the resolver: the column it reads is gone.
    await db.$executeRawUnsafe('ALTER TABLE "Notification" RENAME COLUMN "title" TO "title_gone"');
    try {
      const requestId = `support-${randomUUID()}`;
      const answer = await ask(
        '{ notifications(first: 5) { edges { node { id title } } } }',
        {},
        { 'x-request-id': requestId },
      );
      expect(answer.errors?.[0]?.message).toBe('Unexpected error.');
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', requestId });
      const logged = logs.find((l) => l.requestId === requestId && l.level >= 50);
      expect(logged?.msg).toBe('graphql resolver failed');
      expect(logged?.err?.message).toBeTruthy();
    } finally {
      await db.$executeRawUnsafe('ALTER TABLE "Notification" RENAME COLUMN "title_gone" TO "title"');
    }
  });
});

describe('malformed ids', () => {
  const malformed = [
    ['a global id whose raw id is no uuid', gid('File', 'not-a-uuid')],
    ['a global id of no type', gid('', randomUUID())],
    ['no base64 at all', '!!not an id!!'],
    ['a raw id that is no uuid', 'not-a-uuid'],
  ];

  it.each(malformed)('%s is a typed input error in node, nodes and id arguments', async (_name, id) => {
    for (const [query, variables] of [
      ['query($id: ID!) { node(id: $id) { id } }', { id }],
      ['query($id: ID!) { nodes(ids: [$id]) { id } }', { id }],
      ['query($id: ID) { folders(parentId: $id, first: 2) { edges { node { id } } } }', { id }],
      ['query($id: ID) { files(folderId: $id, first: 2) { edges { node { id } } } }', { id }],
    ] as const) {
      const answer = await ask(query, variables);
      expect(answer.errors?.[0]?.extensions?.code, `${query}: ${JSON.stringify(answer)}`).toBe('BAD_USER_INPUT');
      expect(answer.errors?.[0]?.message).toMatch(/not a valid id/);
    }
  });

  it('in a mutation argument is a typed refusal, not an unexpected error', async () => {
    const answer = await ask(
      'mutation($id: ID!) { renameFolder(id: $id, name: "x") { __typename ... on Error { message code } } }',
      { id: gid('Folder', 'not-a-uuid') },
    );
    expect(JSON.stringify(answer)).not.toContain('Unexpected error');
    const typed = (answer.data?.renameFolder as { __typename?: string; message?: string } | undefined) ?? null;
    const refused =
      typed?.__typename === 'ValidationError' || answer.errors?.[0]?.extensions?.code === 'BAD_USER_INPUT';
    expect(refused, JSON.stringify(answer)).toBe(true);
  });

  it('node(id) of a type the schema does not have is null, and nodes() keeps the known ones', async () => {
    const unknown = gid('Spaceship', randomUUID());
    const me = ((await ask('{ viewer { id } }')).data as { viewer: { id: string } }).viewer.id;
    expect(await ask('query($id: ID!) { node(id: $id) { id } }', { id: unknown })).toEqual({
      status: 200,
      data: { node: null },
    });
    expect(await ask('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [unknown, me] })).toEqual({
      status: 200,
      data: { nodes: [null, { id: me }] },
    });
  });
});

describe('malformed cursors on every connection', () => {
  const bad = [
    ['a cursor whose id is no uuid', cursor('GPC:S:not-a-uuid')],
    ['a cursor of another kind', cursor('OffsetConnection:abc')],
    ['no cursor at all', '%%%'],
  ];

  /** Every connection field: the root ones as they are, the others through a parent of their type. */
  async function connectionQueries() {
    const db = app.services.db;
    const project = await db.project.create({ data: { name: 'Cursor test', ownerId: user.id } });
    await db.projectMember.create({ data: { projectId: project.id, userId: user.id, role: 'owner' } });
    const gallery = await db.gallery.create({ data: { name: 'Cursor test', ownerId: user.id } });
    const folder = await db.folder.create({ data: { name: 'Cursor test', ownerId: user.id } });
    const conversation = await db.aiConversation.create({ data: { userId: user.id } });
    const parents: Record<string, string> = {
      Project: gid('Project', project.id),
      Gallery: gid('Gallery', gallery.id),
      Folder: gid('Folder', folder.id),
      AssistantConversation: gid('AssistantConversation', conversation.id),
    };
    const queries: { name: string; query: string; variables: Record<string, unknown> }[] = [];
    const required = (args: readonly { name: string; type: { toString(): string } }[]) =>
      args
        .filter((a) => a.type.toString().endsWith('!'))
        .map((a) => `, ${a.name}: ${a.type.toString() === 'String!' ? '"location"' : '""'}`)
        .join('');
    for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
      if (!field.type.toString().endsWith('Connection!')) continue;
      queries.push({
        name: `Query.${field.name}`,
        query: `query($c: String) { ${field.name}(first: 2, after: $c${required(field.args)}) { edges { cursor } } }`,
        variables: {},
      });
    }
    for (const [typeName, id] of Object.entries(parents)) {
      const type = schema.getType(typeName) as GraphQLObjectType;
      for (const [name, field] of Object.entries(type.getFields())) {
        if (!String(field.type).endsWith('Connection!')) continue;
        queries.push({
          name: `${typeName}.${name}`,
          query: `query($id: ID!, $c: String) { node(id: $id) { ... on ${typeName} { ${name}(first: 2, after: $c) { edges { cursor } } } } }`,
          variables: { id },
        });
      }
    }
    return queries;
  }

  it('are typed input errors as after and as before', async () => {
    const queries = await connectionQueries();
    expect(queries.length).toBeGreaterThanOrEqual(19);
    const failures: string[] = [];
    for (const { name, query, variables } of queries) {
      for (const [kind, c] of bad) {
        for (const text of [query, query.replace('after: $c', 'before: $c').replace('first: 2', 'last: 2')]) {
          const answer = await ask(text, { ...variables, c });
          const code = answer.errors?.[0]?.extensions?.code;
          if (code !== 'BAD_USER_INPUT' || !/cursor/i.test(answer.errors?.[0]?.message ?? ''))
            failures.push(`${name} ${kind} ${text.includes('before') ? 'before' : 'after'}: ${JSON.stringify(answer)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('a client that hangs up', () => {
  it('is logged as a client abort at a low level, not as the database being unavailable', async () => {
    const server = await listen(app);
    try {
      const { port } = new URL(server.http);
      const before = logs.length;
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            [
              'POST /api/auth/signup HTTP/1.1',
              `Host: 127.0.0.1:${port}`,
              'Content-Type: application/json',
              'Content-Length: 100000',
              '',
              '{"email": "half',
            ].join('\r\n'),
          );
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 200);
        });
      });
      // The server notices the hang-up and finishes the request: its log line comes last.
      const deadline = Date.now() + 3000;
      while (Date.now() < deadline && !logs.slice(before).some((l) => l.msg === 'request')) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const lines = logs.slice(before);
      expect(lines.map((l) => l.msg)).toContain('request');
      // Ordinary traffic: nothing at warn or above (it was 'database unavailable' at error level).
      expect(lines.filter((l) => l.level >= 40)).toEqual([]);
      expect(lines.map((l) => l.msg)).not.toContain('database unavailable');
    } finally {
      await server.close();
    }
  });
});
