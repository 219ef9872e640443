import { useMemo, useRef } from 'react';
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
