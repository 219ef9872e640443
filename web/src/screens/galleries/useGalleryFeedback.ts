import { useMemo, useRef } from 'react';
import { graphql, useSubscription } from 'react-relay/hooks';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import { toast } from '../../ui/toast.tsx';
import type { useGalleryFeedbackSubscription } from './__generated__/useGalleryFeedbackSubscription.graphql';
import { appendLinkedOnce, feedbackAuthor, PICK_LABELS } from './feedbackStore.ts';

/**
 * Comments and picks on the open gallery as they arrive: they join the photo's lists in the store
 * (an open lightbox shows them), and someone else's say so in a toast, since most of the time the
 * photo they concern is not the one on screen.
 */
export function useGalleryFeedback({
  galleryId,
  viewerId,
  itemIdOf,
  photoNameOf,
}: {
  galleryId: string;
  viewerId: string;
  itemIdOf: (fileId: string) => string | undefined;
  photoNameOf: (fileId: string) => string | undefined;
}) {
  const latest = useRef({ viewerId, itemIdOf, photoNameOf });
  latest.current = { viewerId, itemIdOf, photoNameOf };
  useSubscription<useGalleryFeedbackSubscription>(
    useMemo<GraphQLSubscriptionConfig<useGalleryFeedbackSubscription>>(
      () => ({
        subscription: graphql`
          subscription useGalleryFeedbackSubscription($galleryId: ID!) {
            galleryFeedback(galleryId: $galleryId) {
              galleryId
              # The grid's badges and the header's totals, as they are now.
              gallery {
                ...FeedbackSummary_gallery
              }
              item {
                id
                feedback {
                  yes
                  no
                  maybe
                  comments
                }
              }
              comment {
                id
                fileId
                body
                createdAt
                reviewerName
                author {
                  id
                  displayName
                }
              }
              pick {
                id
                fileId
                pick
                reviewerName
                updatedAt
              }
            }
          }
        `,
        variables: { galleryId },
        updater: (store, data) => {
          const event = store.getRootField('galleryFeedback');
          const fileId = data?.galleryFeedback.comment?.fileId ?? data?.galleryFeedback.pick?.fileId;
          const itemId = fileId ? latest.current.itemIdOf(fileId) : undefined;
          if (!event || !itemId) return;
          const item = store.get(itemId);
          appendLinkedOnce(item, 'comments', event.getLinkedRecord('comment'));
          appendLinkedOnce(item, 'picks', event.getLinkedRecord('pick'));
        },
        onNext: (response) => {
          const { comment, pick } = response?.galleryFeedback ?? {};
          const { viewerId: me, photoNameOf } = latest.current;
          if (comment && comment.author?.id !== me) {
            const photo = photoNameOf(comment.fileId);
            toast({
              title: `New comment from ${feedbackAuthor(comment)}`,
              description: photo ? `On ${photo}: ${comment.body}` : comment.body,
            });
          } else if (pick) {
            const photo = photoNameOf(pick.fileId) ?? 'a photo';
            toast({
              title: 'New pick',
              description: `${pick.reviewerName ?? 'Someone'} picked ${PICK_LABELS[pick.pick] ?? pick.pick} on ${photo}.`,
            });
          }
        },
      }),
      [galleryId],
    ),
  );
}
