import { useCallback, useMemo } from 'react';
import { graphql, usePaginationFragment } from 'react-relay/hooks';
import type { FilteredPhotos_gallery$key } from './__generated__/FilteredPhotos_gallery.graphql';
import type { FilteredPhotosPaginationQuery } from './__generated__/FilteredPhotosPaginationQuery.graphql';
import { PAGE_SIZE, photoOfItem } from './GalleryPhotos.tsx';
import type { Photo } from './photos.ts';

/**
 * The photos that match the pick filter, a page at a time as the grid scrolls; null while no
 * filter is chosen (the screen's query then does not ask for them).
 */
export function useFilteredPhotos(key: FilteredPhotos_gallery$key | null | undefined) {
  const { data, hasNext, loadNext, isLoadingNext } = usePaginationFragment<
    FilteredPhotosPaginationQuery,
    FilteredPhotos_gallery$key
  >(
    graphql`
      fragment FilteredPhotos_gallery on Gallery
      @refetchable(queryName: "FilteredPhotosPaginationQuery")
      @argumentDefinitions(
        filter: { type: "FeedbackFilter!" }
        count: { type: "Int", defaultValue: 48 }
        cursor: { type: "String" }
      ) {
        feedbackItems(filter: $filter, first: $count, after: $cursor)
          @connection(key: "FilteredPhotos_feedbackItems", filters: ["filter"]) {
          __id
          totalCount
          edges {
            node {
              ...GalleryPhotos_item
            }
          }
        }
      }
    `,
    key ?? null,
  );
  const edges = data?.feedbackItems.edges;
  const photos = useMemo<Photo[]>(
    () =>
      (edges ?? [])
        .map((edge) => edge?.node)
        .filter((node): node is NonNullable<typeof node> => Boolean(node))
        .map(photoOfItem),
    [edges],
  );
  const loadMore = useCallback(() => {
    if (hasNext && !isLoadingNext) loadNext(PAGE_SIZE);
  }, [hasNext, isLoadingNext, loadNext]);
  if (!data) return null;
  return {
    photos,
    total: data.feedbackItems.totalCount,
    hasNext,
    isLoadingNext,
    loadMore,
    connectionId: data.feedbackItems.__id,
  };
}
