import { loadQuery, type PreloadedQuery } from 'react-relay';
import {
  createOperationDescriptor,
  type OperationType,
  type PreloadableConcreteRequest,
  PreloadableQueryRegistry,
  type Variables,
} from 'relay-runtime';
import { appEnvironment } from '../relay/environment.ts';
import { SHELL_QUERIES } from './screenQueries.ts';

// Loaded with the first signed-in route (routes/signedIn.tsx): Relay stays out of the entry.

/** Starts the screen's query; the screen reads what arrives (or what the store already has) at once. */
export function loadScreenQuery<Q extends OperationType>(
  query: PreloadableConcreteRequest<Q>,
  variables: Q['variables'],
): PreloadedQuery<Q> {
  return loadQuery<Q>(appEnvironment(), query, variables, { fetchPolicy: 'store-and-network' });
}

/**
 * How long a route waits for its screen's data before it shows the screen's placeholders. A screen
 * that shows placeholders first cannot show its content sooner than 300 ms later: React holds back
 * revealing a suspended part of the page for that long after a placeholder appeared, so the page
 * does not flicker. Data that comes within this wait is shown at once instead, in one paint.
 */
const SCREEN_DATA_WAIT_MS = 400;

/**
 * The screen's query, started, once the screen can show its content in one paint: at once when
 * the store holds its data already (a screen seen before shows it and refreshes), else when the
 * answer is in (or failed), or after SCREEN_DATA_WAIT_MS, whichever comes first.
 */
export async function loadScreenData<Q extends OperationType>(
  query: PreloadableConcreteRequest<Q>,
  variables: Q['variables'],
): Promise<PreloadedQuery<Q>> {
  const seen = storeHolds(query, variables);
  const reference = loadScreenQuery(query, variables);
  const { source } = reference;
  if (seen || !source) return reference;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, SCREEN_DATA_WAIT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    source.subscribe({ complete: done, error: done });
  });
  return reference;
}

function storeHolds(query: PreloadableConcreteRequest<OperationType>, variables: Variables) {
  // The query's full text arrives with its screen's code; before that the store cannot hold it.
  const request = query.params.id ? PreloadableQueryRegistry.get(query.params.id) : null;
  return (
    request != null && appEnvironment().check(createOperationDescriptor(request, variables)).status === 'available'
  );
}

/** The shell's queries (SHELL_QUERIES), started with the first signed-in screen's. */
export function loadShellQueries() {
  const { theme, storage, bell } = SHELL_QUERIES;
  return { theme: loadScreenQuery(theme, {}), storage: loadScreenQuery(storage, {}), bell: loadScreenQuery(bell, {}) };
}

export type ShellData = ReturnType<typeof loadShellQueries>;

const HOLD_MS = 30_000;
const held = new Set<string>();

/**
 * A screen's data asked for ahead of a likely click, held long enough for it, then let go. A
 * pointer passing over the same link again meanwhile asks nothing more.
 */
export function preloadScreenQuery(query: PreloadableConcreteRequest<OperationType>, variables: Variables) {
  const key = `${query.params.id} ${JSON.stringify(variables)}`;
  if (held.has(key)) return;
  held.add(key);
  const reference = loadScreenQuery(query, variables);
  setTimeout(() => {
    held.delete(key);
    reference.dispose();
  }, HOLD_MS);
}
