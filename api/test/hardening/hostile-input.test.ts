import fc from 'fast-check';
import { type GraphQLInputType, getNamedType, isListType, isNonNullType, isScalarType, isEnumType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { type AccessCase, type AccessHarness, accessHarness } from '../access.ts';
import { testApp, type TestApp } from '../harness.ts';

// Random and hostile input at every REST route and GraphQL mutation, sent by a signed-in stranger:
// the answer is a success or a 4xx with a message, never a 500 or a hang, and the owner's data
// stays as it was.

const modules = import.meta.glob<{ accessCases: AccessCase[] }>('../../src/*/access.cases.ts', { eager: true });
const cases = Object.values(modules).flatMap((m) => m.accessCases);

let app: TestApp;
let t: AccessHarness;
const ownerIds = new Set<string>();
const RUNS = Number(process.env.HOSTILE_RUNS ?? 12);

async function ownerSnapshot() {
  const db = app.services.db;
  const id = t.owner.id;
  const rows = await Promise.all([
    db.user.findUnique({ where: { id } }),
    db.gallery.findMany({ where: { ownerId: id }, orderBy: { id: 'asc' } }),
    db.galleryItem.findMany({ where: { gallery: { ownerId: id } }, orderBy: { id: 'asc' } }),
    db.galleryShare.findMany({ where: { sharedById: id }, orderBy: { id: 'asc' } }),
    db.folder.findMany({ where: { ownerId: id }, orderBy: { id: 'asc' } }),
    db.file.findMany({ where: { ownerId: id }, orderBy: { id: 'asc' } }),
    db.fileVersion.findMany({ where: { file: { ownerId: id } }, orderBy: { id: 'asc' } }),
    db.task.findMany({ where: { creatorId: id }, orderBy: { id: 'asc' } }),
    db.notification.findMany({ where: { userId: id }, orderBy: { id: 'asc' } }),
    db.project.findMany({ where: { ownerId: id }, orderBy: { id: 'asc' } }),
    db.projectMember.findMany({ where: { userId: id }, orderBy: { projectId: 'asc' } }),
    db.userSettings.findUnique({ where: { userId: id } }),
    db.upload.findMany({ where: { userId: id }, orderBy: { id: 'asc' } }),
    db.aiConversation.findMany({ where: { userId: id }, orderBy: { id: 'asc' } }),
  ]);
  return JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

beforeAll(async () => {
  // Due reminders would add their own notifications to the owner's data mid-test on a slow machine.
  app = await testApp({ DUE_REMINDER_INTERVAL_SECONDS: '0' });
  t = await accessHarness(app);
  // The authorization suite's rows give the owner one of everything; their paths hold real ids.
  for (const row of cases) {
    const request = await row.arrange(t);
    for (const part of request.path.split(/[/?=&]/)) if (/^[0-9a-f-]{36}$/.test(part)) ownerIds.add(part);
  }
}, 180_000);
afterAll(() => app.close());

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '../../etc/passwd',
    '%00',
    '\'; DROP TABLE "User"; --',
    '<script>alert(1)</script>',
    '__proto__',
    'constructor',
    '😀'.repeat(300),
    'NaN',
    '-1',
    '1e309',
    '00000000-0000-0000-0000-000000000000',
    'x'.repeat(100_000),
  ),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.constantFrom(-1, 0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e308, 0.5, null, true, false),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

const FIELDS = [
  'name',
  'title',
  'description',
  'email',
  'password',
  'tags',
  'fileIds',
  'folderId',
  'parentId',
  'galleryId',
  'projectId',
  'assigneeId',
  'dueDate',
  'priority',
  'status',
  'permission',
  'type',
  'isRead',
  'ids',
  'all',
  'objectUrl',
  'objectPath',
  'size',
  'mimeType',
  'metadata',
  'message',
  'conversationId',
  'fileId',
  'position',
  'coverImageId',
  'darkMode',
  'firstName',
  'lastName',
  'userId',
  'role',
  'items',
  'source',
  'path',
  'query',
  '__proto__',
  'constructor',
  'prototype',
];

/** Bodies: random JSON, objects with the app's field names holding wrong or hostile values, or broken JSON text. */
const hostileBody: fc.Arbitrary<{ raw: string } | { json: unknown }> = fc.oneof(
  fc.record({ json: fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 6 }) }),
  fc.record({ json: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({
    raw: fc.constantFrom(
      '{',
      '{"name":',
      'null',
      '[]',
      '"text"',
      '{"__proto__":{"isAdmin":true},"name":"x"}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '\u0000',
      `{"a":${'['.repeat(5000)}`,
    ),
  }),
);

const hostileId = fc.oneof(
  fc.constantFrom(...['not-an-id', '-1', '0', '%2e%2e', 'null', 'undefined', '00000000-0000-0000-0000-000000000000']),
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.constant('x'.repeat(5000)),
);

function restRoutes() {
  return [
    ...new Map(
      app.routes
        .filter((r) => r.method !== 'ALL' && (r.path.startsWith('/api/') || r.path.startsWith('/objects/')))
        .filter((r) => !r.path.startsWith('/api/auth/') || r.path === '/api/auth/signup' || r.path === '/api/auth/user')
        .map((r) => [`${r.method} ${r.path}`, r]),
    ).values(),
  ];
}

async function withDeadline<T>(work: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

describe('every REST route', () => {
  it('answers hostile input with a success or a 4xx and a message, and leaves the owner’s data alone', async () => {
    const before = await ownerSnapshot();
    const ids = fc.oneof(hostileId, fc.constantFrom(...ownerIds));
    const failures: string[] = [];
    for (const route of restRoutes()) {
      await fc
        .assert(
          fc.asyncProperty(
            ids,
            hostileBody,
            fc.dictionary(
              fc.constantFrom('search', 'sort', 'limit', 'offset', 'status', 'q', 'folderId', 'variant', 'cursor'),
              hostileString,
              { maxKeys: 3 },
            ),
            async (id, body, query) => {
              const path = route.path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, () => id).replace(/\*$/, id);
              const search = new URLSearchParams(query as Record<string, string>).toString();
              const url = `${path}${search ? `?${search}` : ''}`;
              const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
              const response = await withDeadline(
                app.request(url, {
                  method: route.method,
                  cookie: t.stranger.cookie,
                  headers: hasBody ? { 'content-type': 'application/json' } : undefined,
                  body: hasBody ? ('raw' in body ? body.raw : JSON.stringify(body.json)) : undefined,
                }),
                `${route.method} ${url.slice(0, 200)}`,
              );
              const text = await response.text();
              if (response.status >= 500) {
                failures.push(
                  `${route.method} ${route.path} → ${response.status} ${text.slice(0, 200)} for ${url.slice(0, 120)} ${JSON.stringify(body).slice(0, 200)}`,
                );
                return false;
              }
              if (
                response.status >= 400 &&
                response.status !== 401 &&
                !(response.headers.get('content-type') ?? '').includes('text/html')
              ) {
                const parsed = JSON.parse(text) as { message?: unknown };
                if (typeof parsed.message !== 'string' || parsed.message === '') {
                  failures.push(
                    `${route.method} ${route.path} → ${response.status} without a message: ${text.slice(0, 200)}`,
                  );
                  return false;
                }
              }
              return true;
            },
          ),
          { numRuns: RUNS, endOnFailure: true },
        )
        .catch(() => {});
    }
    expect(failures).toEqual([]);
    expect(await ownerSnapshot()).toEqual(before);
  }, 600_000);
});

/** Values for a GraphQL input type: usually of the right shape but hostile, sometimes of the wrong type. */
function valueFor(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return valueFor(type.ofType, depth);
  const wrong = fc.oneof(hostileValue, fc.constant(null));
  if (isListType(type)) return fc.oneof(fc.array(valueFor(type.ofType, depth + 1), { maxLength: 4 }), wrong);
  const named = getNamedType(type);
  if (isEnumType(named)) return fc.oneof(fc.constantFrom(...named.getValues().map((v) => v.name)), wrong);
  if (isScalarType(named)) {
    if (named.name === 'ID') return fc.oneof(fc.constantFrom(...ownerIds), hostileId, fc.base64String());
    if (named.name === 'Int') return fc.oneof(fc.integer(), fc.constantFrom(-1, 2 ** 31 - 1, -(2 ** 31)), wrong);
    if (named.name === 'Float') return fc.oneof(fc.double({ noNaN: true }), wrong);
    if (named.name === 'Boolean') return fc.oneof(fc.boolean(), wrong);
    return fc.oneof(hostileString, wrong);
  }
  if (depth > 3) return fc.constant(null);
  const fields = Object.values((named as import('graphql').GraphQLInputObjectType).getFields());
  return fc.oneof(
    fc.record(Object.fromEntries(fields.map((f) => [f.name, valueFor(f.type, depth + 1)])), { requiredKeys: [] }),
    wrong,
  );
}

describe('every GraphQL mutation', () => {
  it('answers hostile variables with data or typed errors, never an internal error, and leaves the owner’s data alone', async () => {
    const before = await ownerSnapshot();
    const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
    expect(mutations.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const field of mutations) {
      const args = field.args;
      const signature = args.length ? `(${args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ')})` : '';
      const call = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
      const query = `mutation${signature} { result: ${field.name}${call} { __typename } }`;
      const variables = fc.record(Object.fromEntries(args.map((a) => [a.name, valueFor(a.type)])), {
        requiredKeys: [],
      });
      await fc
        .assert(
          fc.asyncProperty(variables, async (vars) => {
            const response = await withDeadline(
              app.request('/graphql', {
                method: 'POST',
                cookie: t.stranger.cookie,
                headers: { 'content-type': 'application/json', accept: 'application/json' },
                body: JSON.stringify({ query, variables: vars }),
              }),
              field.name,
            );
            const text = await response.text();
            const internal = response.status >= 500 || /Unexpected error/.test(text);
            if (internal)
              failures.push(
                `${field.name} → ${response.status} ${text.slice(0, 200)} for ${JSON.stringify(vars).slice(0, 300)}`,
              );
            return !internal;
          }),
          { numRuns: RUNS, endOnFailure: true },
        )
        .catch(() => {});
    }
    expect(failures).toEqual([]);
    expect(await ownerSnapshot()).toEqual(before);
  }, 600_000);
});

// The public review paths take no session, so the suite above reaches them only with made-up
// tokens. Here they get a working token (and a locked one) with hostile file ids and bodies.
describe('the public review paths with a real token', () => {
  it('answer hostile input with a success or a 4xx and a message', async () => {
    const { reviewedGallery } = await import('../../src/reviews/testing.ts');
    const open = await reviewedGallery(app, t.owner);
    const locked = await reviewedGallery(app, t.owner, 'locked');
    const failures: string[] = [];
    const routes = [
      ['GET', '/api/review/:token'],
      ['POST', '/api/review/:token/unlock'],
      ['POST', '/api/review/:token/comments'],
      ['PUT', '/api/review/:token/picks/:fileId'],
      ['GET', '/api/review/:token/photos/:fileId'],
    ] as const;
    for (const [method, route] of routes) {
      await fc
        .assert(
          fc.asyncProperty(
            fc.constantFrom(open, locked),
            fc.oneof(hostileId, fc.constant(open.file.id)),
            hostileBody,
            fc.dictionary(fc.constantFrom('variant', 'fileId'), hostileString, { maxKeys: 2 }),
            async (link, fileId, body, query) => {
              const search = new URLSearchParams(query as Record<string, string>).toString();
              const url = `${route.replace(':token', link.token).replace(':fileId', fileId)}${search ? `?${search}` : ''}`;
              const hasBody = method !== 'GET';
              const response = await withDeadline(
                app.request(url, {
                  method,
                  headers: hasBody ? { 'content-type': 'application/json' } : undefined,
                  body: hasBody ? ('raw' in body ? body.raw : JSON.stringify(body.json)) : undefined,
                }),
                `${method} ${url.slice(0, 200)}`,
              );
              const text = await response.text();
              const json = (response.headers.get('content-type') ?? '').includes('application/json');
              const message =
                response.status >= 400 && json ? (JSON.parse(text) as { message?: unknown }).message : 'ok';
              if (response.status >= 500 || typeof message !== 'string' || message === '') {
                failures.push(
                  `${method} ${route} → ${response.status} ${text.slice(0, 200)} ${JSON.stringify(body).slice(0, 200)}`,
                );
                return false;
              }
              return true;
            },
          ),
          { numRuns: RUNS * 4, endOnFailure: true },
        )
        .catch(() => {});
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
