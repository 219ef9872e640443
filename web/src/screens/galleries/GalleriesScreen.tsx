import { Suspense, useEffect, useState } from 'react';
import { toastsFor, useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { graphql, usePaginationFragment } from 'react-relay/hooks';
import { useSearchParams } from 'react-router-dom';
import { ImportDialog } from '../../imports/dialogs.ts';
import { useRouteQuery } from '../../routing/useRouteQuery.ts';
import { useGalleryItemsChanged } from '../../live/useLiveRefresh.ts';
import { replaceParam } from '../../routing/searchParams.ts';
import { Button } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { SearchField } from '../../ui/Field.tsx';
import { GalleryIcon, HardDriveIcon, PlusIcon, SearchIcon } from '../../ui/icons.tsx';
import type { GalleriesScreen_query$key } from './__generated__/GalleriesScreen_query.graphql';
import type { GalleriesScreenPaginationQuery } from './__generated__/GalleriesScreenPaginationQuery.graphql';
import type { GalleriesScreenCreateMutation } from './__generated__/GalleriesScreenCreateMutation.graphql';
import type { GalleriesScreenDeleteMutation } from './__generated__/GalleriesScreenDeleteMutation.graphql';
import type { GalleriesScreenQuery } from './__generated__/GalleriesScreenQuery.graphql';
import { GalleryCard, type GalleryCardData } from './GalleryCard.tsx';
import { GalleryCardSkeleton } from './GalleryCardView.tsx';
import { formOf, GalleryFormDialog, type GalleryInput } from './GalleryFormDialog.tsx';
import { SelectField } from '../../ui/Select.tsx';
import { LoadMore } from '../../ui/LoadMore.tsx';
import { GALLERY_SORTS, type GallerySort, gallerySortFrom } from './options.ts';
import { FIRST_ROW } from './photos.ts';
import { ShareGalleryDialog } from './dialogs.ts';
import { ConfirmDialog } from '../../ui/dialogs.ts';
import { Named } from '../../ui/Named.tsx';
import { useUpdateGallery } from './useUpdateGallery.ts';

const PAGE_SIZE = 24;

function useDebounced<T>(value: T, ms: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function Placeholders() {
  return (
    <div
      className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
      role="status"
      aria-busy="true"
      aria-label="Loading galleries"
    >
      {Array.from({ length: 6 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
        <GalleryCardSkeleton key={i} />
      ))}
    </div>
  );
}

type Variables = GalleriesScreenCreateMutation['variables'];
function variablesOf(input: GalleryInput) {
  return {
    ...input,
    propertyType: input.propertyType as Variables['propertyType'],
    style: input.style as Variables['style'],
  };
}

function GalleryGrid({
  search,
  sort,
  creating,
  closeCreate,
  openCreate,
}: {
  search: string;
  sort: GallerySort;
  creating: boolean;
  closeCreate: () => void;
  openCreate: () => void;
}) {
  const { data: query, refresh: reloadList } = useRouteQuery<GalleriesScreenQuery>(
    graphql`
      query GalleriesScreenQuery($search: String, $sort: GallerySort) @preloadable {
        ...GalleriesScreen_query @arguments(search: $search, sort: $sort)
      }
    `,
    // A gallery shared with (or revoked from) one of the viewer's projects comes and goes without a reload.
    { refreshOn: (change) => change.galleriesChanged },
  );
  // Photos added to or taken out of any gallery here: its card's count and cover follow.
  useGalleryItemsChanged(null, reloadList);
  const { data, ...page } = usePaginationFragment<GalleriesScreenPaginationQuery, GalleriesScreen_query$key>(
    graphql`
      fragment GalleriesScreen_query on Query
      @refetchable(queryName: "GalleriesScreenPaginationQuery")
      @argumentDefinitions(
        search: { type: "String" }
        sort: { type: "GallerySort" }
        count: { type: "Int", defaultValue: 24 }
        cursor: { type: "String" }
      ) {
        galleries(search: $search, sort: $sort, first: $count, after: $cursor)
          @connection(key: "GalleriesScreen_galleries", filters: ["search", "sort"]) {
          __id
          edges {
            node {
              id
              viewerAccess
              ...GalleryCard_gallery
            }
          }
        }
      }
    `,
    query,
  );
  const connectionId = data.galleries.__id;

  const [editing, setEditing] = useState<GalleryCardData | null>(null);
  const [sharing, setSharing] = useState<GalleryCardData | null>(null);
  const [deleting, setDeleting] = useState<GalleryCardData | null>(null);

  const [commitCreate] = useMutationWithToasts<GalleriesScreenCreateMutation>(
    graphql`
    mutation GalleriesScreenCreateMutation(
      $name: String!
      $description: String
      $tags: [String!]
      $projectName: String
      $movieTvShow: String
      $location: String
      $propertyType: PropertyType
      $style: GalleryStyle
      $status: String
      $isPublic: Boolean
      $connections: [ID!]!
    ) {
      createGallery(
        name: $name
        description: $description
        tags: $tags
        projectName: $projectName
        movieTvShow: $movieTvShow
        location: $location
        propertyType: $propertyType
        style: $style
        status: $status
        isPublic: $isPublic
      ) {
        __typename
        ... on MutationCreateGallerySuccess {
          data @prependNode(connections: $connections, edgeTypeName: "QueryGalleriesConnectionEdge") {
            id
            ...GalleryCard_gallery
          }
        }
        ... on Error {
          message
        }
      }
    }
  `,
    {
      outcome: (r) => r.createGallery,
      ...toastsFor('create', 'Gallery'),
      serverMessage: true,
    },
  );
  const updateGallery = useUpdateGallery();
  const [commitDelete, deletePending] = useMutationWithToasts<GalleriesScreenDeleteMutation>(
    graphql`
    mutation GalleriesScreenDeleteMutation($id: ID!, $connections: [ID!]!) {
      deleteGallery(id: $id) {
        __typename
        ... on MutationDeleteGallerySuccess {
          data @deleteEdge(connections: $connections)
        }
        ... on Error {
          message
        }
      }
    }
  `,
    {
      outcome: (r) => r.deleteGallery,
      ...toastsFor('delete', 'Gallery'),
    },
  );

  // A new gallery is newest, so it goes first in the default order; other orders are re-read.
  const inPlace = sort === 'recent' && !search;
  const create = (input: GalleryInput) =>
    new Promise<void>((resolve, reject) => {
      commitCreate({
        variables: { ...variablesOf(input), connections: inPlace ? [connectionId] : [] },
        onSuccess: () => {
          if (!inPlace) reloadList();
          resolve();
        },
        // The form stays open on a refusal and says why by its fields, not in a toast over its buttons.
        onFailure: (message) => reject(new Error(message)),
      });
    });

  async function update(input: GalleryInput) {
    if (!editing) return;
    await updateGallery(editing.id, input);
    if (sort !== 'recent' || search) reloadList();
  }

  function confirmDelete() {
    if (!deleting) return;
    commitDelete({ variables: { id: deleting.id, connections: [connectionId] }, onSuccess: () => setDeleting(null) });
  }

  const galleries = data.galleries.edges.map((edge) => edge?.node).filter((node) => node != null);

  return (
    <>
      {galleries.length === 0 ? (
        search ? (
          <EmptyState
            icon={<SearchIcon className="h-10 w-10" />}
            title="No galleries match your search"
            text="Try another name, location or tag."
          />
        ) : (
          <EmptyState
            icon={<GalleryIcon className="h-10 w-10" />}
            title="No galleries yet"
            text="Collect location photos into galleries and share them with your projects."
            action={<Button onClick={openCreate}>Create Your First Gallery</Button>}
          />
        )
      ) : (
        // Their own first, then those others share with the viewer's projects (each card says by whom).
        <div className="space-y-8">
          {(['own', 'shared'] as const).map((part) => {
            const list = galleries.filter((g) => (g.viewerAccess === 'owner') === (part === 'own'));
            if (list.length === 0) return null;
            const title = part === 'own' ? 'Your galleries' : 'Shared with you';
            return (
              <section key={part} aria-labelledby={`galleries-${part}`} data-testid={`galleries-${part}`}>
                {/* The cards' titles are h3, as under the dashboard's "Recent Galleries": headings in order. */}
                <h2 id={`galleries-${part}`} className="mb-3 text-lg font-semibold text-slate-900 dark:text-slate-100">
                  {title}
                </h2>
                <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="gallery-grid">
                  {list.map((gallery, i) => (
                    <GalleryCard
                      key={gallery.id}
                      gallery={gallery}
                      first={i < FIRST_ROW}
                      onEdit={setEditing}
                      onShare={setSharing}
                      onDelete={setDeleting}
                    />
                  ))}
                </div>
              </section>
            );
          })}
        </div>
      )}
      <LoadMore list={page} count={PAGE_SIZE} />

      <GalleryFormDialog open={creating} onClose={closeCreate} mode="create" onSubmit={create} />
      <GalleryFormDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        mode="edit"
        initial={editing ? formOf(editing) : undefined}
        onSubmit={update}
      />
      <ShareGalleryDialog
        gallery={sharing && { id: sharing.id, name: sharing.name }}
        onClose={() => setSharing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
        title="Delete Gallery"
        message={
          deleting && (
            <>
              {/* The spec's sentence, under the name of the gallery it is about. */}
              <span className="mb-1 block text-slate-900 dark:text-slate-100">
                <Named name={deleting.name} />
              </span>
              Are you sure you want to delete this gallery? This action cannot be undone.
            </>
          )
        }
        pending={deletePending}
      />
    </>
  );
}

export default function GalleriesScreen() {
  const [params, setParams] = useSearchParams();
  const sort = gallerySortFrom(params.get('sort'));
  const [search, setSearch] = useState(params.get('search') ?? '');
  const query = useDebounced(search.trim(), 250);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);

  // The search and sort live in the address, so a reload or a shared link keeps them. An address
  // that already says it is left alone: writing it again is a navigation, and the route would read
  // the list again (on every opening, right after the answer the page carried).
  useEffect(() => {
    if ((new URLSearchParams(window.location.search).get('search') ?? '') === query) return;
    replaceParam(setParams, 'search', query);
  }, [query, setParams]);

  function setSort(value: string) {
    replaceParam(setParams, 'sort', value === 'recent' ? null : value);
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 dark:text-slate-100">Photo Galleries</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Create and manage your photo collections</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setImporting(true)}>
            <HardDriveIcon className="h-4 w-4" />
            Import Media
          </Button>
          <Button onClick={() => setCreating(true)}>
            <PlusIcon className="h-4 w-4" />
            New Gallery
          </Button>
        </div>
      </div>
      <ImportDialog open={importing} onClose={() => setImporting(false)} kind="media" />

      <div className="flex flex-col gap-3 sm:flex-row">
        <SearchField
          id="gallery-search"
          label="Search galleries"
          value={search}
          onChange={setSearch}
          placeholder="Search galleries..."
          className="flex-1"
        />
        <div className="sm:w-56">
          <SelectField label="Sort by" hideLabel value={sort} onChange={setSort} options={GALLERY_SORTS} />
        </div>
      </div>

      <Suspense fallback={<Placeholders />}>
        <GalleryGrid
          search={params.get('search') ?? ''}
          sort={sort}
          creating={creating}
          openCreate={() => setCreating(true)}
          closeCreate={() => setCreating(false)}
        />
      </Suspense>
    </div>
  );
}
