import { useMemo, useRef } from 'react';
import { graphql, useSubscription } from 'react-relay/hooks';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import type { useLiveRefreshGalleryItemsSubscription } from './__generated__/useLiveRefreshGalleryItemsSubscription.graphql';
import type { useLiveRefreshTasksSubscription } from './__generated__/useLiveRefreshTasksSubscription.graphql';

// Screens that other people's actions change read their data again when the server says so: the
// event names what changed, the screen's own query reads it (with the reader's access applied).

function useLatest<T>(value: T) {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}

/** Calls `refresh` whenever one of the viewer's tasks changes, whoever changed it (assigned, edited, done…). */
export function useTasksChanged(refresh: () => void) {
  const latest = useLatest(refresh);
  useSubscription<useLiveRefreshTasksSubscription>(
    useMemo<GraphQLSubscriptionConfig<useLiveRefreshTasksSubscription>>(
      () => ({
        subscription: graphql`
          subscription useLiveRefreshTasksSubscription {
            tasksChanged {
              taskId
            }
          }
        `,
        variables: {},
        onNext: () => latest.current(),
      }),
      [latest],
    ),
  );
}

/**
 * Calls `refresh` whenever photos are added to or taken out of the gallery (any gallery the viewer
 * can see, when `galleryId` is null: for the gallery list's counts and covers).
 */
export function useGalleryItemsChanged(galleryId: string | null, refresh: () => void) {
  const latest = useLatest(refresh);
  useSubscription<useLiveRefreshGalleryItemsSubscription>(
    useMemo<GraphQLSubscriptionConfig<useLiveRefreshGalleryItemsSubscription>>(
      () => ({
        subscription: graphql`
          subscription useLiveRefreshGalleryItemsSubscription($galleryId: ID) {
            galleryItemsChanged(galleryId: $galleryId) {
              galleryId
            }
          }
        `,
        variables: { galleryId },
        onNext: () => latest.current(),
      }),
      [galleryId, latest],
    ),
  );
}
