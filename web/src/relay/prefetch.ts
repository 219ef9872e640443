import type { Variables } from 'relay-runtime';
import { serverPage } from '../lib/serverPage.ts';

// A screen's query sent before Relay's runtime has loaded (routes/signedIn.tsx); the network layer
// (environment.ts) takes the answer when Relay asks for the same operation, so it is sent once.
// Nothing from Relay is imported here at run time: this sits in the entry.

/** Older than this, a prefetched answer is not handed out: Relay asks afresh. */
const FRESH_MS = 10_000;
const waiting = new Map<string, { response: Promise<Response>; at: number }>();

const keyOf = (id: string, variables: Variables) => `${id} ${JSON.stringify(variables)}`;

let carried: Map<string, unknown> | null = null;
function carriedAnswers(): Map<string, unknown> {
  const page = serverPage();
  if (page) return page.answers;
  if (!carried) {
    const block = document.getElementById('scoutbase-answers');
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(block?.textContent || '{}');
    } catch {
      // A page cut short: its queries go to the network.
    }
    carried = new Map(Object.entries(parsed));
    block?.remove();
  }
  return carried;
}

/**
 * The answer the page came with for this query (api/src/http/web-page.ts: a signed-in screen's
 * first queries, answered by the server as it sent the page), once. The network layer hands it to
 * Relay as it is, in the same turn, so the screen's first render has its data and shows no
 * placeholder in between.
 */
export function takeCarried(id: string, variables: Variables): unknown {
  return takeCarriedAt(keyOf(id, variables));
}

/** What the page carries under this key, left for whoever takes it. */
export function peekCarriedAt(key: string): unknown {
  return carriedAnswers().get(key);
}

/** What the page carries under this key (the profile's is CARRIED_PROFILE), once. */
export function takeCarriedAt(key: string): unknown {
  const answer = carriedAnswers().get(key);
  carried?.delete(key);
  return answer;
}

/** One GraphQL request over HTTP, as the network layer and the prefetch both send it. */
export function postGraphQL(body: object): Promise<Response> {
  return fetch('/graphql', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * Sends the operation now. An answer still waiting for the same operation is dropped: whoever
 * asks again (a route read again after a change) wants data at least as new as the asking.
 */
export function prefetchOperation(id: string, variables: Variables) {
  const key = keyOf(id, variables);
  // Relay takes it from the page (takeCarried) when it asks. A render on the server has only those.
  if (carriedAnswers().has(key) || serverPage()) return;
  const response = postGraphQL({ doc_id: id, variables });
  // A failure is Relay's to report when it takes the answer; none is left unhandled meanwhile.
  response.catch(() => {});
  waiting.set(key, { response, at: Date.now() });
}

/** Drops every waiting answer: a mutation is on its way, and they may predate what it changes. */
export function forgetPrefetched() {
  waiting.clear();
  carried = new Map();
}

/** The prefetched answer for this operation, once: later asks go to the network. */
export function takePrefetched(id: string, variables: Variables): Promise<Response> | null {
  const key = keyOf(id, variables);
  const entry = waiting.get(key);
  waiting.delete(key);
  return entry && Date.now() - entry.at < FRESH_MS ? entry.response : null;
}
