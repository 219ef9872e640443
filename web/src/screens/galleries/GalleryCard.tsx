import { MenuItem } from '@headlessui/react';
import { graphql, useFragment } from 'react-relay/hooks';
import { Link } from 'react-router-dom';
import { appPath } from '../../lib/globalId.ts';
import { ActionsMenu, ActionsMenuItem, menuItemClass } from '../../ui/ActionsMenu.tsx';
import type { GalleryCard_gallery$data, GalleryCard_gallery$key } from './__generated__/GalleryCard_gallery.graphql';
import { GalleryCardView } from './GalleryCardView.tsx';

export type GalleryCardData = GalleryCard_gallery$data;

/** Whose gallery it is and through which projects it reaches the viewer (or goes out to others). */
export function sharingOf(gallery: Pick<GalleryCardData, 'viewerAccess' | 'owner' | 'shares'>) {
  // A share revoked in this tab is deleted from the store before the list is read again: the list
  // then holds a hole (null) where it was, whatever the generated type says.
  const projects = gallery.shares.flatMap((s) => (s?.status === 'active' ? [s.project.name] : []));
  return gallery.viewerAccess === 'owner'
    ? { access: 'owner' as const, sharedWith: projects }
    : { access: gallery.viewerAccess, sharedBy: gallery.owner.displayName, via: projects };
}

/** A gallery card: cover thumbnail, name, badge, up to 3 tags, photo count and its menu. */
export function GalleryCard({
  gallery: key,
  onEdit,
  onShare,
  onDelete,
  first,
}: {
  gallery: GalleryCard_gallery$key;
  first?: boolean;
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
        coverImage2xUrl
        viewerCanEdit
        viewerCanShare
        viewerCanDelete
        viewerAccess
        owner {
          displayName
        }
        shares {
          status
          project {
            name
          }
        }
        createdAt
        ...GalleryFormDialog_gallery
      }
    `,
    key,
  );
  const href = appPath.gallery(gallery.id);
  // What the viewer may do (the API decides): the menu offers only that.
  const menu = (
    <ActionsMenu label={`Actions for ${gallery.name}`} marginClass="-mr-1">
      <MenuItem>
        <Link to={href} className={menuItemClass}>
          View Gallery
        </Link>
      </MenuItem>
      {gallery.viewerCanEdit && <ActionsMenuItem onClick={() => onEdit(gallery)}>Edit Gallery</ActionsMenuItem>}
      {gallery.viewerCanShare && <ActionsMenuItem onClick={() => onShare(gallery)}>Share Gallery</ActionsMenuItem>}
      {gallery.viewerCanDelete && (
        <ActionsMenuItem onClick={() => onDelete(gallery)} danger>
          Delete Gallery
        </ActionsMenuItem>
      )}
    </ActionsMenu>
  );
  return <GalleryCardView gallery={{ ...gallery, ...sharingOf(gallery) }} menu={menu} first={first} />;
}
