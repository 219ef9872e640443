import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { countOf, formatAge } from '../../lib/format.ts';
import { appPath } from '../../lib/globalId.ts';
import { preloadOnIntent } from '../../routing/intent.ts';
import { labelOf } from '../../lib/choices.ts';
import { PROPERTY_TYPES, visibleTags } from './options.ts';
import { densitySrcSet, gridUrl } from '../../lib/pictures.ts';
import { useNow } from '../../lib/now.ts';

export interface GalleryCardData {
  id: string;
  name: string;
  description?: string | null;
  location?: string | null;
  movieTvShow?: string | null;
  propertyType?: string | null;
  tags?: readonly string[];
  isPublic: boolean;
  photoCount: number;
  /** Where the cover photo is served (its grid thumbnail is shown), or null for no cover. */
  coverImageUrl?: string | null;
  /** The cover's grid thumbnail for high-density screens, once the server has made it. */
  coverImage2xUrl?: string | null;
  /** An ISO date (the DateTime scalar). */
  createdAt: unknown;
  /** What the viewer may do with it, and how it is shared (the galleries screen knows; the dashboard does not say). */
  access?: 'owner' | 'write' | 'read' | '%future added value';
  /** The owner's own: the projects it is shared with. */
  sharedWith?: readonly string[];
  /** Someone else's: who shared it, through which of the viewer's projects. */
  sharedBy?: string;
  via?: readonly string[];
}

/** The card's badge, true to how the viewer has it: Public / Shared / Private for their own, View only / Can edit for others'. */
export function AccessBadge({ gallery }: { gallery: Pick<GalleryCardData, 'access' | 'isPublic' | 'sharedWith'> }) {
  if (gallery.access === undefined || gallery.access === 'owner') {
    if (gallery.isPublic || !gallery.sharedWith?.length) return <PublicBadge isPublic={gallery.isPublic} />;
    return <Badge tone="bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">Shared</Badge>;
  }
  return gallery.access === 'write' ? (
    <Badge tone="bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200">Can edit</Badge>
  ) : (
    <Badge tone="bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200">View only</Badge>
  );
}

function Badge({ tone, children }: { tone: string; children: ReactNode }) {
  return <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>{children}</span>;
}

export function PublicBadge({ isPublic }: { isPublic: boolean }) {
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${
        isPublic
          ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200'
          : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'
      }`}
    >
      {isPublic ? 'Public' : 'Private'}
    </span>
  );
}

export function photoCountText(count: number) {
  return countOf(count, 'photo');
}

/**
 * The one gallery card: cover, name, badge, what it shows and when it was made; the galleries
 * screen adds its menu and details (the dashboard's recent galleries show the card without them).
 */
export function GalleryCardView({
  gallery,
  menu,
  first = false,
}: {
  gallery: GalleryCardData;
  menu?: ReactNode;
  /** One of the first row's cards, in view as the screen opens. */
  first?: boolean;
}) {
  const now = useNow();
  const { shown, more } = visibleTags(gallery.tags ?? []);
  const href = appPath.gallery(gallery.id);
  const createdAt = String(gallery.createdAt);
  const facts = [
    gallery.movieTvShow,
    gallery.location,
    gallery.propertyType && labelOf(PROPERTY_TYPES, gallery.propertyType),
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <article
      data-testid="gallery-card"
      className="group relative flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md dark:border-slate-700 dark:bg-slate-900"
    >
      <Link
        to={href}
        {...preloadOnIntent(href)}
        className="block focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500"
        aria-label={`Open gallery ${gallery.name}`}
      >
        <div className="aspect-video w-full bg-slate-100 dark:bg-slate-800">
          {gallery.coverImageUrl ? (
            <img
              src={gridUrl(gallery.coverImageUrl)}
              // As the page's preload (screenQueries.ts) chooses: one cover per card is fetched.
              srcSet={densitySrcSet(gridUrl(gallery.coverImageUrl), gallery.coverImage2xUrl)}
              alt=""
              // The first cards are in view as the screen opens (their page asked for them already).
              loading={first ? 'eager' : 'lazy'}
              fetchPriority={first ? 'high' : undefined}
              className="h-full w-full object-cover"
            />
          ) : (
            <div className="flex h-full items-center justify-center text-slate-400" aria-hidden="true">
              <svg
                viewBox="0 0 24 24"
                className="h-10 w-10"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.5"
                aria-hidden="true"
              >
                <rect x="3" y="5" width="18" height="14" rx="2" />
                <circle cx="8.5" cy="10" r="1.5" />
                <path d="M21 16l-5-5-9 8" />
              </svg>
            </div>
          )}
        </div>
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900 dark:text-slate-100">
            <Link to={href} className="hover:underline focus:outline-none focus-visible:underline">
              {gallery.name}
            </Link>
          </h3>
          <AccessBadge gallery={gallery} />
          {menu}
        </div>
        {gallery.sharedBy !== undefined && (
          <p className="text-xs break-words text-slate-600 dark:text-slate-400" data-testid="shared-by">
            Shared by <span className="font-medium text-slate-800 dark:text-slate-200">{gallery.sharedBy}</span>
            {gallery.via?.length ? ` via ${gallery.via.join(', ')}` : ''}
          </p>
        )}
        {gallery.description && (
          <p className="line-clamp-2 text-sm text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
            {gallery.description}
          </p>
        )}
        {facts && (
          <p className="line-clamp-2 text-xs text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">{facts}</p>
        )}
        {shown.length > 0 && (
          <ul className="flex flex-wrap gap-1" aria-label="Tags">
            {shown.map((tag) => (
              <li
                key={tag}
                title={tag}
                className="max-w-full truncate rounded bg-indigo-50 px-2 py-0.5 text-xs text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
              >
                {tag}
              </li>
            ))}
            {more && (
              <li className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                {more}
              </li>
            )}
          </ul>
        )}
        <div className="mt-auto flex items-center justify-between pt-2 text-xs text-slate-500 dark:text-slate-400">
          <span data-testid="photo-count">{photoCountText(gallery.photoCount)}</span>
          <time dateTime={createdAt}>{formatAge(createdAt, now)}</time>
        </div>
      </div>
    </article>
  );
}

export function GalleryCardSkeleton() {
  return (
    <div
      data-testid="gallery-skeleton"
      aria-hidden="true"
      className="overflow-hidden rounded-lg border border-slate-200 dark:border-slate-700"
    >
      <div className="aspect-video w-full animate-pulse bg-slate-200 dark:bg-slate-800" />
      <div className="space-y-2 p-4">
        <div className="h-4 w-2/3 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-3 w-full animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-3 w-1/2 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      </div>
    </div>
  );
}
