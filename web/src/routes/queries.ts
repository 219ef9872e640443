import { loadQuery, type PreloadedQuery } from 'react-relay';
import type { OperationType, PreloadableConcreteRequest, Variables } from 'relay-runtime';
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
