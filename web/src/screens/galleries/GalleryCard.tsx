import { graphql, useFragment } from 'react-relay';
import type { GalleryCard_gallery$data, GalleryCard_gallery$key } from './__generated__/GalleryCard_gallery.graphql';
import { GalleryCardView } from './GalleryCardView.tsx';

export type GalleryCardData = GalleryCard_gallery$data;

/** A gallery card: cover thumbnail, name, badge, up to 3 tags, photo count and its menu. */
export function GalleryCard({
  gallery: key,
  onEdit,
  onShare,
  onDelete,
}: {
  gallery: GalleryCard_gallery$key;
  onEdit: (gallery: GalleryCardData) => void;
  onShare: (gallery: GalleryCardData) => void;
  onDelete: (gallery: GalleryCardData) => void;
}) {
  const gallery = useFragment(
    graphql`
      fragment GalleryCard_gallery on Gallery {
        id
        name
        description
        tags
        movieTvShow
        location
        propertyType
        isPublic
        photoCount
        coverImageUrl
        viewerCanEdit
        viewerCanShare
        viewerCanDelete
        createdAt
        ...GalleryFormDialog_gallery
      }
    `,
    key,
  );
  return (
    <GalleryCardView
      gallery={{
        ...gallery,
        createdAt: String(gallery.createdAt),
        coverUrl: gallery.coverImageUrl && `${gallery.coverImageUrl}?variant=grid`,
      }}
      actions={{ onEdit: () => onEdit(gallery), onShare: () => onShare(gallery), onDelete: () => onDelete(gallery) }}
    />
  );
}
