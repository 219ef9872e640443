import { type FormEvent, useId, useState } from 'react';
import { graphql, type PreloadedQuery, useFragment, useMutation, usePreloadedQuery } from 'react-relay/hooks';
import { dateInputBounds } from '../../../../api/src/shared/dates.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useQueryWhileOpen, WhenLoaded } from '../../relay/queryWhileOpen.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogActions } from '../../ui/Dialog.tsx';
import { DescribedField, Input } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { toast } from '../../ui/toast.tsx';
import type { ReviewLinksDialog_gallery$key } from './__generated__/ReviewLinksDialog_gallery.graphql';
import type { ReviewLinksDialogCreateMutation } from './__generated__/ReviewLinksDialogCreateMutation.graphql';
import type { ReviewLinksDialogQuery } from './__generated__/ReviewLinksDialogQuery.graphql';
import type { ReviewLinksDialogRevokeMutation } from './__generated__/ReviewLinksDialogRevokeMutation.graphql';
import { absoluteUrl, dayOf, linkStatus, type ReviewLinkForm, reviewLinkInput } from './reviewLinks.ts';

const linksQuery = graphql`
  query ReviewLinksDialogQuery($galleryId: ID!) {
    gallery: node(id: $galleryId) {
      ...ReviewLinksDialog_gallery @alias(as: "links")
    }
  }
`;

const EMPTY: ReviewLinkForm = { label: '', expiresOn: '', password: '', allowDownload: false };
const FAILED_CREATE = 'Failed to create the review link. Please try again.';

function CreatedLink({ url, onAnother, onClose }: { url: string; onAnother: () => void; onClose: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('yes');
    } catch {
      // Without clipboard permission the owner can still select the text by hand.
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      setCopied('failed');
    }
  }
  return (
    <div className="space-y-3" data-testid="created-review-link">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        Review link
      </label>
      <div className="flex gap-2">
        <Input id={id} readOnly value={url} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
        <Button variant="outline" onClick={copy}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="text-sm text-amber-700 dark:text-amber-300" role="status">
        {copied === 'failed'
          ? 'Copying is not allowed here: the link is selected, copy it with your keyboard.'
          : 'Copy the link now: it is shown only once. Anyone with it can open this gallery.'}
      </p>
      <DialogActions>
        <Button variant="outline" onClick={onAnother}>
          Create another link
        </Button>
        <Button onClick={onClose}>Done</Button>
      </DialogActions>
    </div>
  );
}

function LinkRow({ link }: { link: NonNullable<ReturnType<typeof useLinks>>['reviewLinks'][number] }) {
  const [confirming, setConfirming] = useState(false);
  const [commitRevoke, revoking] = useMutation<ReviewLinksDialogRevokeMutation>(graphql`
    mutation ReviewLinksDialogRevokeMutation($id: ID!) {
      revokeReviewLink(id: $id) {
        __typename
        ... on MutationRevokeReviewLinkSuccess {
          data {
            id
            active
            revokedAt
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const status = linkStatus(link, formatDate);
  const name = link.label || 'Untitled link';

  function revoke() {
    commitRevoke({
      variables: { id: link.id },
      onCompleted: (result) => {
        const answer = result.revokeReviewLink;
        if (answer.__typename === 'MutationRevokeReviewLinkSuccess') {
          toast({ title: 'Review link revoked', description: `"${name}" no longer opens the gallery.` });
        } else {
          toast({
            title: 'Error',
            description: ('message' in answer && answer.message) || 'Failed to revoke the link. Please try again.',
            variant: 'destructive',
          });
        }
        setConfirming(false);
      },
      onError: () => {
        toast({ title: 'Error', description: 'Failed to revoke the link. Please try again.', variant: 'destructive' });
        setConfirming(false);
      },
    });
  }

  const facts = [
    link.hasPassword ? 'Password' : 'No password',
    link.allowDownload ? 'Downloads allowed' : 'No downloads',
    link.lastReviewAt ? `Last review ${formatDateTime(link.lastReviewAt)}` : 'Not used yet',
  ];

  return (
    <li className="flex flex-wrap items-center gap-2 py-2" data-testid="review-link-row">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">{name}</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">{facts.join(' · ')}</p>
      </div>
      <span
        className={`rounded-full px-2 py-0.5 text-xs font-medium ${
          status.active
            ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200'
            : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300'
        }`}
      >
        {status.label}
      </span>
      {status.active &&
        (confirming ? (
          // biome-ignore lint/a11y/useSemanticElements: two buttons asking one question, not a form
          <div role="group" aria-label={`Revoke ${name}?`} className="flex items-center gap-1">
            <span className="text-xs text-slate-600 dark:text-slate-400">Revoke it?</span>
            <Button variant="destructive" size="sm" onClick={revoke} disabled={revoking}>
              {revoking ? 'Revoking...' : 'Revoke'}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirming(false)} disabled={revoking}>
              Keep
            </Button>
          </div>
        ) : (
          <Button variant="ghost" size="sm" onClick={() => setConfirming(true)} aria-label={`Revoke ${name}`}>
            Revoke
          </Button>
        ))}
    </li>
  );
}

function useLinks(key: ReviewLinksDialog_gallery$key | null | undefined) {
  return useFragment(
    graphql`
      fragment ReviewLinksDialog_gallery on Gallery {
        id
        reviewLinks {
          id
          label
          expiresAt
          allowDownload
          hasPassword
          active
          revokedAt
          lastReviewAt
        }
      }
    `,
    key,
  );
}

function ReviewLinksContent({
  reference,
  galleryId,
  onClose,
}: {
  reference: PreloadedQuery<ReviewLinksDialogQuery>;
  galleryId: string;
  onClose: () => void;
}) {
  const data = usePreloadedQuery<ReviewLinksDialogQuery>(linksQuery, reference);
  const gallery = useLinks(data.gallery?.links);
  const [form, setForm] = useState<ReviewLinkForm>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<'label' | 'expiresOn' | 'password' | 'form', string>>>({});
  const [createdUrl, setCreatedUrl] = useState<string | null>(null);
  const [commitCreate, creating] = useMutation<ReviewLinksDialogCreateMutation>(graphql`
    mutation ReviewLinksDialogCreateMutation(
      $galleryId: ID!
      $label: String
      $expiresAt: DateTime
      $password: String
      $allowDownload: Boolean
    ) {
      createReviewLink(
        galleryId: $galleryId
        label: $label
        expiresAt: $expiresAt
        password: $password
        allowDownload: $allowDownload
      ) {
        __typename
        ... on MutationCreateReviewLinkSuccess {
          data {
            url
            reviewLink {
              id
              # The gallery's links as they now are, the new one first.
              gallery {
                ...ReviewLinksDialog_gallery
              }
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
    const checked = reviewLinkInput(form);
    if (!checked.ok) {
      setErrors({ [checked.field]: checked.message });
      return;
    }
    setErrors({});
    commitCreate({
      variables: { galleryId, ...checked.input },
      onCompleted: (result) => {
        const answer = result.createReviewLink;
        if (answer.__typename === 'MutationCreateReviewLinkSuccess' && answer.data) {
          setCreatedUrl(absoluteUrl(answer.data.url, window.location.origin));
          setForm(EMPTY);
        } else {
          setErrors({ form: ('message' in answer && answer.message) || FAILED_CREATE });
        }
      },
      onError: () => setErrors({ form: FAILED_CREATE }),
    });
  }

  const links = gallery?.reviewLinks ?? [];
  const set = <K extends keyof ReviewLinkForm>(key: K, value: ReviewLinkForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  return (
    <>
      {createdUrl ? (
        <CreatedLink url={createdUrl} onAnother={() => setCreatedUrl(null)} onClose={onClose} />
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <DescribedField label="Who is it for? (optional)" hint="Only your team sees this label." error={errors.label}>
            {(props) => (
              <Input
                {...props}
                value={form.label}
                maxLength={200}
                placeholder="e.g. Director, Client"
                onChange={(e) => set('label', e.target.value)}
              />
            )}
          </DescribedField>
          <DescribedField label="Expires on (optional)" error={errors.expiresOn}>
            {(props) => (
              <Input
                {...props}
                type="date"
                min={dayOf(new Date())}
                max={dateInputBounds('date').max}
                value={form.expiresOn}
                onChange={(e) => set('expiresOn', e.target.value)}
              />
            )}
          </DescribedField>
          <DescribedField
            label="Password (optional)"
            hint="At least 4 characters. Send it separately from the link."
            error={errors.password}
          >
            {(props) => (
              <Input
                {...props}
                type="password"
                autoComplete="new-password"
                value={form.password}
                onChange={(e) => set('password', e.target.value)}
              />
            )}
          </DescribedField>
          <Switch
            checked={form.allowDownload}
            onChange={(value) => set('allowDownload', value)}
            label="Allow downloads"
            description="Reviewers may download the original photos."
          />
          {errors.form && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {errors.form}
            </p>
          )}
          <DialogActions>
            <Button variant="outline" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" disabled={creating}>
              {creating ? 'Creating...' : 'Create Link'}
            </Button>
          </DialogActions>
        </form>
      )}
      <section
        className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-700"
        aria-labelledby="review-links-list"
      >
        <h3 id="review-links-list" className="text-sm font-semibold text-slate-900 dark:text-slate-100">
          Links
        </h3>
        {links.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">No review links yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
            {links.map((link) => (
              <LinkRow key={link.id} link={link} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

const DESCRIPTION =
  'People without an account can open the gallery with a review link, comment on photos and pick Yes, Maybe or No.';

/** Review links of a gallery: create one (its URL shown once), list them, revoke. */
export function ReviewLinksDialog({ galleryId, onClose }: { galleryId: string | null; onClose: () => void }) {
  const reference = useQueryWhileOpen<ReviewLinksDialogQuery>(linksQuery, galleryId ? { galleryId } : null);
  if (!galleryId) return null;
  return (
    <Dialog open onClose={onClose} title="Review Links" description={DESCRIPTION} size="lg">
      <WhenLoaded reference={reference} fallback={<Spinner />}>
        {(loaded) => <ReviewLinksContent reference={loaded} galleryId={galleryId} onClose={onClose} />}
      </WhenLoaded>
    </Dialog>
  );
}
