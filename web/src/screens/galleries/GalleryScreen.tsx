import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { graphql, useMutation } from 'react-relay/hooks';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { Link, useParams } from 'react-router-dom';
import { ImportDialog } from '../../imports/dialogs.ts';
import { globalIdOf, rawIdOf } from '../../lib/globalId.ts';
import { useRouteQuery } from '../../routing/useRouteQuery.ts';
import { useGalleryItemsChanged } from '../../live/useLiveRefresh.ts';
import { GALLERY_ACCEPT, MAX_FILE_SIZE, MAX_FILES, type Rejection, rejectionMessage } from '../../uploads/limits.ts';
import { RejectedFiles, rejectionsFrom, UploadList } from '../../uploads/UploadZone.tsx';
import { useUploads } from '../../uploads/useUploads.ts';
import { UploadConflictDialog } from '../../uploads/dialogs.ts';
import { Button } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { GalleryIcon } from '../../ui/icons.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { toast } from '../../ui/toast.tsx';
import { AccessBadge, photoCountText } from './GalleryCardView.tsx';
import { formOf, GalleryFormDialog, type GalleryInput } from './GalleryFormDialog.tsx';
import { useUpdateGallery } from './useUpdateGallery.ts';
import type { GalleryFormDialog_gallery$key } from './__generated__/GalleryFormDialog_gallery.graphql';
import type { GalleryPhotos_gallery$key } from './__generated__/GalleryPhotos_gallery.graphql';
import type { GalleryScreenAddMutation } from './__generated__/GalleryScreenAddMutation.graphql';
import type { GalleryScreenQuery } from './__generated__/GalleryScreenQuery.graphql';
import type { GalleryScreenRemoveMutation } from './__generated__/GalleryScreenRemoveMutation.graphql';
import type { GalleryScreenCoverMutation } from './__generated__/GalleryScreenCoverMutation.graphql';
import type { GalleryScreenNotesMutation } from './__generated__/GalleryScreenNotesMutation.graphql';
import { GalleryNotes } from './GalleryNotes.tsx';
import { useGalleryPhotos, useLightbox } from './GalleryPhotos.tsx';
import { PhotoFeedback, usePhotoFeedbackLoader } from './PhotoFeedback.tsx';
import { FeedbackSummary } from './FeedbackSummary.tsx';
import { useFilteredPhotos } from './FilteredPhotos.tsx';
import { PickFilter, useFeedbackFilter } from './PickFilter.tsx';
import { PhotoGrid } from './PhotoGrid.tsx';
import { GalleryActions } from './GalleryActions.tsx';
import { GallerySortMenu, PhotoMoveActions, useMovePhoto } from './GalleryOrder.tsx';
import { useGalleryFeedback } from './useGalleryFeedback.ts';
import { FilePickerDialog, Lightbox, ReviewLinksDialog, ShareGalleryDialog } from './dialogs.ts';

const PhotoMap = lazy(() => import('./PhotoMap.tsx'));

const tabClass =
  'rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 data-selected:bg-white data-selected:text-slate-900 data-selected:shadow-sm dark:text-slate-400 dark:data-selected:bg-slate-800 dark:data-selected:text-slate-100';

function GalleryContent({ galleryId }: { galleryId: string }) {
  // Shared, revoked or left elsewhere: re-read the gallery, so a revoked one never stays on screen.
  const shownId = useRef<string | null>(null);
  const { data, refresh } = useRouteQuery<GalleryScreenQuery>(
    graphql`
      query GalleryScreenQuery($id: ID!, $feedback: FeedbackFilter = all, $filtered: Boolean = false)
      @preloadable {
        viewer {
          id
          settings {
            autoSave
          }
        }
        gallery: node(id: $id) {
          __typename
          ... on Gallery {
            id
            name
            description
            projectName
            movieTvShow
            location
            isPublic
            notes
            photoCount
            coverImageId
            photoOrder
            viewerCanEdit
            viewerCanShare
            viewerAccess
            ...GalleryFormDialog_gallery @alias(as: "form")
            ...GalleryPhotos_gallery @alias(as: "photos")
            ...FeedbackSummary_gallery @alias(as: "feedback")
            ...FilteredPhotos_gallery @include(if: $filtered) @arguments(filter: $feedback) @alias(as: "filteredPhotos")
          }
        }
      }
    `,
    { refreshOn: (change) => change.galleriesChanged },
  );
  // A member added or took out photos: the count and the grid follow.
  useGalleryItemsChanged(galleryId, refresh);
  const gallery = data.gallery?.__typename === 'Gallery' ? data.gallery : null;
  if (gallery) shownId.current = galleryId;
  const lost = shownId.current === galleryId;
  if (!gallery?.photos || !gallery.form) {
    return (
      <EmptyState
        icon={<GalleryIcon className="h-10 w-10" />}
        title={lost ? 'You no longer have access' : 'Gallery not found'}
        text={
          lost
            ? 'This gallery is no longer shared with you.'
            : 'It may have been deleted, or it is not shared with you.'
        }
        action={
          <Link to="/galleries" className="text-sm font-medium text-indigo-600 hover:underline">
            Back to galleries
          </Link>
        }
      />
    );
  }
  return (
    <GalleryView
      gallery={gallery}
      photosKey={gallery.photos}
      formKey={gallery.form}
      autoSave={data.viewer.settings?.autoSave ?? true}
      viewerId={data.viewer.id}
      refresh={refresh}
    />
  );
}

type GalleryData = Extract<NonNullable<GalleryScreenQuery['response']['gallery']>, { __typename: 'Gallery' }>;

function GalleryView({
  gallery,
  photosKey,
  formKey,
  autoSave,
  viewerId,
  refresh,
}: {
  gallery: GalleryData;
  photosKey: GalleryPhotos_gallery$key;
  formKey: GalleryFormDialog_gallery$key;
  autoSave: boolean;
  viewerId: string;
  refresh: () => void;
}) {
  const allPhotos = useGalleryPhotos(photosKey);
  // With a pick filter chosen (?feedback=), the grid, map and lightbox show the photos it matches.
  const [feedbackFilter, setFeedbackFilter] = useFeedbackFilter();
  const shown = useFilteredPhotos(gallery.filteredPhotos) ?? allPhotos;
  const { photos, hasNext, isLoadingNext, loadMore } = shown;
  const { total } = allPhotos;
  const lightbox = useLightbox();
  const feedbackLoader = usePhotoFeedbackLoader();
  const { open: showIndex } = lightbox;
  const { show: showFeedback } = feedbackLoader;
  // The photo's feedback is asked for on the click that opens it, beside the photo itself.
  const openPhoto = useCallback(
    (index: number) => {
      showIndex(index);
      showFeedback(photos[index]?.itemId);
    },
    [showIndex, showFeedback, photos],
  );
  // A move puts the photo in place in the lists loaded (the gallery's, the pick filter's).
  const connectionIds = useMemo(
    () => [...new Set([allPhotos.connectionId, shown.connectionId])],
    [allPhotos.connectionId, shown.connectionId],
  );
  const [movePhoto] = useMovePhoto(gallery.id, connectionIds);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [editing, setEditing] = useState(false);
  const [reviewLinksOpen, setReviewLinksOpen] = useState(false);
  const [rejections, setRejections] = useState<Rejection[]>([]);
  const canEdit = gallery.viewerCanEdit;

  const [commitAdd] = useMutation<GalleryScreenAddMutation>(graphql`
    mutation GalleryScreenAddMutation($galleryId: ID!, $fileIds: [ID!]!) {
      addFilesToGallery(galleryId: $galleryId, fileIds: $fileIds) {
        ... on MutationAddFilesToGallerySuccess {
          data {
            id
            photoCount
            # The grid's first page again, in the same answer: the store updates the grid.
            ...GalleryPhotos_gallery
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  // Two mutations, because an argument sent as null clears the field: saving notes must not
  // send a cover, and setting the cover must not send notes.
  const [commitNotes] = useMutation<GalleryScreenNotesMutation>(graphql`
    mutation GalleryScreenNotesMutation($id: ID!, $notes: String) {
      updateGallery(id: $id, notes: $notes) {
        ... on MutationUpdateGallerySuccess {
          data {
            id
            notes
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const [commitCover, savingCover] = useMutationWithToasts<GalleryScreenCoverMutation>(
    graphql`
    mutation GalleryScreenCoverMutation($id: ID!, $coverImageId: ID) {
      updateGallery(id: $id, coverImageId: $coverImageId) {
        __typename
        ... on MutationUpdateGallerySuccess {
          data {
            id
            coverImageId
            coverImageUrl
          }
        }
        ... on Error {
          message
        }
      }
    }
  `,
    { outcome: (r) => r.updateGallery, failure: 'Failed to update gallery. Please try again.', serverMessage: true },
  );
  const [commitRemove, removing] = useMutationWithToasts<GalleryScreenRemoveMutation>(
    graphql`
    mutation GalleryScreenRemoveMutation($galleryId: ID!, $fileId: ID!) {
      removeFileFromGallery(galleryId: $galleryId, fileId: $fileId) {
        __typename
        ... on MutationRemoveFileFromGallerySuccess {
          data {
            id
            photoCount
            coverImageId
            coverImageUrl
            ...GalleryPhotos_gallery
          }
        }
        ... on Error {
          message
        }
      }
    }
  `,
    {
      outcome: (r) => r.removeFileFromGallery,
      success: { title: 'Success', description: 'Photo removed from the gallery.' },
      failure: 'Failed to remove photo. Please try again.',
      serverMessage: true,
    },
  );

  function removePhoto(fileId: string) {
    commitRemove({ variables: { galleryId: gallery.id, fileId }, onSuccess: lightbox.close });
  }

  const updating = savingCover;

  const addFiles = useCallback(
    (fileIds: string[], uploadSummary?: string) =>
      new Promise<void>((resolve, reject) => {
        if (fileIds.length === 0) return resolve();
        commitAdd({
          variables: { galleryId: gallery.id, fileIds },
          onCompleted: (result) => {
            const answer = result.addFilesToGallery;
            if ('message' in answer && answer.message) {
              toast({ title: 'Error', description: answer.message, variant: 'destructive' });
              reject(new Error(answer.message));
              return;
            }
            const added = `${fileIds.length} photo(s) added to the gallery.`;
            toast({ title: 'Success', description: uploadSummary ? `${uploadSummary} ${added}` : added });
            resolve();
          },
          onError: (error) => {
            toast({ title: 'Error', description: 'Failed to add photos. Please try again.', variant: 'destructive' });
            reject(error);
          },
        });
      }),
    [commitAdd, gallery.id],
  );

  const saveNotes = (notes: string | null) =>
    new Promise<void>((resolve, reject) => {
      commitNotes({
        variables: { id: gallery.id, notes },
        onCompleted: (result) => {
          const message = result.updateGallery.message;
          if (message) reject(new Error(message));
          else resolve();
        },
        onError: () => reject(new Error('Failed to update gallery. Please try again.')),
      });
    });

  function updateCover(coverImageId: string | null, success: string) {
    commitCover({ variables: { id: gallery.id, coverImageId }, success: { title: 'Success', description: success } });
  }

  // Dropped or chosen files are uploaded to the top level of the file manager, then added here.
  const uploads = useUploads({
    quiet: true,
    onBatchDone: (stored, summary) => {
      if (stored.length === 0) toast(summary);
      else
        void addFiles(
          stored.map((file) => globalIdOf('File', file.id)),
          summary.description,
        ).catch(() => {});
    },
  });
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    accept: GALLERY_ACCEPT,
    maxSize: MAX_FILE_SIZE,
    noClick: true,
    noKeyboard: true,
    disabled: !canEdit,
    onDrop: (accepted, dropRejections) => {
      if (uploads.active + accepted.length + dropRejections.length > MAX_FILES) {
        toast({ title: 'Too many files', description: `Maximum ${MAX_FILES} files allowed`, variant: 'destructive' });
        setRejections(
          [...accepted, ...dropRejections.map((r) => r.file)].map((f) => ({
            name: f.name,
            messages: [rejectionMessage('too-many-files')],
          })),
        );
        return;
      }
      setRejections(rejectionsFrom(dropRejections, GALLERY_ACCEPT));
      void uploads.addFiles(accepted);
    },
  });

  const inGallery = useMemo(() => new Set(photos.map((p) => p.id)), [photos]);
  const byFileId = useMemo(() => new Map(photos.map((p) => [p.id, p])), [photos]);
  useGalleryFeedback({
    galleryId: gallery.id,
    viewerId,
    itemIdOf: (fileId) => byFileId.get(fileId)?.itemId,
    photoNameOf: (fileId) => byFileId.get(fileId)?.name,
  });
  const geotagged = photos.filter((p) => p.gps).length;
  const meta = [gallery.movieTvShow, gallery.projectName, gallery.location].filter(Boolean).join(' · ');

  const updateGallery = useUpdateGallery();
  const saveEdit = (input: GalleryInput) => updateGallery(gallery.id, input);

  return (
    <div
      // The page takes drops from those who may add photos. For anyone else it is no drop zone at
      // all: react-dropzone's disabled root says aria-disabled, which made every photo in it read as
      // disabled (issue 53).
      {...(canEdit
        ? getRootProps({ className: 'relative space-y-6 outline-none' })
        : { className: 'relative space-y-6' })}
      data-testid="gallery-drop-target"
    >
      {canEdit && <input {...getInputProps({ 'aria-label': 'Upload photos to this gallery' })} />}
      {isDragActive && (
        <div className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-indigo-600/20 backdrop-blur-[1px]">
          <p className="rounded-lg bg-white px-6 py-4 text-lg font-semibold text-indigo-700 shadow-lg dark:bg-slate-900 dark:text-indigo-300">
            Drop photos to add them to this gallery
          </p>
        </div>
      )}
      <div>
        <Link
          to="/galleries"
          className="text-sm text-slate-600 hover:text-indigo-600 hover:underline dark:text-slate-400"
        >
          ← Galleries
        </Link>
        <div className="mt-2 flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
          {/* The title takes what the actions leave; they keep up to half the row, wrapping inside it. */}
          <div className="min-w-0 lg:flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="min-w-0 text-2xl font-bold text-slate-900 [overflow-wrap:anywhere] dark:text-slate-100">
                {gallery.name}
              </h1>
              <AccessBadge gallery={{ isPublic: gallery.isPublic, access: gallery.viewerAccess }} />
            </div>
            {gallery.description && (
              <p className="mt-1 text-sm text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
                {gallery.description}
              </p>
            )}
            <p className="mt-1 text-sm text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">
              {photoCountText(total)}
              {meta ? ` · ${meta}` : ''}
            </p>
            {gallery.feedback && <FeedbackSummary gallery={gallery.feedback} />}
          </div>
          <div className="flex flex-wrap gap-2 lg:max-w-[50%] lg:shrink-0 lg:justify-end">
            <GalleryActions
              galleryId={rawIdOf(gallery.id)}
              canEdit={canEdit}
              canShare={gallery.viewerCanShare}
              hasPhotos={total > 0}
              onAddPhotos={() => setPickerOpen(true)}
              onUpload={open}
              onImport={() => setImportOpen(true)}
              onEdit={() => setEditing(true)}
              onReviewLinks={() => setReviewLinksOpen(true)}
              onShare={() => setSharing(true)}
            />
          </div>
        </div>
      </div>

      <RejectedFiles rejections={rejections} />
      <UploadList items={uploads.items} onDismiss={uploads.dismiss} />
      {/* Gallery uploads are filed at the top level of the uploader's files, so names are taken there. */}
      <UploadConflictDialog prompt={uploads.conflictPrompt} where="the top level of your files" />

      <TabGroup>
        <TabList className="inline-flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-900">
          <Tab className={tabClass}>Photos ({total})</Tab>
          <Tab className={tabClass}>Map ({geotagged})</Tab>
          <Tab className={tabClass}>Notes</Tab>
        </TabList>
        <TabPanels className="mt-4">
          <TabPanel>
            {(feedbackFilter !== 'all' || photos.length > 0) && (
              <div className="mb-3 flex flex-wrap items-center gap-3">
                <PickFilter value={feedbackFilter} onChange={setFeedbackFilter} />
                <GallerySortMenu
                  galleryId={gallery.id}
                  order={gallery.photoOrder}
                  canEdit={canEdit}
                  onChanged={refresh}
                />
              </div>
            )}
            {photos.length === 0 && feedbackFilter !== 'all' ? (
              <EmptyState
                icon={<GalleryIcon className="h-10 w-10" />}
                title="No photos match this filter"
                text="Choose All to see every photo of the gallery."
              />
            ) : photos.length === 0 ? (
              <EmptyState
                icon={<GalleryIcon className="h-10 w-10" />}
                title="No photos yet"
                text={
                  canEdit
                    ? 'Drop photos anywhere on this page, upload them, or add them from your files.'
                    : 'Photos added to this gallery will appear here.'
                }
                action={canEdit ? <Button onClick={() => setPickerOpen(true)}>Add Photos</Button> : undefined}
              />
            ) : (
              <PhotoGrid
                photos={photos}
                hasMore={hasNext}
                loadingMore={isLoadingNext}
                onLoadMore={loadMore}
                onOpen={openPhoto}
                coverId={gallery.coverImageId}
                // Dragged among all the photos only: a pick filter's are some of them.
                onReorder={
                  canEdit && feedbackFilter === 'all'
                    ? (fileId, target) => movePhoto(fileId, target, { optimistic: true })
                    : undefined
                }
              />
            )}
          </TabPanel>
          <TabPanel>
            <Suspense fallback={<Spinner />}>
              <PhotoMap photos={photos} onOpen={(id) => openPhoto(photos.findIndex((p) => p.id === id))} />
            </Suspense>
            {hasNext && (
              <p className="mt-2 text-xs text-slate-500">Showing the locations of the photos loaded so far.</p>
            )}
          </TabPanel>
          <TabPanel>
            <GalleryNotes savedNotes={gallery.notes ?? ''} canEdit={canEdit} autoSave={autoSave} save={saveNotes} />
          </TabPanel>
        </TabPanels>
      </TabGroup>

      <Lightbox
        photos={photos}
        index={lightbox.index}
        onIndex={openPhoto}
        onClose={lightbox.close}
        onNearEnd={loadMore}
        total={shown.total}
        feedback={(photo) =>
          photo.itemId ? (
            <PhotoFeedback galleryId={gallery.id} fileId={photo.id} itemId={photo.itemId} loader={feedbackLoader} />
          ) : null
        }
        actions={(photo) =>
          canEdit ? (
            <>
              <PhotoMoveActions
                galleryId={gallery.id}
                connectionIds={connectionIds}
                photos={photos}
                index={photos.indexOf(photo)}
                onMoved={lightbox.open}
              />
              <button
                type="button"
                disabled={updating || gallery.coverImageId === photo.id}
                onClick={() => updateCover(photo.id, 'Cover updated.')}
                className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm text-white hover:bg-indigo-700 disabled:opacity-50"
              >
                {gallery.coverImageId === photo.id ? 'Cover photo' : 'Set as cover'}
              </button>
              <button
                type="button"
                disabled={removing}
                onClick={() => removePhoto(photo.id)}
                className="rounded-md border border-red-400/60 px-3 py-1.5 text-sm text-red-200 hover:bg-red-500/20 disabled:opacity-50"
              >
                {removing ? 'Removing...' : 'Remove from gallery'}
              </button>
            </>
          ) : null
        }
      />
      <ImportDialog
        open={importOpen}
        onClose={() => setImportOpen(false)}
        galleryId={rawIdOf(gallery.id)}
        kind="media"
        onImported={(job) => job.imported > 0 && refresh()}
      />
      <FilePickerDialog open={pickerOpen} onClose={() => setPickerOpen(false)} onAdd={addFiles} exclude={inGallery} />
      <ShareGalleryDialog
        gallery={sharing ? { id: gallery.id, name: gallery.name } : null}
        onClose={() => setSharing(false)}
      />
      <ReviewLinksDialog galleryId={reviewLinksOpen ? gallery.id : null} onClose={() => setReviewLinksOpen(false)} />
      <GalleryFormDialog
        open={editing}
        onClose={() => setEditing(false)}
        mode="edit"
        initial={formOf(formKey)}
        onSubmit={saveEdit}
      />
    </div>
  );
}

function GallerySkeleton() {
  return (
    <div className="space-y-4" aria-busy="true">
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-4 w-96 max-w-full" />
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-6">
        {Array.from({ length: 12 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
          <Skeleton key={i} className="aspect-square w-full" />
        ))}
      </div>
    </div>
  );
}

export default function GalleryScreen() {
  const { id = '' } = useParams();
  return (
    <Suspense fallback={<GallerySkeleton />}>
      <GalleryContent galleryId={id} />
    </Suspense>
  );
}
