import { graphql, readInlineData } from 'react-relay/hooks';
import { lazyDialog } from '../../ui/lazyDialog.tsx';
import type { GalleryFormDialog_gallery$key } from './__generated__/GalleryFormDialog_gallery.graphql';
import type { GalleryFormDialogProps } from './GalleryFormDialogView.tsx';
import type { GalleryForm } from './options.ts';

export type { GalleryInput } from './GalleryFormDialogView.tsx';

// Every field the edit form shows and saves: both gallery screens spread it to fill the form, and the update
// mutation selects it so whichever screen shows an edited field reads the saved value.
const galleryFormFragment = graphql`
  fragment GalleryFormDialog_gallery on Gallery @inline {
    name
    description
    tags
    projectName
    movieTvShow
    location
    propertyType
    style
    status
    isPublic
  }
`;

/** The edit form's starting values for a gallery. */
export function formOf(key: GalleryFormDialog_gallery$key): Partial<GalleryForm> {
  const gallery = readInlineData(galleryFormFragment, key);
  return {
    name: gallery.name,
    description: gallery.description ?? '',
    tags: gallery.tags.join(', '),
    projectName: gallery.projectName ?? '',
    movieTvShow: gallery.movieTvShow ?? '',
    location: gallery.location ?? '',
    propertyType: gallery.propertyType ?? '',
    style: gallery.style ?? '',
    status: gallery.status,
    isPublic: gallery.isPublic,
  };
}

/** The 'New Gallery' dialog, and the same form for Edit Gallery with the gallery's values. */
export const GalleryFormDialog = lazyDialog(
  () => import('./GalleryFormDialogView.tsx').then((m) => m.GalleryFormDialogView),
  (props: GalleryFormDialogProps) => props.open,
);
