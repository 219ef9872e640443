import { DialogPanel, DialogTitle } from '@headlessui/react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { formatDateTime } from '../../lib/format.ts';
import { CommentForm } from '../../ui/CommentForm.tsx';
import { PanelComment, PanelSection, useArrowKeys, ViewerDialog, ViewerHeader } from '../../ui/MediaViewer.tsx';
import { PickButtons } from './PickButtons.tsx';
import type { PickValue, ReviewData, ReviewPhoto } from './reviewApi.ts';
import { commentsOf, pickOf } from './reviewState.ts';

function PhotoCommentForm({ photo, onSend }: { photo: ReviewPhoto; onSend: (body: string) => Promise<void> }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!body.trim()) {
      setError('Please write a comment.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onSend(body.trim());
      setBody('');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Failed to send the comment. Please try again.');
    } finally {
      setPending(false);
    }
  }

  return (
    <CommentForm
      label={`Comment on ${photo.name}`}
      rows={3}
      body={body}
      onBody={setBody}
      error={error}
      pending={pending}
      submitLabel="Send comment"
      onSubmit={submit}
    />
  );
}

function isTextField(target: EventTarget | null) {
  return target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement;
}

/** One photo larger, with the reviewer's pick and the comments on it; arrow keys move through the gallery. */
export function ReviewLightbox({
  data,
  index,
  name,
  onIndex,
  onClose,
  onPick,
  onComment,
  pickError,
  nameDialog,
}: {
  data: ReviewData;
  index: number | null;
  name: string;
  onIndex: (index: number) => void;
  onClose: () => void;
  onPick: (photo: ReviewPhoto, pick: PickValue) => void;
  onComment: (photo: ReviewPhoto, body: string) => Promise<void>;
  pickError: string | null;
  nameDialog: ReactNode;
}) {
  const photo = index === null ? undefined : data.photos[index];
  const hasPrev = index !== null && index > 0;
  const hasNext = index !== null && index < data.photos.length - 1;

  const previous = hasPrev ? () => onIndex(index - 1) : undefined;
  const next = hasNext ? () => onIndex(index + 1) : undefined;
  // Not while typing a comment: the arrows move the caret there.
  useArrowKeys(index !== null, previous, next, isTextField);

  const comments = photo ? commentsOf(data.comments, photo.id) : [];
  const navClass =
    'rounded-md border border-white/20 px-3 py-1.5 text-sm text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-30';

  return (
    <ViewerDialog
      open={photo !== undefined}
      onClose={onClose}
      className="relative z-40"
      // Opaque: on a phone the page scrolls under the photo, and the grid must not show through.
      backdropClassName="bg-black"
      bodyClassName="overflow-y-auto lg:overflow-hidden"
    >
      {photo && (
        <DialogPanel className="flex min-h-full flex-col lg:h-full lg:flex-row" data-testid="review-lightbox">
          <div className="flex items-center justify-center p-2 lg:min-h-0 lg:flex-1 lg:p-6">
            <img
              key={photo.id}
              src={photo.previewUrl ?? photo.url}
              alt={photo.name}
              width={photo.width ?? undefined}
              height={photo.height ?? undefined}
              className="h-auto max-h-[60vh] w-auto max-w-full object-contain lg:max-h-full"
            />
          </div>
          <aside className="flex-1 space-y-4 border-t border-white/10 bg-slate-950 p-4 text-slate-100 lg:w-96 lg:flex-none lg:overflow-y-auto lg:border-t-0 lg:border-l">
            <ViewerHeader onClose={onClose}>
              <div className="min-w-0">
                <DialogTitle className="text-base font-semibold break-all text-white">{photo.name}</DialogTitle>
                <p className="text-xs text-slate-400">
                  {(index ?? 0) + 1} of {data.photos.length}
                  {photo.takenAt ? ` · ${formatDateTime(photo.takenAt)}` : ''}
                </p>
              </div>
            </ViewerHeader>
            <div className="flex gap-2">
              <button type="button" className={navClass} disabled={!hasPrev} onClick={previous}>
                ← Previous
              </button>
              <button type="button" className={navClass} disabled={!hasNext} onClick={next}>
                Next →
              </button>
              {data.gallery.allowDownload && (
                <a
                  href={photo.url}
                  download={photo.name}
                  className="ml-auto rounded-md border border-white/20 px-3 py-1.5 text-sm text-white hover:bg-white/10"
                >
                  Download
                </a>
              )}
            </div>
            <PickButtons
              photo={photo}
              current={pickOf(data.picks, photo.id, name)}
              onPick={(pick) => onPick(photo, pick)}
              dark
            />
            {pickError && (
              <p role="alert" className="text-sm text-red-300">
                {pickError}
              </p>
            )}
            <PanelSection
              id="review-comments-heading"
              title="Comments"
              count={comments.length}
              empty="No comments on this photo yet."
              heading="h2"
              className="space-y-3"
              footer={<PhotoCommentForm key={photo.id} photo={photo} onSend={(body) => onComment(photo, body)} />}
            >
              <ul className="space-y-2">
                {comments.map((c) => (
                  <PanelComment key={c.id} author={c.name} when={formatDateTime(c.createdAt)} body={c.body} />
                ))}
              </ul>
            </PanelSection>
          </aside>
          {nameDialog}
        </DialogPanel>
      )}
    </ViewerDialog>
  );
}
