import { graphql } from 'react-relay/hooks';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { inputClass } from '../../ui/Field.tsx';
import type { GalleryOrderMoveMutation } from './__generated__/GalleryOrderMoveMutation.graphql';
import type { GalleryOrderSetMutation, GalleryPhotoOrder } from './__generated__/GalleryOrderSetMutation.graphql';
import type { Photo } from './photos.ts';

// The order of a gallery's photos, kept on the gallery for everyone (api/src/galleries/order.ts):
// editors choose a sort or arrange the photos by hand; everyone else sees the order chosen.

export const PHOTO_ORDER_LABELS: Record<Exclude<GalleryPhotoOrder, '%future added value'>, string> = {
  manual: 'Custom order',
  taken_desc: 'Date taken, newest first',
  taken_asc: 'Date taken, oldest first',
  name_asc: 'Name, A to Z',
  name_desc: 'Name, Z to A',
  added_desc: 'Date added, newest first',
  added_asc: 'Date added, oldest first',
};

/** The order chooser: a select for editors, the order's name for everyone else. */
export function GallerySortMenu({
  galleryId,
  order,
  canEdit,
  onChanged,
}: {
  galleryId: string;
  order: GalleryPhotoOrder;
  canEdit: boolean;
  onChanged: () => void;
}) {
  const [commit, saving] = useMutationWithToasts<GalleryOrderSetMutation>(
    graphql`
      mutation GalleryOrderSetMutation($id: ID!, $order: GalleryPhotoOrder!) {
        setGalleryPhotoOrder(id: $id, order: $order) {
          __typename
          ... on MutationSetGalleryPhotoOrderSuccess {
            data {
              id
              photoOrder
            }
          }
          ... on Error {
            message
          }
        }
      }
    `,
    { outcome: (r) => r.setGalleryPhotoOrder, failure: 'The order could not be changed.', serverMessage: true },
  );
  const label = PHOTO_ORDER_LABELS[order as keyof typeof PHOTO_ORDER_LABELS] ?? order;
  if (!canEdit) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="photo-order">
        Order: {label}
      </p>
    );
  }
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
      <span className="shrink-0">Order</span>
      <select
        className={`${inputClass} w-auto py-1.5`}
        value={order}
        disabled={saving}
        onChange={(event) =>
          commit({
            variables: { id: galleryId, order: event.target.value as GalleryPhotoOrder },
            onSuccess: onChanged,
          })
        }
      >
        {Object.entries(PHOTO_ORDER_LABELS).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * "Move earlier" and "Move later" for the photo open in the lightbox: the keyboard's way to arrange
 * the photos by hand (the first move in a sorted gallery makes that order the custom one).
 */
export function PhotoMoveActions({
  galleryId,
  photos,
  index,
  hasMore,
  onMoved,
}: {
  galleryId: string;
  photos: readonly Photo[];
  index: number;
  hasMore: boolean;
  onMoved: (newIndex: number) => void;
}) {
  const [commit, moving] = useMutationWithToasts<GalleryOrderMoveMutation>(
    graphql`
      mutation GalleryOrderMoveMutation($galleryId: ID!, $fileId: ID!, $beforeFileId: ID) {
        moveGalleryItem(galleryId: $galleryId, fileId: $fileId, beforeFileId: $beforeFileId) {
          __typename
          ... on MutationMoveGalleryItemSuccess {
            data {
              id
              position
            }
          }
          ... on Error {
            message
          }
        }
      }
    `,
    { outcome: (r) => r.moveGalleryItem, failure: 'The photo could not be moved.', serverMessage: true },
  );
  const photo = photos[index];
  if (!photo) return null;
  const earlier = photos[index - 1];
  // Later: before the photo after the next one; to the end when the next one is the last.
  const afterNext = photos[index + 2];
  const canLater = index + 1 < photos.length && (afterNext !== undefined || !hasMore);
  const move = (beforeFileId: string | null, newIndex: number) =>
    commit({ variables: { galleryId, fileId: photo.id, beforeFileId }, onSuccess: () => onMoved(newIndex) });
  const buttonClass =
    'rounded-md border border-white/40 px-3 py-1.5 text-sm text-white hover:bg-white/10 aria-disabled:cursor-not-allowed aria-disabled:opacity-50';
  return (
    <>
      {/* aria-disabled, not disabled: the photo that reached the first place keeps the focus on its
          button, so the keyboard (Escape, Tab) goes on from there instead of from the page's top. */}
      <button
        type="button"
        className={buttonClass}
        aria-disabled={moving || !earlier}
        onClick={() => !moving && earlier && move(earlier.id, index - 1)}
      >
        Move earlier
      </button>
      <button
        type="button"
        className={buttonClass}
        aria-disabled={moving || !canLater}
        onClick={() => !moving && canLater && move(afterNext?.id ?? null, index + 1)}
      >
        Move later
      </button>
    </>
  );
}
