import type { ComponentProps } from 'react';
import { lazyDialog } from '../../ui/lazyDialog.tsx';
import type { FilePickerDialog as Picker } from './FilePickerDialog.tsx';
import type { Lightbox as Viewer } from './Lightbox.tsx';
import type { ReviewLinksDialog as ReviewLinks } from './ReviewLinksDialog.tsx';
import type { ShareGalleryDialog as Share } from './ShareGalleryDialog.tsx';

// The gallery screens' dialogs and the lightbox, each loaded when it first opens (ui/lazyDialog.tsx).

export const ShareGalleryDialog = lazyDialog(
  () => import('./ShareGalleryDialog.tsx').then((m) => m.ShareGalleryDialog),
  (props: ComponentProps<typeof Share>) => props.gallery !== null,
);

export const ReviewLinksDialog = lazyDialog(
  () => import('./ReviewLinksDialog.tsx').then((m) => m.ReviewLinksDialog),
  (props: ComponentProps<typeof ReviewLinks>) => props.galleryId !== null,
);

export const FilePickerDialog = lazyDialog(
  () => import('./FilePickerDialog.tsx').then((m) => m.FilePickerDialog),
  (props: ComponentProps<typeof Picker>) => props.open,
);

export const Lightbox = lazyDialog(
  () => import('./Lightbox.tsx').then((m) => m.Lightbox),
  (props: ComponentProps<typeof Viewer>) => props.index !== null,
);
