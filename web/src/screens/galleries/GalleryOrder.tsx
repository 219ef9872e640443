import { graphql } from 'react-relay/hooks';
import type { RecordProxy, RecordSourceSelectorProxy } from 'relay-runtime';
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

/** Where a moved photo goes: just before another, just after another, or (neither) to the end. */
export type MoveTarget = { beforeFileId?: string | null; afterFileId?: string | null };

/**
 * Puts the moved photo's edge where the server puts its item, in each of the gallery's loaded
 * lists, and the gallery in custom order: the grid and the lightbox follow without reading the
 * gallery again (which would start the grid over at its first page). A target not loaded in a list
 * leaves that list as it was.
 */
function moveInStore(
  store: RecordSourceSelectorProxy,
  galleryId: string,
  connectionIds: readonly string[],
  fileId: string,
  { beforeFileId, afterFileId }: MoveTarget,
) {
  store.get(galleryId)?.setValue('manual', 'photoOrder');
  const fileOf = (edge: RecordProxy | null | undefined) => edge?.getLinkedRecord('node')?.getValue('fileId');
  for (const id of connectionIds) {
    const connection = store.get(id);
    const edges = connection?.getLinkedRecords('edges');
    const from = edges?.findIndex((edge) => fileOf(edge) === fileId) ?? -1;
    const moved = edges?.[from];
    if (!connection || !edges || !moved) continue;
    const rest = edges.filter((_, i) => i !== from);
    const target = beforeFileId ?? afterFileId;
    const at = target ? rest.findIndex((edge) => fileOf(edge) === target) : rest.length;
    if (at < 0) continue;
    rest.splice(afterFileId ? at + 1 : at, 0, moved);
    connection.setLinkedRecords(rest, 'edges');
    // The next page goes on after the last photo loaded, whichever that is now.
    connection.getLinkedRecord('pageInfo')?.setValue(rest.at(-1)?.getValue('cursor'), 'endCursor');
  }
}

/**
 * Moves a photo in the gallery's order (the server's moveGalleryItem); the lists given follow from
 * its answer, or at once with `optimistic` (a drop in the grid), going back if it fails.
 */
export function useMovePhoto(galleryId: string, connectionIds: readonly string[]) {
  const [commit, moving] = useMutationWithToasts<GalleryOrderMoveMutation>(
    graphql`
      mutation GalleryOrderMoveMutation($galleryId: ID!, $fileId: ID!, $beforeFileId: ID, $afterFileId: ID) {
        moveGalleryItem(galleryId: $galleryId, fileId: $fileId, beforeFileId: $beforeFileId, afterFileId: $afterFileId) {
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
  const move = (fileId: string, target: MoveTarget, { optimistic = false, onSuccess = () => {} } = {}) => {
    const updater = (store: RecordSourceSelectorProxy, response?: GalleryOrderMoveMutation['response'] | null) => {
      if (response && response.moveGalleryItem.__typename !== 'MutationMoveGalleryItemSuccess') return;
      moveInStore(store, galleryId, connectionIds, fileId, target);
    };
    commit({
      variables: {
        galleryId,
        fileId,
        beforeFileId: target.beforeFileId ?? null,
        afterFileId: target.afterFileId ?? null,
      },
      updater,
      optimisticUpdater: optimistic ? (store) => updater(store) : undefined,
      onSuccess,
    });
  };
  return [move, moving] as const;
}

/**
 * "Move earlier" and "Move later" for the photo open in the lightbox: the keyboard's way to arrange
 * the photos by hand (the first move in a sorted gallery makes that order the custom one).
 */
export function PhotoMoveActions({
  galleryId,
  connectionIds,
  photos,
  index,
  onMoved,
}: {
  galleryId: string;
  /** The lists the photo is in (the gallery's, the pick filter's): they follow the move. */
  connectionIds: readonly string[];
  photos: readonly Photo[];
  index: number;
  onMoved: (newIndex: number) => void;
}) {
  const [movePhoto, moving] = useMovePhoto(galleryId, connectionIds);
  const photo = photos[index];
  if (!photo) return null;
  const earlier = photos[index - 1];
  const later = photos[index + 1];
  // Later: after the next one, when it is loaded (the server knows what follows it).
  const canLater = later !== undefined;
  const move = (target: MoveTarget, newIndex: number) =>
    movePhoto(photo.id, target, { onSuccess: () => onMoved(newIndex) });
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
        onClick={() => !moving && earlier && move({ beforeFileId: earlier.id }, index - 1)}
      >
        Move earlier
      </button>
      <button
        type="button"
        className={buttonClass}
        aria-disabled={moving || !canLater}
        onClick={() => !moving && later && move({ afterFileId: later.id }, index + 1)}
      >
        Move later
      </button>
    </>
  );
}
