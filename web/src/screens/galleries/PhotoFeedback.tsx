import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { graphql, type PreloadedQuery, useMutation, usePreloadedQuery, useQueryLoader } from 'react-relay/hooks';
import { formatDateTime } from '../../lib/format.ts';
import { WhenLoaded } from '../../relay/queryWhileOpen.tsx';
import { CommentForm } from '../../ui/CommentForm.tsx';
import { PanelComment, PanelSection } from '../../ui/MediaViewer.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import type { PhotoFeedbackAddMutation } from './__generated__/PhotoFeedbackAddMutation.graphql';
import type { PhotoFeedbackQuery } from './__generated__/PhotoFeedbackQuery.graphql';
import { appendLinkedOnce, feedbackAuthor, PICK_LABELS } from './feedbackStore.ts';

const pickTone: Record<string, string> = {
  yes: 'bg-green-500/20 text-green-200',
  maybe: 'bg-amber-500/20 text-amber-200',
  no: 'bg-red-500/20 text-red-200',
};

const FAILED = 'Failed to add the comment. Please try again.';

function CommentBox({ galleryId, fileId, itemId }: { galleryId: string; fileId: string; itemId: string }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [commit, sending] = useMutation<PhotoFeedbackAddMutation>(graphql`
    mutation PhotoFeedbackAddMutation($galleryId: ID!, $fileId: ID!, $body: String!) {
      addPhotoComment(galleryId: $galleryId, fileId: $fileId, body: $body) {
        __typename
        ... on MutationAddPhotoCommentSuccess {
          data {
            id
            body
            createdAt
            reviewerName
            author {
              id
              displayName
            }
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!body.trim()) {
      setError('Please write a comment.');
      return;
    }
    setError(null);
    commit({
      variables: { galleryId, fileId, body: body.trim() },
      updater: (store) => {
        const answer = store.getRootField('addPhotoComment');
        appendLinkedOnce(store.get(itemId), 'comments', answer?.getLinkedRecord('data'));
      },
      onCompleted: (result) => {
        const answer = result.addPhotoComment;
        if (answer.__typename === 'MutationAddPhotoCommentSuccess') setBody('');
        else setError(('message' in answer && answer.message) || FAILED);
      },
      onError: () => setError(FAILED),
    });
  }

  return (
    <CommentForm
      label="Add a comment"
      rows={2}
      body={body}
      onBody={setBody}
      hint="Write @name to notify someone who can see this gallery."
      error={error}
      pending={sending}
      submitLabel="Comment"
      onSubmit={submit}
    />
  );
}

const feedbackQuery = graphql`
  query PhotoFeedbackQuery($itemId: ID!) {
    item: node(id: $itemId) {
      ... on GalleryItem {
        id
        picks {
          id
          pick
          reviewerName
          updatedAt
        }
        comments {
          id
          body
          createdAt
          reviewerName
          author {
            id
            displayName
          }
        }
      }
    }
  }
`;

export type PhotoFeedbackLoader = {
  reference: PreloadedQuery<PhotoFeedbackQuery> | null | undefined;
  /** Asks for a photo's feedback (its gallery item's id); nothing lets the last answer go. */
  show: (itemId: string | null | undefined) => void;
};

/**
 * The feedback of the photo in the lightbox, asked for by the handler that opens it or moves it to
 * another photo, so the request is on its way before the panel renders.
 */
export function usePhotoFeedbackLoader(): PhotoFeedbackLoader {
  const [reference, load, dispose] = useQueryLoader<PhotoFeedbackQuery>(feedbackQuery);
  const show = useCallback(
    (itemId: string | null | undefined) => {
      if (itemId) load({ itemId }, { fetchPolicy: 'store-and-network' });
      else dispose();
    },
    [load, dispose],
  );
  return useMemo(() => ({ reference, show }), [reference, show]);
}

function Feedback({ reference, itemId }: { reference: PreloadedQuery<PhotoFeedbackQuery>; itemId: string }) {
  const data = usePreloadedQuery<PhotoFeedbackQuery>(feedbackQuery, reference);
  const picks = data.item?.picks ?? [];
  const comments = data.item?.comments ?? [];
  return (
    <>
      <PanelSection id={`${itemId}-picks`} title="Picks" count={picks.length} empty="No picks yet.">
        <ul className="flex flex-wrap gap-1.5" data-testid="photo-picks">
          {picks.map((p) => (
            <li key={p.id} className={`rounded-full px-2 py-0.5 text-xs ${pickTone[p.pick] ?? ''}`}>
              {p.reviewerName ?? 'A member'}: {PICK_LABELS[p.pick] ?? p.pick}
            </li>
          ))}
        </ul>
      </PanelSection>
      <PanelSection id={`${itemId}-comments`} title="Comments" count={comments.length} empty="No comments yet.">
        <ul className="space-y-2" data-testid="photo-comments">
          {comments.map((c) => (
            <PanelComment key={c.id} author={feedbackAuthor(c)} when={formatDateTime(c.createdAt)} body={c.body} />
          ))}
        </ul>
      </PanelSection>
    </>
  );
}

/**
 * A photo's picks and comments in the lightbox, with a box to comment; live through useGalleryFeedback.
 * Read from `loader`, which the lightbox's open handler has asked for this photo.
 */
export function PhotoFeedback({
  galleryId,
  fileId,
  itemId,
  loader,
}: {
  galleryId: string;
  fileId: string;
  itemId: string;
  loader: PhotoFeedbackLoader;
}) {
  const { reference, show } = loader;
  const current = reference && reference.variables.itemId === itemId ? reference : null;
  // Another photo came to this place without an open (the list changed under the lightbox): ask here.
  useEffect(() => {
    if (!current) show(itemId);
  }, [current, itemId, show]);
  // Closed: the feedback read here is let go.
  useEffect(() => () => show(null), [show]);
  return (
    <div className="mt-6 space-y-4 border-t border-white/10 pt-4">
      <WhenLoaded reference={current} fallback={<Spinner label="Loading comments" />}>
        {(loaded) => <Feedback reference={loaded} itemId={itemId} />}
      </WhenLoaded>
      <CommentBox galleryId={galleryId} fileId={fileId} itemId={itemId} />
    </div>
  );
}
