import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  GraphQLError,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

type Answer = ExecutionResult | Promise<ExecutionResult>;

// A person with many tabs holds the same subscription many times, and the pub/sub hands each of
// them the same event object. Executing the event once per person and operation, not once per
// tab, is what keeps one notification to 1,000 open tabs near a plain broadcast (bench/live.ts).
// Keyed weakly by the event: an answer lives exactly as long as the event is being delivered.
// Every tab gets the very same answer object, which graphql-ws (patches/graphql-ws@6.4.2.patch)
// then serializes once for all the sockets.
const answersByEvent = new WeakMap<object, Map<string, Answer>>();
const documentIds = new WeakMap<DocumentNode, number>();
let lastDocumentId = 0;

/** The same parsed operation (yoga's parse cache hands out one object per text) gets one id. */
function documentId(document: DocumentNode) {
  let id = documentIds.get(document);
  if (id === undefined) {
    id = ++lastDocumentId;
    documentIds.set(document, id);
  }
  return id;
}

/** Every subscription answers only from the viewer's own rows, so the viewer is the whole audience. */
function audienceOf(args: ExecutionArgs) {
  const viewerId = (args.contextValue as { viewer?: { id?: string } } | undefined)?.viewer?.id;
  if (!viewerId) return null;
  return [
    viewerId,
    documentId(args.document),
    args.operationName ?? '',
    JSON.stringify(args.variableValues ?? {}),
  ].join('\0');
}

function answerTo(args: ExecutionArgs, audience: string | null, event: unknown): Answer {
  if (audience === null || typeof event !== 'object' || event === null) return execute({ ...args, rootValue: event });
  let answers = answersByEvent.get(event);
  if (!answers) {
    answers = new Map();
    answersByEvent.set(event, answers);
  }
  let answer = answers.get(audience);
  if (!answer) {
    answer = execute({ ...args, rootValue: event });
    answers.set(audience, answer);
  }
  return answer;
}

/**
 * graphql-js's subscribe, with each event executed once per person and operation and the answer
 * (an immutable result) shared by all of that person's identical subscriptions.
 */
export async function subscribeSharingEvents(
  args: ExecutionArgs,
): Promise<AsyncIterable<ExecutionResult> | ExecutionResult> {
  let events: Awaited<ReturnType<typeof createSourceEventStream>>;
  try {
    events = await createSourceEventStream(args);
  } catch (error) {
    return { errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error))] };
  }
  if (!(Symbol.asyncIterator in events)) return events;
  // A plain iterator rather than another Repeater: each layer costs every subscriber a few
  // promise hops per event, and closing passes straight through to the pub/sub.
  const source = events[Symbol.asyncIterator]();
  // The same for every event of this subscription: worked out once, not per event and tab.
  const audience = audienceOf(args);
  const done = { done: true, value: undefined } as const;
  const answers: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => answers,
    next: async () => {
      const next = await source.next();
      return next.done ? done : { done: false, value: await answerTo(args, audience, next.value) };
    },
    return: async () => {
      await source.return?.();
      return done;
    },
    throw: async (error: unknown) => {
      await source.return?.();
      throw error;
    },
  };
  return answers;
}

/** The yoga plugin that subscribes every operation, on every transport, through subscribeSharingEvents. */
export const shareSubscriptionEvents: Plugin = {
  onSubscribe: ({ setSubscribeFn }) => setSubscribeFn(subscribeSharingEvents as Parameters<typeof setSubscribeFn>[0]),
};
