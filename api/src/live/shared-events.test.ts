import { type ExecutionResult, GraphQLInt, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import { Repeater } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { subscribeSharingEvents } from './shared-events.ts';

type Event = { n: number };

/** A schema whose `tick` subscription counts how often an event is executed. */
function arrange() {
  const listeners = new Set<(event: Event) => void>();
  const executions: string[] = [];
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        tick: {
          type: new GraphQLObjectType({
            name: 'Tick',
            fields: {
              n: { type: GraphQLInt },
              seenBy: {
                type: GraphQLString,
                resolve: (_e: Event, _args, ctx: { viewer: { id: string } }) => {
                  executions.push(ctx.viewer.id);
                  return ctx.viewer.id;
                },
              },
            },
          }),
          subscribe: () =>
            new Repeater<Event>((push, stop) => {
              listeners.add(push);
              stop.then(() => listeners.delete(push));
            }),
          resolve: (event: Event) => event,
        },
      },
    }),
  });
  const publish = (event: Event) => {
    for (const listener of listeners) listener(event);
  };
  return { schema, publish, executions, listeners };
}

async function subscribe(schema: GraphQLSchema, viewerId: string, query: string) {
  const stream = await subscribeSharingEvents({
    schema,
    document: parse(query),
    contextValue: { viewer: { id: viewerId } },
  });
  if (!(Symbol.asyncIterator in stream)) throw new Error(JSON.stringify(stream));
  return stream[Symbol.asyncIterator]() as AsyncIterator<ExecutionResult>;
}

describe('subscriptions sharing each event', () => {
  it('executes an event once per person and operation, whatever the number of their subscriptions', async () => {
    const { schema, publish, executions, listeners } = arrange();
    const document = 'subscription { tick { n seenBy } }';
    // Parsing is cached by the server, so one operation text is one document object.
    const parsed = parse(document);
    const open = (viewerId: string) =>
      subscribeSharingEvents({ schema, document: parsed, contextValue: { viewer: { id: viewerId } } }).then((s) =>
        (s as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator](),
      );
    const tabs = await Promise.all([open('alice'), open('alice'), open('alice'), open('bob')]);
    const other = await subscribe(schema, 'alice', 'subscription { tick { seenBy } }');
    const pending = [...tabs, other].map((tab) => tab.next());
    await new Promise((r) => setTimeout(r, 0));
    expect(listeners.size).toBe(5);

    publish({ n: 1 });
    const answers = (await Promise.all(pending)).map((r) => r.value as ExecutionResult);
    expect(answers.map((a) => a.data)).toEqual([
      { tick: { n: 1, seenBy: 'alice' } },
      { tick: { n: 1, seenBy: 'alice' } },
      { tick: { n: 1, seenBy: 'alice' } },
      { tick: { n: 1, seenBy: 'bob' } },
      { tick: { seenBy: 'alice' } },
    ]);
    // Alice's three identical subscriptions, Bob's, and Alice's other operation.
    expect(executions.sort()).toEqual(['alice', 'alice', 'bob']);

    // A later event is a fresh object: executed again.
    const next = tabs.map((tab) => tab.next());
    publish({ n: 2 });
    expect((await Promise.all(next)).map((r) => (r.value as ExecutionResult).data)).toEqual([
      { tick: { n: 2, seenBy: 'alice' } },
      { tick: { n: 2, seenBy: 'alice' } },
      { tick: { n: 2, seenBy: 'alice' } },
      { tick: { n: 2, seenBy: 'bob' } },
    ]);
    expect(executions).toHaveLength(5);
    await Promise.all([...tabs, other].map((tab) => tab.return?.()));
    expect(listeners.size).toBe(0);
  });
});
