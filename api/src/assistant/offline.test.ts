import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, sendBody } from '../../test/harness.ts';
import { appLink } from '../shared/links.ts';

let app: TestApp, alice: User, bob: User;
beforeAll(async () => {
  [app, alice, bob] = await appWithPeople(anyone, anyone);
});
afterAll(() => app?.close());

interface ChatBody {
  conversation: { id: string };
  message: string;
  action: { function: string; arguments: Record<string, unknown> } | null;
  actionResult: Record<string, unknown> | null;
}

async function chat(who: { cookie: string }, body: unknown) {
  const response = await sendBody(app, who.cookie, 'POST', '/api/ai/chat', body);
  return { status: response.status, body: (await response.json()) as ChatBody & { message: string } };
}

const context = { currentPage: '/', userRole: 'user' };

/** Alice's message gets an answer saying `says`, and no action is taken. */
async function answerWithoutActing(message: string, says: RegExp | string) {
  const answer = await chat(alice, { message, context });
  expect(answer.body.action).toBeNull();
  expect(answer.body.message).toMatch(says);
  return answer;
}

async function fileOf(ownerId: string, name: string, tags: string[], mimeType = 'image/jpeg') {
  const id = randomUUID();
  return app.database.prisma.file.create({
    data: {
      id,
      ownerId,
      name,
      originalName: name,
      mimeType,
      size: 1000n,
      objectUrl: `/objects/uploads/${id}`,
      objectPath: `/objects/uploads/${id}`,
      tags,
    },
  });
}

describe('the offline assistant (no API key)', () => {
  it('creates a task from a plain sentence, with priority and due date, and keeps the conversation', async () => {
    const now = new Date();
    const { status, body } = await chat(alice, {
      message: 'create a task to scout the warehouse tomorrow, high priority',
      context,
    });
    expect(status).toBe(200);
    expect(body.action?.function).toBe('createTask');
    const tomorrowNine = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 9));
    expect(body.actionResult).toMatchObject({
      title: 'Scout the warehouse',
      priority: 'high',
      dueDate: tomorrowNine.toISOString(),
    });
    const task = await app.database.prisma.task.findUniqueOrThrow({ where: { id: String(body.actionResult?.id) } });
    expect(task).toMatchObject({ creatorId: alice.id, title: 'Scout the warehouse', priority: 'high' });
    expect(body.message).toContain('Scout the warehouse');

    const list = await app.request('/api/ai/conversations', { cookie: alice.cookie });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { id: string }[]).map((c) => c.id)).toContain(body.conversation.id);
    const messages = await app.request(`/api/ai/conversations/${body.conversation.id}/messages`, {
      cookie: alice.cookie,
    });
    const rows = (await messages.json()) as {
      role: string;
      content: string;
      metadata: { action?: { function: string } };
    }[];
    expect(rows.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(rows[0]?.content).toBe('create a task to scout the warehouse tomorrow, high priority');
    expect(rows[1]?.metadata.action?.function).toBe('createTask');

    // A follow-up in the same conversation.
    const next = await chat(alice, { message: 'what is overdue?', conversationId: body.conversation.id, context });
    expect(next.status).toBe(200);
    expect(next.body.conversation.id).toBe(body.conversation.id);
    const after = await app.request(`/api/ai/conversations/${body.conversation.id}/messages`, { cookie: alice.cookie });
    expect(((await after.json()) as unknown[]).length).toBe(4);
  });

  it('schedules an event as a task with a due date, and asks when none is given', async () => {
    const { body } = await chat(alice, { message: 'Schedule a tech recce at the warehouse on Friday at 3pm', context });
    expect(body.action?.function).toBe('createTask');
    const due = new Date(String(body.actionResult?.dueDate));
    expect(due.getUTCDay()).toBe(5);
    expect(due.getUTCHours()).toBe(15);
    expect(due.getTime()).toBeGreaterThan(Date.now());
    expect(body.actionResult?.title).toBe('Tech recce at the warehouse');

    const vague = await chat(alice, { message: 'schedule a costume fitting', context });
    expect(vague.status).toBe(200);
    expect(vague.body.action).toBeNull();
    expect(vague.body.message).toMatch(/When should "Costume fitting" happen/);
  });

  it('takes the time zone into account', async () => {
    const { body } = await chat(alice, {
      message: 'create a task to call the location owner tomorrow at 10am',
      context: { ...context, timezoneOffset: -120 },
    });
    expect(new Date(String(body.actionResult?.dueDate)).getUTCHours()).toBe(8);
  });

  it('searches only the viewer’s files', async () => {
    const own = await fileOf(alice.id, 'warehouse-exterior.jpg', ['exterior']);
    const others = await fileOf(bob.id, 'bobs-exterior.jpg', ['exterior']);
    const { body } = await chat(alice, { message: 'find files tagged exterior', context });
    expect(body.action).toEqual({ function: 'searchFiles', arguments: { query: 'exterior' } });
    const ids = ((body.actionResult?.files ?? []) as { id: string }[]).map((f) => f.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(others.id);
  });

  it('finds photos by tag and by gallery place', async () => {
    const night = await fileOf(alice.id, 'dock-night.jpg', ['night']);
    await fileOf(alice.id, 'notes-night.pdf', ['night'], 'application/pdf');
    const gallery = await app.database.prisma.gallery.create({
      data: { ownerId: alice.id, name: 'Docks', location: 'Red Hook, Brooklyn' },
    });
    const pier = await fileOf(alice.id, 'pier.jpg', []);
    await app.database.prisma.galleryItem.create({
      data: { galleryId: gallery.id, fileId: pier.id, position: 0, addedById: alice.id },
    });

    const tagged = await chat(alice, { message: 'show photos tagged night', context });
    expect(tagged.body.action?.function).toBe('findPhotos');
    expect(((tagged.body.actionResult?.photos ?? []) as { id: string }[]).map((p) => p.id)).toEqual([night.id]);

    const place = await chat(alice, { message: 'photos from Brooklyn', context });
    expect(place.body.action).toEqual({ function: 'findPhotos', arguments: { place: 'Brooklyn' } });
    expect(((place.body.actionResult?.photos ?? []) as { id: string }[]).map((p) => p.id)).toEqual([pier.id]);

    const bobs = await chat(bob, { message: 'photos from Brooklyn', context });
    expect(bobs.body.actionResult?.photos).toEqual([]);
  });

  it('creates a gallery and lists overdue tasks', async () => {
    const gallery = await chat(alice, { message: 'create a gallery called Rooftops', context });
    expect(gallery.body.action).toEqual({ function: 'createGallery', arguments: { name: 'Rooftops' } });
    const created = await app.database.prisma.gallery.findFirstOrThrow({
      where: { ownerId: alice.id, name: 'Rooftops' },
    });
    // The address the web app opens it at: its global id, as every link the API writes.
    expect(gallery.body.actionResult).toMatchObject({ id: created.id, url: appLink.gallery(created.id) });

    await app.database.prisma.task.create({
      data: { creatorId: alice.id, title: 'Return the keys', dueDate: new Date(Date.now() - 86400_000) },
    });
    const overdue = await chat(alice, { message: 'What is overdue?', context });
    expect(overdue.body.action?.function).toBe('listOverdueTasks');
    expect((overdue.body.actionResult as unknown as { title: string }[]).map((t) => t.title)).toContain(
      'Return the keys',
    );
    expect(overdue.body.message).toContain('Return the keys');
  });

  it('explains Upload & Tag with a link, and says plainly what it cannot do', async () => {
    await answerWithoutActing('Help me upload and tag photos', '/files?upload=true');

    const weather = await answerWithoutActing('What will the weather be like?', /without an AI model/);
    expect(weather.status).toBe(200);
    expect(weather.body.message).toContain('Create a task');
  });

  it('answers the four quick actions the assistant panel sends by asking for what is missing, never inventing it', async () => {
    const before = await app.database.prisma.task.count({ where: { creatorId: alice.id } });
    await answerWithoutActing('Search my files', /What should I search for/);
    await answerWithoutActing('Create a task', /What should the task be/);
    await answerWithoutActing('Schedule an event', /What should I schedule, and when/);
    expect(await app.database.prisma.task.count({ where: { creatorId: alice.id } })).toBe(before);
    await answerWithoutActing('How do I upload and tag my photos?', '/files?upload=true');
  });

  it('completes a quick action with the next message of the conversation', async () => {
    await fileOf(alice.id, 'hayloft-dusk.jpg', ['barn']);
    const search = await chat(alice, { message: 'Search my files', context });
    const found = await chat(alice, { message: 'hayloft', conversationId: search.body.conversation.id, context });
    expect(found.body.action).toEqual({ function: 'searchFiles', arguments: { query: 'hayloft' } });

    const task = await chat(alice, { message: 'Create a task', context });
    const created = await chat(alice, {
      message: 'Book the crane for Friday, high priority',
      conversationId: task.body.conversation.id,
      context,
    });
    expect(created.body.action?.function).toBe('createTask');
    expect(created.body.actionResult).toMatchObject({ title: 'Book the crane', priority: 'high' });
    expect(created.body.actionResult?.dueDate).not.toBeNull();

    // An event needs a day: without one the assistant asks again, keeping the title.
    const event = await chat(alice, { message: 'Schedule an event', context });
    const conversationId = event.body.conversation.id;
    const what = await chat(alice, { message: 'Tech recce at the mill', conversationId, context });
    expect(what.body.action).toBeNull();
    expect(what.body.message).toMatch(/When should "Tech recce at the mill" happen/);
    const when = await chat(alice, { message: 'tomorrow at 10am', conversationId, context });
    expect(when.body.action?.function).toBe('createTask');
    expect(when.body.actionResult).toMatchObject({ title: 'Tech recce at the mill' });
    const due = new Date(String(when.body.actionResult?.dueDate)).getTime();
    expect(due).toBeGreaterThan(Date.now());
    expect(due).toBeLessThan(Date.now() + 2 * 86400_000);

    // Once done, the conversation waits for nothing: a plain sentence is not a task.
    const after = await chat(alice, { message: 'thanks a lot', conversationId, context });
    expect(after.body.action).toBeNull();
  });

  it('asks for the missing part of a quick action instead of guessing', async () => {
    await answerWithoutActing('Create a new task', /What should the task be/);
    await answerWithoutActing('Search files', /What should I search for/);
  });

  it('refuses empty messages and bad bodies with a 400, saving nothing', async () => {
    const before = await app.database.prisma.aiMessage.count();
    for (const body of [
      { message: '' },
      { message: '   \n ' },
      {},
      { message: 42 },
      '{not json',
      { message: 'hi', context: 'x' },
    ]) {
      const { status, body: answer } = await chat(alice, body);
      expect(status).toBe(400);
      expect(answer.message).toBeTruthy();
    }
    expect((await chat(alice, { message: ' ' })).body.message).toBe('Message is required.');
    expect(await app.database.prisma.aiMessage.count()).toBe(before);
  });

  it('keeps conversations to their owner (404 for anyone else)', async () => {
    const { body } = await chat(alice, { message: 'what is overdue?', context });
    const id = body.conversation.id;
    const read = await app.request(`/api/ai/conversations/${id}/messages`, { cookie: bob.cookie });
    expect(read.status).toBe(404);
    const write = await chat(bob, { message: 'what is overdue?', conversationId: id });
    expect(write.status).toBe(404);
    expect((await app.request('/api/ai/conversations/not-an-id/messages', { cookie: alice.cookie })).status).toBe(404);
    const list = (await (await app.request('/api/ai/conversations', { cookie: bob.cookie })).json()) as {
      id: string;
    }[];
    expect(list.map((c) => c.id)).not.toContain(id);
  });

  it('streams the reply to the sender’s assistantReply events only', async () => {
    const mine = app.services.events.subscribe('assistant:delta', alice.id);
    const theirs = app.services.events.subscribe('assistant:delta', bob.id);
    const heard: unknown[] = [];
    const done = (async () => {
      for await (const delta of mine) {
        heard.push(delta);
        if (delta.done) break;
      }
    })();
    let bobHeard = false;
    void (async () => {
      for await (const _ of theirs) bobHeard = true;
    })();
    const { body } = await chat(alice, { message: 'Help me upload files', streamId: 's-1' });
    await done;
    await theirs.return?.();
    expect(heard).toEqual([
      { conversationId: body.conversation.id, streamId: 's-1', delta: body.message, done: false, error: null },
      { conversationId: body.conversation.id, streamId: 's-1', delta: '', done: true, error: null },
    ]);
    expect(bobHeard).toBe(false);
  });

  it('answers the sendAssistantMessage mutation the same way', async () => {
    const mutation = `mutation($m: String!, $c: ID) {
      sendAssistantMessage(message: $m, conversationId: $c, context: { currentPage: "/tasks", userRole: "user" }) {
        __typename
        ... on MutationSendAssistantMessageSuccess {
          data { conversation { id messages { totalCount edges { node { role content action { function } } } } }
                 message action { function arguments } actionResult }
        }
        ... on Error { message }
      }
    }`;
    const first = await graphql<{
      sendAssistantMessage: {
        data: {
          conversation: { id: string; messages: { totalCount: number } };
          action: { function: string };
          actionResult: { title: string };
        };
      };
    }>(app, alice.cookie, mutation, { m: 'add a task to print the call sheets, low priority' });
    expect(first.errors).toBeUndefined();
    const data = first.data?.sendAssistantMessage.data;
    expect(data?.action.function).toBe('createTask');
    expect(data?.actionResult.title).toBe('Print the call sheets');
    expect(data?.conversation.messages.totalCount).toBe(2);

    const second = await graphql<{
      sendAssistantMessage: { data: { conversation: { id: string; messages: { totalCount: number } } } };
    }>(app, alice.cookie, mutation, { m: 'what is overdue?', c: data?.conversation.id });
    expect(second.data?.sendAssistantMessage.data.conversation).toEqual({
      id: data?.conversation.id,
      messages: expect.objectContaining({ totalCount: 4 }),
    });

    const empty = await graphql<{ sendAssistantMessage: { __typename: string; message: string } }>(
      app,
      alice.cookie,
      mutation,
      { m: '  ' },
    );
    expect(empty.data?.sendAssistantMessage).toEqual({
      __typename: 'ValidationError',
      message: 'Message is required.',
    });

    const stranger = await graphql<{ sendAssistantMessage: { __typename: string } }>(app, bob.cookie, mutation, {
      m: 'hello',
      c: data?.conversation.id,
    });
    expect(stranger.data?.sendAssistantMessage.__typename).toBe('BaseError');

    const list = await graphql<{ assistantConversations: { edges: { node: { id: string } }[] } }>(
      app,
      bob.cookie,
      '{ assistantConversations { edges { node { id } } } }',
    );
    expect(list.data?.assistantConversations.edges.map((e) => e.node.id)).not.toContain(data?.conversation.id);
  });
});
