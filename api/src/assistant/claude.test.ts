import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { FAKE_ANTHROPIC_KEY, FAKE_ANTHROPIC_MODEL, fakeAnthropic } from '../../test/fake-anthropic.ts';
import { type SignedInUser as User, signedInUser, type TestApp, testApp, sendBody } from '../../test/harness.ts';
import { listeningOverSse } from '../../test/sse.ts';
import type { AssistantDelta } from '../infra/events/pubsub.ts';

let fake: Awaited<ReturnType<typeof fakeAnthropic>>;
let app: TestApp;
let alice: User;
let bob: User;

const FAILED = 'Failed to process your message. Please try again.';
const context = { currentPage: '/tasks', userRole: 'user' };

beforeAll(async () => {
  fake = await fakeAnthropic();
  app = await testApp({ ...fake.settings, AI_TIMEOUT_SECONDS: '10' });
  alice = await signedInUser(app);
  bob = await signedInUser(app);
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

async function chat(who: { cookie: string }, body: object) {
  const response = await sendBody(app, who.cookie, 'POST', '/api/ai/chat', body);
  return {
    status: response.status,
    body: (await response.json()) as {
      conversation: { id: string };
      message: string;
      action: { function: string; arguments: Record<string, unknown> } | null;
      actionResult: Record<string, unknown> | null;
    },
  };
}

/** The viewer's assistant deltas until the last one. */
function deltasOf(userId: string) {
  const events = app.services.events.subscribe('assistant:delta', userId);
  const heard: AssistantDelta[] = [];
  const done = (async () => {
    for await (const delta of events) {
      heard.push(delta);
      if (delta.done) break;
    }
    return heard;
  })();
  return done;
}

/** The viewer's assistantReply subscription over server-sent events, as the browser opens it. */
async function replySubscription(who: { cookie: string }, streamId: string) {
  type Delta = { conversationId: string; streamId: string; delta: string; done: boolean; error: string | null };
  const stream = await listeningOverSse<{ data: { assistantReply: Delta } }>(
    app,
    who.cookie,
    'subscription ($s: String) { assistantReply(streamId: $s) { conversationId streamId delta done error } }',
    { s: streamId },
  );
  return {
    until: async (enough: (heard: Delta[]) => boolean) =>
      (await stream.until((results) => enough(results.map((r) => r.data.assistantReply)))).map(
        (r) => r.data.assistantReply,
      ),
    close: stream.close,
  };
}

describe('the assistant with Claude (a local fake of the Messages API)', () => {
  it('streams the reply over the assistantReply subscription, piece by piece, before the answer', async () => {
    const text = 'The warehouse on Dock Road has a loading bay, high ceilings and north light until noon.';
    fake.script([{ text, holdAfterWords: 3 }]);
    const sub = await replySubscription(alice, 'stream-1');
    let answered = false;
    const answer = chat(alice, { message: 'tell me about the warehouse', streamId: 'stream-1' }).then((r) => {
      answered = true;
      return r;
    });
    // Claude has written three words and waits: they are already in the browser, the answer is not.
    await fake.held();
    const early = await sub.until((h) => h.map((d) => d.delta).join('') === 'The warehouse on ');
    expect(early.length).toBeGreaterThanOrEqual(2);
    expect(answered).toBe(false);
    fake.release();

    const { status, body } = await answer;
    expect(status).toBe(200);
    const deltas = await sub.until((h) => h.at(-1)?.done === true);
    await sub.close();
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.slice(0, -1).every((d) => !d.done && d.delta !== '')).toBe(true);
    expect(deltas.at(-1)).toMatchObject({ done: true, error: null, delta: '' });
    expect(new Set(deltas.map((d) => d.streamId))).toEqual(new Set(['stream-1']));
    expect(new Set(deltas.map((d) => d.conversationId)).size).toBe(1);
    // In order, and together exactly the reply that was saved.
    const saved = await app.database.prisma.aiMessage.findFirstOrThrow({
      where: { conversationId: body.conversation.id, role: 'assistant' },
    });
    expect(deltas.map((d) => d.delta).join('')).toBe(saved.content);
    expect(saved.content).toBe(text);
  });

  it('runs a tool round trip: Claude asks for createTask, the task is created for the user, Claude answers', async () => {
    fake.script([
      {
        text: 'Let me create that task.',
        toolUses: [
          {
            id: 'toolu_1',
            name: 'createTask',
            input: { title: 'Scout the warehouse', priority: 'high', dueDate: '2026-12-01T09:00:00Z' },
          },
        ],
      },
      { text: 'Done: "Scout the warehouse" is on your list for 1 December.' },
    ]);
    const streamed = deltasOf(alice.id);
    const { status, body } = await chat(alice, {
      message: 'create a task to scout the warehouse on 1 December, high priority',
      context,
      streamId: 'abc',
    });
    expect(status).toBe(200);
    expect(body.message).toBe(
      'Let me create that task.\n\nDone: "Scout the warehouse" is on your list for 1 December.',
    );
    expect(body.action).toEqual({
      function: 'createTask',
      arguments: { title: 'Scout the warehouse', priority: 'high', dueDate: '2026-12-01T09:00:00Z' },
    });
    expect(body.actionResult).toMatchObject({ title: 'Scout the warehouse', priority: 'high' });
    const task = await app.database.prisma.task.findUniqueOrThrow({ where: { id: String(body.actionResult?.id) } });
    expect(task.creatorId).toBe(alice.id);
    expect(task.dueDate?.toISOString()).toBe('2026-12-01T09:00:00.000Z');

    // What the SDK sent: the key, the model, the tools, the page; then the tool result back.
    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests;
    // The SDK sends the key as x-api-key or as a bearer token depending on its version.
    expect(first?.headers['x-api-key'] ?? first?.headers.authorization?.replace(/^Bearer /, '')).toBe(
      FAKE_ANTHROPIC_KEY,
    );
    expect(first?.body.model).toBe(FAKE_ANTHROPIC_MODEL);
    expect(first?.body.stream).toBe(true);
    expect(first?.body.tools?.map((t) => t.name).sort()).toEqual(
      ['createGallery', 'createTask', 'findPhotos', 'listOverdueTasks', 'searchFiles'].sort(),
    );
    expect(first?.body.system).toContain('/tasks');
    const toolResult = (
      second?.body.messages.at(-1)?.content as { type: string; tool_use_id: string; content: string }[] | undefined
    )?.[0];
    expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(JSON.parse(toolResult?.content ?? '{}')).toMatchObject({ id: task.id, title: 'Scout the warehouse' });

    // The reply streamed piece by piece, and ended with done.
    const deltas = await streamed;
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.every((d) => d.conversationId === body.conversation.id && d.streamId === 'abc')).toBe(true);
    expect(deltas.map((d) => d.delta).join('')).toBe(body.message);
    expect(deltas.at(-1)).toMatchObject({ done: true, error: null });

    // Saved: the message and the reply with its action.
    const messages = (await (
      await app.request(`/api/ai/conversations/${body.conversation.id}/messages`, { cookie: alice.cookie })
    ).json()) as { role: string; content: string; metadata: { action: { function: string } } }[];
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'create a task to scout the warehouse on 1 December, high priority'],
      ['assistant', body.message],
    ]);
    expect(messages[1]?.metadata.action.function).toBe('createTask');

    // The next message in the conversation carries the history.
    fake.script([{ text: 'You have one task.' }]);
    const next = await chat(alice, { message: 'how many tasks?', conversationId: body.conversation.id });
    expect(next.status).toBe(200);
    expect(fake.requests[0]?.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(fake.requests[0]?.body.messages[1]?.content).toBe(body.message);
  });

  it('tells Claude to ask for a missing title, date or search words instead of inventing them', async () => {
    fake.script([{ text: 'What should the task be?' }]);
    const { body } = await chat(alice, { message: 'Create a task', context });
    expect(body.action).toBeNull();
    const [request] = fake.requests;
    expect(request?.body.system).toMatch(/ask the user for it/i);
    const description = (name: string) => JSON.stringify(request?.body.tools?.find((t) => t.name === name) ?? null);
    expect(description('createTask')).toMatch(/never invent a title/i);
    expect(description('createTask')).toMatch(/ask for the day/i);
    expect(description('searchFiles')).toMatch(/never guess the search words/i);
  });

  it('runs tools with the user’s own permissions only', async () => {
    const id = randomUUID();
    await app.database.prisma.file.create({
      data: {
        id,
        ownerId: bob.id,
        name: 'bobs-rooftop.jpg',
        originalName: 'bobs-rooftop.jpg',
        mimeType: 'image/jpeg',
        objectUrl: `/objects/uploads/${id}`,
        objectPath: `/objects/uploads/${id}`,
        tags: ['rooftop'],
      },
    });
    fake.script([
      { toolUses: [{ id: 'toolu_2', name: 'searchFiles', input: { query: 'rooftop' } }] },
      { text: 'Nothing found.' },
    ]);
    const { body } = await chat(alice, { message: 'find rooftop files' });
    expect(body.action?.function).toBe('searchFiles');
    expect(body.actionResult).toEqual({ query: 'rooftop', files: [] });
    expect(JSON.stringify(fake.requests[1]?.body.messages)).not.toContain('bobs-rooftop');
  });

  it('reports a refused tool back to Claude as an error, without failing the chat', async () => {
    fake.script([
      { toolUses: [{ id: 'toolu_3', name: 'createTask', input: { title: '   ' } }] },
      { text: 'I need a title for that task.' },
    ]);
    const { status, body } = await chat(alice, { message: 'make a task' });
    expect(status).toBe(200);
    expect(body.message).toBe('I need a title for that task.');
    const result = (
      fake.requests[1]?.body.messages.at(-1)?.content as { is_error?: boolean; content: string }[] | undefined
    )?.[0];
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain('Task title is required.');
  });

  it.each([
    ['a rate limit (429)', { status: 429, errorType: 'rate_limit_error' }],
    ['a bad key (401)', { status: 401, errorType: 'authentication_error' }],
    ['a server error (500)', { status: 500, errorType: 'api_error' }],
    ['an overload (529)', { status: 529, errorType: 'overloaded_error' }],
    ['a timeout', { hangMs: 5000 }],
  ] as const)('turns %s into the spec’s message and saves nothing', async (_name, step) => {
    fake.script([], step);
    // A short timeout only where the fake hangs: on a loaded machine a normal answer may take a while.
    const ai = app.services.config.ai;
    if ('hangMs' in step) app.services.config.ai = { ...ai, timeoutMs: 300 };
    onTestFinished(() => {
      app.services.config.ai = ai;
    });
    const before = {
      conversations: await app.database.prisma.aiConversation.count(),
      messages: await app.database.prisma.aiMessage.count(),
    };
    const streamed = deltasOf(alice.id);
    const { status, body } = await chat(alice, { message: 'hello there', context, streamId: 'err' });
    expect(status).toBe(502);
    expect(body.message).toBe(FAILED);
    expect(fake.requests.length).toBeGreaterThanOrEqual(1);
    expect(await app.database.prisma.aiConversation.count()).toBe(before.conversations);
    expect(await app.database.prisma.aiMessage.count()).toBe(before.messages);
    expect((await streamed).at(-1)).toMatchObject({ done: true, error: FAILED, streamId: 'err' });
  });

  it('keeps an existing conversation untouched when the reply fails', async () => {
    fake.script([{ text: 'Hi!' }]);
    const { body } = await chat(alice, { message: 'hi' });
    fake.script([], { status: 429, errorType: 'rate_limit_error' });
    const failed = await chat(alice, { message: 'and again', conversationId: body.conversation.id });
    expect(failed.status).toBe(502);
    expect(await app.database.prisma.aiMessage.count({ where: { conversationId: body.conversation.id } })).toBe(2);
  });
});
