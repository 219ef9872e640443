import { useMemo } from 'react';
import { graphql, useSubscription } from 'react-relay';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import type { useProcessedPicturesSubscription } from './__generated__/useProcessedPicturesSubscription.graphql';

/**
 * A picture's thumbnails and EXIF facts are made by a job after its upload has answered. When the
 * job finishes the server says so; the files it carries land in the Relay store by their ids, so
 * every screen showing them (gallery grid and map, file manager, pickers) swaps its placeholder
 * for the thumbnail at once, without a reload.
 */
export function useProcessedPictures() {
  useSubscription<useProcessedPicturesSubscription>(
    useMemo<GraphQLSubscriptionConfig<useProcessedPicturesSubscription>>(
      () => ({
        subscription: graphql`
          subscription useProcessedPicturesSubscription {
            uploadProcessed {
              uploadId
              files {
                id
                processing
                metadata
                thumbnailUrl
              }
            }
          }
        `,
        variables: {},
      }),
      [],
    ),
  );
}

/** Mount once in the signed-in shell. */
export function ProcessedPictures() {
  useProcessedPictures();
  return null;
}
