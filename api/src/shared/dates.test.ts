import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyone, appWithPeople, graphql, send, type SignedInUser, type TestApp } from '../../test/harness.ts';
import { dateInputProblem, dateProblem } from './dates.ts';

// Every date a person types takes years 1900 to 2100: a task's due date and a review link's expiry,
// over REST (400 with the message) and GraphQL (an Error result, or a GraphQL error for what the
// DateTime scalar itself cannot read), never a 500 and never stored.

let app: TestApp, alice: SignedInUser;
let galleryId: string;

beforeAll(async () => {
  [app, alice] = await appWithPeople(anyone);
  galleryId = (await app.database.prisma.gallery.create({ data: { name: 'Dated', ownerId: alice.id } })).id;
});
afterAll(() => app.close());

const DUE = 'Due date must be between 1900 and 2100.';
const EXPIRY = 'The expiry date must be between 1900 and 2100.';

describe('the rule', () => {
  it('takes 1900 to 2100 in any time zone and nothing else', () => {
    expect(dateProblem(new Date('1900-01-01T00:00:00+14:00'), 'Due date')).toBeNull();
    expect(dateProblem(new Date('2100-12-31T23:59:00-12:00'), 'Due date')).toBeNull();
    expect(dateProblem(new Date('1899-12-30T00:00:00Z'), 'Due date')).toBe(DUE);
    expect(dateProblem(new Date('2101-01-02T00:00:00Z'), 'Due date')).toBe(DUE);
    expect(dateProblem(new Date('0001-01-01T00:00:00Z'), 'Due date')).toBe(DUE);
    expect(dateProblem(new Date(Number.NaN), 'Due date')).toBe(DUE);
    expect(dateInputProblem('', 'Due date')).toBeNull();
    expect(dateInputProblem('2026-05-01T10:00', 'Due date')).toBeNull();
    for (const value of ['0001-01-01T10:00', '99999-01-01T10:00', '275760-09-13T00:00', '2101-01-01', '1899-12-31'])
      expect(dateInputProblem(value, 'Due date'), value).toBe(DUE);
  });
});

describe('task due dates', () => {
  const outside = ['0001-01-01T00:00:00Z', '1899-12-30T12:00:00Z', '2101-01-02T00:00:00Z', '9999-12-31T00:00:00Z'];

  it('REST: creating or changing a task with a date outside 1900-2100 is a 400 that says so', async () => {
    for (const dueDate of outside) {
      const made = await send(app, alice.cookie, 'POST', '/api/tasks', { title: 'Far off', dueDate });
      expect(made, dueDate).toMatchObject({ status: 400, body: { message: DUE } });
    }
    const ok = await send(app, alice.cookie, 'POST', '/api/tasks', { title: 'Soon', dueDate: '2099-06-01T10:00:00Z' });
    expect(ok.status).toBe(201);
    const patched = await send(app, alice.cookie, 'PATCH', `/api/tasks/${ok.body.id}`, { dueDate: outside[0] });
    expect(patched).toMatchObject({ status: 400, body: { message: DUE } });
    const stored = await app.database.prisma.task.findMany({ where: { creatorId: alice.id } });
    expect(stored.map((t) => t.dueDate?.toISOString())).toEqual(['2099-06-01T10:00:00.000Z']);
  });

  it('GraphQL: the same message as an Error result; what the scalar cannot read is a GraphQL error', async () => {
    const create = `mutation($due: DateTime) { createTask(title: "Far off", dueDate: $due) {
      __typename ... on Error { message } } }`;
    const early = await graphql<{ createTask: { __typename: string; message?: string } }>(app, alice.cookie, create, {
      due: '0001-01-01T00:00:00Z',
    });
    expect(early.data?.createTask).toEqual({ __typename: 'ValidationError', message: DUE });
    const late = await graphql(app, alice.cookie, create, { due: '2500-01-01T00:00:00Z' });
    expect(late.data?.createTask).toEqual({ __typename: 'ValidationError', message: DUE });
    const unreadable = await graphql(app, alice.cookie, create, { due: '+099999-01-01T00:00:00Z' });
    expect(unreadable.errors?.[0]?.message).toMatch(/DateTime/);

    const task = await send(app, alice.cookie, 'POST', '/api/tasks', { title: 'Kept' });
    const update = `mutation($id: ID!, $due: DateTime) { updateTask(id: $id, dueDate: $due) {
      __typename ... on Error { message } } }`;
    const changed = await graphql(app, alice.cookie, update, {
      id: encodeGlobalID('Task', task.body.id),
      due: '1850-05-05T00:00:00Z',
    });
    expect(changed.data?.updateTask).toEqual({ __typename: 'ValidationError', message: DUE });
  });
});

describe('review link expiry', () => {
  it('REST and GraphQL refuse an expiry outside 1900-2100 with the message', async () => {
    const path = `/api/galleries/${galleryId}/review-links`;
    const far = await send(app, alice.cookie, 'POST', path, { expiresAt: '2999-01-01T00:00:00Z' });
    expect(far).toMatchObject({ status: 400, body: { message: EXPIRY } });
    const ancient = await send(app, alice.cookie, 'POST', path, { expiresAt: '0001-01-01T00:00:00Z' });
    expect(ancient).toMatchObject({ status: 400, body: { message: EXPIRY } });

    const create = `mutation($g: ID!, $at: DateTime) { createReviewLink(galleryId: $g, expiresAt: $at) {
      __typename ... on Error { message } } }`;
    const answer = await graphql(app, alice.cookie, create, {
      g: encodeGlobalID('Gallery', galleryId),
      at: '2999-01-01T00:00:00Z',
    });
    expect(answer.data?.createReviewLink).toEqual({ __typename: 'ValidationError', message: EXPIRY });
    expect(await app.database.prisma.reviewLink.count({ where: { galleryId } })).toBe(0);
  });
});
