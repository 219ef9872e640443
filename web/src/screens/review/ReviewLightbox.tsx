import { Dialog as HeadlessDialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { formatDateTime } from '../../lib/format.ts';
import { Button } from '../../ui/Button.tsx';
import { Textarea } from '../../ui/Field.tsx';
import { CloseIcon } from '../../ui/icons.tsx';
import { PickButtons } from './PickButtons.tsx';
import type { PickValue, ReviewData, ReviewPhoto } from './reviewApi.ts';
import { commentsOf, pickOf } from './reviewState.ts';

function CommentForm({ photo, onSend }: { photo: ReviewPhoto; onSend: (body: string) => Promise<void> }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const id = useId();

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
    <form onSubmit={submit} noValidate className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-200">
        Comment on {photo.name}
      </label>
      <Textarea
        id={id}
        rows={3}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      )}
      <Button type="submit" size="sm" disabled={pending}>
        {pending ? 'Sending...' : 'Send comment'}
      </Button>
    </form>
  );
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

  useEffect(() => {
    if (index === null) return;
    const onKey = (event: KeyboardEvent) => {
      // Not while typing a comment: the arrows move the caret there.
      if (event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement) return;
      if (event.key === 'ArrowLeft' && hasPrev) onIndex(index - 1);
      if (event.key === 'ArrowRight' && hasNext) onIndex(index + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, hasPrev, hasNext, onIndex]);

  const comments = photo ? commentsOf(data.comments, photo.id) : [];
  const navClass =
    'rounded-md border border-white/20 px-3 py-1.5 text-sm text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-30';

  return (
    <HeadlessDialog open={photo !== undefined} onClose={onClose} className="relative z-40">
      {/* Opaque: on a phone the page scrolls under the photo, and the grid must not show through. */}
      <div className="fixed inset-0 bg-black" aria-hidden="true" />
      <div className="fixed inset-0 overflow-y-auto lg:overflow-hidden">
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
              <div className="flex items-start justify-between gap-2">
                <div className="min-w-0">
                  <DialogTitle className="text-base font-semibold break-all text-white">{photo.name}</DialogTitle>
                  <p className="text-xs text-slate-400">
                    {(index ?? 0) + 1} of {data.photos.length}
                    {photo.takenAt ? ` · ${formatDateTime(photo.takenAt)}` : ''}
                  </p>
                </div>
                <button
                  type="button"
                  onClick={onClose}
                  className="rounded p-1 text-slate-300 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
                  aria-label="Close"
                >
                  <CloseIcon className="h-5 w-5" />
                </button>
              </div>
              <div className="flex gap-2">
                <button
                  type="button"
                  className={navClass}
                  disabled={!hasPrev}
                  onClick={() => hasPrev && onIndex((index ?? 0) - 1)}
                >
                  ← Previous
                </button>
                <button
                  type="button"
                  className={navClass}
                  disabled={!hasNext}
                  onClick={() => hasNext && onIndex((index ?? 0) + 1)}
                >
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
              <section aria-labelledby="review-comments-heading" className="space-y-3">
                <h2 id="review-comments-heading" className="text-sm font-semibold text-white">
                  Comments ({comments.length})
                </h2>
                {comments.length === 0 ? (
                  <p className="text-sm text-slate-400">No comments on this photo yet.</p>
                ) : (
                  <ul className="space-y-2">
                    {comments.map((c) => (
                      <li key={c.id} className="rounded-md bg-white/5 p-2 text-sm">
                        <p className="text-xs text-slate-400">
                          <span className="font-medium text-slate-200">{c.name}</span> · {formatDateTime(c.createdAt)}
                        </p>
                        <p className="mt-0.5 whitespace-pre-wrap break-words">{c.body}</p>
                      </li>
                    ))}
                  </ul>
                )}
                <CommentForm key={photo.id} photo={photo} onSend={(body) => onComment(photo, body)} />
              </section>
            </aside>
            {nameDialog}
          </DialogPanel>
        )}
      </div>
    </HeadlessDialog>
  );
}
