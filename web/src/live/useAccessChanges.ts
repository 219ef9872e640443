import { useMemo, useRef, useState } from 'react';
import { graphql, useSubscription } from 'react-relay';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import type {
  useAccessChangesSubscription,
  useAccessChangesSubscription$data,
} from './__generated__/useAccessChangesSubscription.graphql';

export type AccessChange = useAccessChangesSubscription$data['accessChanged'];

/**
 * Calls `onChange` each time what the signed-in user may see changes elsewhere: an invitation to
 * them or to a project they manage, a project's crew, a gallery shared with or revoked from one of
 * their projects. Screens re-read their query on it instead of waiting for a reload.
 */
export function useAccessChanges(onChange: (change: AccessChange) => void) {
  const latest = useRef(onChange);
  latest.current = onChange;
  useSubscription<useAccessChangesSubscription>(
    useMemo<GraphQLSubscriptionConfig<useAccessChangesSubscription>>(
      () => ({
        subscription: graphql`
          subscription useAccessChangesSubscription {
            accessChanged {
              kind
              projectId
              galleryId
              galleriesChanged
            }
          }
        `,
        variables: {},
        onNext: (response) => {
          if (response) latest.current(response.accessChanged);
        },
      }),
      [],
    ),
  );
}

/**
 * A number that grows with each access change (only those `matters` keeps): pass it as a query's
 * fetchKey with fetchPolicy 'store-and-network' and the screen refreshes in place.
 */
export function useAccessVersion(matters: (change: AccessChange) => boolean = () => true): number {
  const [version, setVersion] = useState(0);
  useAccessChanges((change) => {
    if (matters(change)) setVersion((v) => v + 1);
  });
  return version;
}
