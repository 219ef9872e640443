import { loadQuery, type PreloadedQuery } from 'react-relay/hooks';
import type { OperationType, PreloadableConcreteRequest, Variables } from 'relay-runtime';
import { accessChangesHeard } from '../live/useAccessChanges.ts';
import { appEnvironment } from '../relay/environment.ts';

// Loaded with the first signed-in route (routes/signedIn.tsx): Relay stays out of the entry.

const changesHeardWhenAsked = new WeakMap<PreloadedQuery<OperationType>, number>();

/** Starts the screen's query; the screen reads what arrives (or what the store already has) at once. */
export function loadScreenQuery<Q extends OperationType>(
  query: PreloadableConcreteRequest<Q>,
  variables: Q['variables'],
): PreloadedQuery<Q> {
  const reference = loadQuery<Q>(appEnvironment(), query, variables, { fetchPolicy: 'store-and-network' });
  // A preload's request still on its way is the one this joins: its answer may be older.
  const preloaded = preloads.get(keyOf(query, variables));
  changesHeardWhenAsked.set(reference, Math.min(accessChangesHeard(), preloaded ?? Number.POSITIVE_INFINITY));
  return reference;
}

/** The access changes this tab had heard when `reference`'s data was asked for (live/useAccessChanges.ts). */
export function accessChangesHeardBefore(reference: PreloadedQuery<OperationType>) {
  return changesHeardWhenAsked.get(reference) ?? 0;
}

const HOLD_MS = 30_000;
/** Preloads held now, by query and variables, with the access changes heard when each was asked. */
const preloads = new Map<string, number>();
const keyOf = (query: PreloadableConcreteRequest<OperationType>, variables: Variables) =>
  `${query.params.id} ${JSON.stringify(variables)}`;

/**
 * A screen's data asked for ahead of a likely click, held long enough for it, then let go. A
 * pointer passing over the same link again meanwhile asks nothing more.
 */
export function preloadScreenQuery(query: PreloadableConcreteRequest<OperationType>, variables: Variables) {
  const key = keyOf(query, variables);
  if (preloads.has(key)) return;
  const reference = loadScreenQuery(query, variables);
  preloads.set(key, accessChangesHeard());
  setTimeout(() => {
    preloads.delete(key);
    reference.dispose();
  }, HOLD_MS);
}
