import { useCallback, useMemo, useState } from 'react';
import { graphql, readInlineData, usePaginationFragment } from 'react-relay/hooks';
import type { GalleryPhotos_gallery$key } from './__generated__/GalleryPhotos_gallery.graphql';
import type { GalleryPhotos_item$key } from './__generated__/GalleryPhotos_item.graphql';
import { hasGrid2x } from '../../lib/pictures.ts';
import { imageFacts, isProcessing, type Photo } from './photos.ts';

/** Pages after the first, as the grid scrolls near the end (the server answers at most 100). */
export const PAGE_SIZE = 200;

/**
 * The gallery's photos, read a page at a time as the grid scrolls. The first page (`count`'s
 * default) is what the widest screen shows at once, 8 columns by 6 rows: each photo more is JSON
 * the page carries and Relay reads before the first thumbnail can show (bench/gallery.ts).
 */
export function useGalleryPhotos(key: GalleryPhotos_gallery$key) {
  const { data, hasNext, loadNext, isLoadingNext } = usePaginationFragment(
    graphql`
      fragment GalleryPhotos_gallery on Gallery
      @refetchable(queryName: "GalleryPhotosPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 48 }, cursor: { type: "String" }) {
        items(first: $count, after: $cursor) @connection(key: "GalleryPhotos_items") {
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
    key,
  );

  const photos = useMemo<Photo[]>(
    () =>
      data.items.edges
        .map((edge) => edge?.node)
        .filter((node): node is NonNullable<typeof node> => Boolean(node))
        .map(photoOfItem),
    [data.items.edges],
  );

  const loadMore = useCallback(() => {
    if (hasNext && !isLoadingNext) loadNext(PAGE_SIZE);
  }, [hasNext, isLoadingNext, loadNext]);

  return { photos, total: data.items.totalCount, hasNext, isLoadingNext, loadMore, connectionId: data.items.__id };
}

/** A gallery item as the grid shows it (this list's, and the pick filter's: FilteredPhotos.tsx). */
export function photoOfItem(key: GalleryPhotos_item$key): Photo {
  const node = readInlineData(
    graphql`
      fragment GalleryPhotos_item on GalleryItem @inline {
        id
        fileId
        name
        mimeType
        url
        file {
          size
          tags
          metadata
        }
        feedback {
          yes
          no
          maybe
          comments
        }
      }
    `,
    key,
  );
  return {
    id: node.fileId,
    itemId: node.id,
    name: node.name,
    mimeType: node.mimeType,
    size: node.file.size,
    objectPath: node.url,
    tags: node.file.tags,
    ...imageFacts(node.file.metadata),
    processing: isProcessing(node.file.metadata),
    grid2x: hasGrid2x(node.file.metadata),
    feedback: node.feedback,
  };
}

export function useLightbox() {
  const [index, setIndex] = useState<number | null>(null);
  return { index, open: setIndex, close: () => setIndex(null) };
}
