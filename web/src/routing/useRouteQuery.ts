import { type GraphQLTaggedNode, type PreloadedQuery, usePreloadedQuery, useQueryLoader } from 'react-relay/hooks';
import { useLoaderData, useRevalidator } from 'react-router-dom';
import type { OperationType } from 'relay-runtime';
import { type AccessChange, useAccessChanges } from '../live/useAccessChanges.ts';
import { accessChangesHeardBefore } from './queries.ts';

/**
 * The screen's query as its route's loader started it (routing/queries.ts), and `refresh` to read
 * it again after a change the store cannot follow by itself (another person's edit, a task that
 * moves between lists): the loader runs again and the screen keeps what it shows until the
 * answer comes. With `refreshOn`, it is read again on each access change it picks, including
 * those heard while its answer was on its way.
 */
export function useRouteQuery<Q extends OperationType>(
  query: GraphQLTaggedNode,
  { refreshOn }: { refreshOn?: (change: AccessChange) => boolean } = {},
) {
  const loaded = useLoaderData() as PreloadedQuery<Q>;
  // Holds each reference the route hands over and lets go of the one it replaces.
  const [reference] = useQueryLoader<Q>(query, loaded);
  const { revalidate } = useRevalidator();
  useAccessChanges(accessChangesHeardBefore(loaded), (change) => {
    if (refreshOn?.(change)) void revalidate();
  });
  return { data: usePreloadedQuery<Q>(query, reference ?? loaded), refresh: revalidate };
}
