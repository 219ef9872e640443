import { useEffect, useMemo, useRef } from 'react';
import { graphql, useSubscription } from 'react-relay/hooks';
import { CARRIED_READ_AT } from '../../../api/src/users/contract.ts';
import { serverPage } from '../lib/serverPage.ts';
import { takeCarriedAt } from '../relay/prefetch.ts';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import type {
  useAccessChangesSubscription,
  useAccessChangesSubscription$data,
} from './__generated__/useAccessChangesSubscription.graphql';

export type AccessChange = useAccessChangesSubscription$data['accessChanged'];

// What the signed-in user may see changes in other people's browsers: an invitation to them or to
// a project they manage, a project's crew, a gallery shared with or revoked from one of their
// projects. The tab holds one subscription for it (the shell's) and screens listen to that.
// The server opens it with `listening`: a change before then was not sent, so data read before
// it is read again, unless the server says nothing changed since the page's answers were read; a
// screen also hears what arrived while its own data was on its way.

/** Changes heard by this tab so far, counted; the last few are kept for screens still loading. */
let heard = 0;
const recent: { heard: number; change: AccessChange }[] = [];
const KEPT = 50;
const READ_AGAIN: AccessChange = {
  kind: 'listening',
  projectId: null,
  galleryId: null,
  galleriesChanged: true,
  readAgain: true,
};
const listeners = new Set<(change: AccessChange) => void>();

function hear(change: AccessChange) {
  heard++;
  recent.push({ heard, change });
  if (recent.length > KEPT) recent.shift();
  for (const listener of listeners) listener(change);
}

/** How many changes this tab has heard: a screen's query notes it when sent (routing/queries.ts). */
export function accessChangesHeard() {
  return heard;
}

let readAt: string | null | undefined;
/** When the page's carried answers were read (api/src/http/web-page.ts), null if it carried none. */
function pageReadAt() {
  // Rendered on the server: nothing subscribes there, and no page's time is kept for the next.
  if (serverPage()) return null;
  if (readAt === undefined) {
    const carried = takeCarriedAt(CARRIED_READ_AT);
    readAt = typeof carried === 'string' ? carried : null;
  }
  return readAt;
}

/** The tab's one access-change subscription: mount once in the signed-in shell. */
export function AccessChangesFeed() {
  useSubscription<useAccessChangesSubscription>(
    useMemo<GraphQLSubscriptionConfig<useAccessChangesSubscription>>(
      () => ({
        subscription: graphql`
          subscription useAccessChangesSubscription($since: DateTime) {
            accessChanged(since: $since) {
              kind
              projectId
              galleryId
              galleriesChanged
              readAgain
            }
          }
        `,
        // The page's answers were read then: `listening` says whether anything changed since.
        variables: { since: pageReadAt() },
        onNext: (response) => {
          const change = response?.accessChanged;
          // Nothing to hear: the screens' data is not older than what they may see.
          if (change && (change.kind !== 'listening' || change.readAgain)) hear(change);
        },
      }),
      [],
    ),
  );
  return null;
}

/**
 * Calls `onChange` for each change heard after the first `since` (while the screen's data was on
 * its way, so possibly not in it), then for each one as it is heard.
 */
export function useAccessChanges(since: number, onChange: (change: AccessChange) => void) {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    const listener = (change: AccessChange) => latest.current(change);
    // More changes than are kept came meanwhile: read everything again, as on `listening`.
    if ((recent[0]?.heard ?? 0) > since + 1) listener(READ_AGAIN);
    for (const kept of recent) if (kept.heard > since) listener(kept.change);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, [since]);
}
