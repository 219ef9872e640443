import { type ReactNode, Suspense, useEffect } from 'react';
import { type PreloadedQuery, useQueryLoader } from 'react-relay/hooks';
import type { FetchPolicy, GraphQLTaggedNode, OperationType } from 'relay-runtime';
import { Spinner } from '../ui/Spinner.tsx';

/**
 * The data of something opened on demand (a dialog, a level of a picker): asked for as soon as it
 * opens, with `variables`, and read inside with usePreloadedQuery; null closes it and lets Relay
 * release the data. Until the answer for these variables is on its way there is no reference (show
 * a spinner), so a picker moving to another folder never shows the last one's folders as its own.
 */
export function useQueryWhileOpen<Q extends OperationType>(
  query: GraphQLTaggedNode,
  variables: Q['variables'] | null,
  fetchPolicy: FetchPolicy = 'store-and-network',
): PreloadedQuery<Q> | null {
  const [reference, load, dispose] = useQueryLoader<Q>(query);
  const key = variables === null ? null : JSON.stringify(variables);
  useEffect(() => {
    if (key === null) dispose();
    else load(JSON.parse(key), { fetchPolicy });
  }, [key, load, dispose, fetchPolicy]);
  return reference && key !== null && JSON.stringify(reference.variables) === key ? reference : null;
}

/** `children` with the query's reference once it is asked for; `fallback` until then and while it loads. */
export function WhenLoaded<Reference extends PreloadedQuery<OperationType>>({
  reference,
  fallback = <Spinner />,
  children,
}: {
  reference: Reference | null;
  fallback?: ReactNode;
  children: (reference: Reference) => ReactNode;
}) {
  // Not the fallback inside Suspense before the reference: the query's first suspension would then
  // hide that fallback (a mounted dialog, say) and show a second one beside it.
  return reference ? <Suspense fallback={fallback}>{children(reference)}</Suspense> : fallback;
}
