import { Menu, MenuButton, MenuItems } from '@headlessui/react';
import { graphql, useFragment } from 'react-relay/hooks';
import { useNavigate } from 'react-router-dom';
import { appPath } from '../../lib/globalId.ts';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { ActionsMenuItem } from '../../ui/ActionsMenu.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import type { FeedbackSummary_gallery$key } from './__generated__/FeedbackSummary_gallery.graphql';
import type { FeedbackSummaryFromPicksMutation } from './__generated__/FeedbackSummaryFromPicksMutation.graphql';

interface Counts {
  readonly picked: number;
  readonly rejected: number;
  readonly maybe: number;
  readonly comments: number;
}

/** "12 picked · 3 rejected · 8 comments": what was said, leaving out what nobody said. */
export function totalsText(c: Counts & { readonly unreviewed?: number }) {
  return [
    `${c.picked} picked`,
    `${c.rejected} rejected`,
    c.maybe > 0 && `${c.maybe} maybe`,
    `${c.comments} ${c.comments === 1 ? 'comment' : 'comments'}`,
    c.unreviewed !== undefined && c.unreviewed > 0 && `${c.unreviewed} unreviewed`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The gallery header's review feedback: totals, the same per review link (for those who manage
 * links), and "New gallery from picks", which opens the new gallery. Nothing until someone reviewed.
 */
export function FeedbackSummary({ gallery: key }: { gallery: FeedbackSummary_gallery$key }) {
  const gallery = useFragment(
    graphql`
      fragment FeedbackSummary_gallery on Gallery {
        id
        feedbackSummary {
          id
          picked
          rejected
          maybe
          commented
          comments
          unreviewed
          links {
            reviewLinkId
            label
            picked
            rejected
            maybe
            comments
          }
        }
      }
    `,
    key,
  );
  const navigate = useNavigate();
  const [commit, making] = useMutationWithToasts<FeedbackSummaryFromPicksMutation>(
    graphql`
      mutation FeedbackSummaryFromPicksMutation($galleryId: ID!, $reviewLinkId: ID) {
        createGalleryFromPicks(galleryId: $galleryId, reviewLinkId: $reviewLinkId) {
          __typename
          ... on MutationCreateGalleryFromPicksSuccess {
            data {
              added
              skipped
              gallery {
                id
                name
              }
            }
          }
          ... on Error {
            message
          }
        }
      }
    `,
    {
      outcome: (r) => r.createGalleryFromPicks,
      success: (r) => {
        const made = r.createGalleryFromPicks.data;
        const left = made?.skipped ? ` ${made.skipped} picked photo(s) added by others were left out.` : '';
        return {
          title: 'Gallery created',
          description: `"${made?.gallery.name}" holds ${made?.added} photo(s).${left}`,
        };
      },
      failure: 'Failed to create the gallery. Please try again.',
      serverMessage: true,
    },
  );
  const summary = gallery.feedbackSummary;
  if (summary.picked + summary.rejected + summary.maybe + summary.comments === 0) return null;

  function fromPicks(reviewLinkId: string | null) {
    commit({
      variables: { galleryId: gallery.id, reviewLinkId },
      onSuccess: (r) => {
        const id = r.createGalleryFromPicks.data?.gallery.id;
        if (id) navigate(appPath.gallery(id));
      },
    });
  }

  const linksWithPicks = summary.links.filter((l) => l.picked > 0);
  const label = making ? 'Creating...' : 'New gallery from picks';
  return (
    <section aria-label="Review feedback" className="mt-2 space-y-1" data-testid="feedback-summary">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <p className="text-sm font-medium text-slate-800 dark:text-slate-200" data-testid="feedback-totals">
          {totalsText(summary)}
        </p>
        {summary.picked > 0 &&
          (linksWithPicks.length > 1 ? (
            <Menu>
              <MenuButton className={buttonClass('outline', 'sm')} disabled={making}>
                {label}
              </MenuButton>
              <MenuItems
                anchor="bottom start"
                className="z-40 w-64 rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900"
              >
                <ActionsMenuItem onClick={() => fromPicks(null)}>Everyone's picks ({summary.picked})</ActionsMenuItem>
                {linksWithPicks.map((l) => (
                  <ActionsMenuItem key={l.reviewLinkId} onClick={() => fromPicks(l.reviewLinkId)}>
                    <span className="break-words">{l.label || 'Unlabelled link'}</span> ({l.picked})
                  </ActionsMenuItem>
                ))}
              </MenuItems>
            </Menu>
          ) : (
            <Button variant="outline" size="sm" disabled={making} onClick={() => fromPicks(null)}>
              {label}
            </Button>
          ))}
      </div>
      {summary.links.length > 1 && (
        <ul className="space-y-0.5 text-xs text-slate-600 dark:text-slate-400" aria-label="Feedback by review link">
          {summary.links.map((l) => (
            <li key={l.reviewLinkId} className="break-words">
              <span className="font-medium">{l.label || 'Unlabelled link'}:</span> {totalsText(l)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
