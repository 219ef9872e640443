import { useMemo } from 'react';
import { fetchQuery, graphql, useRelayEnvironment, useSubscription } from 'react-relay/hooks';
import type { Environment, GraphQLSubscriptionConfig } from 'relay-runtime';
import type { useProcessedPicturesFilesQuery } from './__generated__/useProcessedPicturesFilesQuery.graphql';
import type { useProcessedPicturesSubscription } from './__generated__/useProcessedPicturesSubscription.graphql';

/**
 * A picture's thumbnails and EXIF facts are made by a job after its upload has answered. When the
 * job finishes the server says so; the files it carries land in the Relay store by their ids, so
 * every screen showing them (gallery grid and map, file manager, pickers) swaps its placeholder
 * for the thumbnail at once, without a reload.
 */
export function useProcessedPictures() {
  const environment = useRelayEnvironment();
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
        onNext: (response) => {
          // The opening event (no uploadId): a job that ended before it was not heard.
          if (response && response.uploadProcessed.uploadId === null) readAgainStillProcessing(environment);
        },
      }),
      [environment],
    ),
  );
}

/** Reads again, with the fields the subscription carries, every file the store holds as still processing. */
function readAgainStillProcessing(environment: Environment) {
  const source = environment.getStore().getSource();
  const ids = source.getRecordIDs().filter((id) => {
    const record = source.get(id);
    if (record?.__typename !== 'File') return false;
    const metadata = record.metadata as { processing?: unknown } | null | undefined;
    return record.processing === true || metadata?.processing === true;
  });
  if (ids.length === 0) return;
  fetchQuery<useProcessedPicturesFilesQuery>(
    environment,
    graphql`
      query useProcessedPicturesFilesQuery($ids: [ID!]!) {
        nodes(ids: $ids) {
          ... on File {
            id
            processing
            metadata
            thumbnailUrl
          }
        }
      }
    `,
    { ids },
  ).subscribe({});
}

/** Mount once in the signed-in shell. */
export function ProcessedPictures() {
  useProcessedPictures();
  return null;
}
