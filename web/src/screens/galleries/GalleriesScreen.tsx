import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { GalleryIcon, PlusIcon, SearchIcon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toast.tsx';
import { type GalleryJson, galleriesApi, useResource } from './api.ts';
import { GalleryCardSkeleton, GalleryCardView } from './GalleryCardView.tsx';
import { GalleryFormDialog, type GalleryInput } from './GalleryFormDialog.tsx';
import { SelectField } from './fields.tsx';
import { GALLERY_SORTS, type GalleryForm, gallerySortFrom } from './options.ts';
import { ShareGalleryDialog } from './ShareGalleryDialog.tsx';

export function formOf(gallery: GalleryJson): Partial<GalleryForm> {
  return {
    name: gallery.name,
    description: gallery.description ?? '',
    tags: gallery.tags.join(', '),
    projectName: gallery.projectName ?? '',
    movieTvShow: gallery.movieTvShow ?? '',
    location: gallery.location ?? '',
    propertyType: gallery.propertyType ?? '',
    style: gallery.style ?? '',
    status: gallery.status,
    isPublic: gallery.isPublic,
  };
}

function useDebounced<T>(value: T, ms: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export default function GalleriesScreen() {
  const [params, setParams] = useSearchParams();
  const sort = gallerySortFrom(params.get('sort'));
  const [search, setSearch] = useState(params.get('search') ?? '');
  const query = useDebounced(search.trim(), 250);
  const list = useResource(`${query}|${sort}`, () => galleriesApi.list(query, sort));

  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<GalleryJson | null>(null);
  const [sharing, setSharing] = useState<GalleryJson | null>(null);
  const [deleting, setDeleting] = useState<GalleryJson | null>(null);
  const [deletePending, setDeletePending] = useState(false);

  // The search and sort live in the address, so a reload or a shared link keeps them.
  useEffect(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (query) next.set('search', query);
        else next.delete('search');
        return next;
      },
      { replace: true },
    );
  }, [query, setParams]);

  function setSort(value: string) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'recent') next.delete('sort');
        else next.set('sort', value);
        return next;
      },
      { replace: true },
    );
  }

  async function create(input: GalleryInput) {
    try {
      await galleriesApi.create(input);
    } catch (error) {
      toast({ title: 'Error', description: 'Failed to create gallery. Please try again.', variant: 'destructive' });
      throw error;
    }
    toast({ title: 'Success', description: 'Gallery created successfully!' });
    await list.reload();
  }

  async function update(input: GalleryInput) {
    if (!editing) return;
    try {
      await galleriesApi.update(editing.id, input);
    } catch (error) {
      toast({ title: 'Error', description: 'Failed to update gallery. Please try again.', variant: 'destructive' });
      throw error;
    }
    toast({ title: 'Success', description: 'Gallery updated successfully!' });
    await list.reload();
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeletePending(true);
    try {
      await galleriesApi.remove(deleting.id);
      toast({ title: 'Success', description: 'Gallery deleted successfully!' });
      setDeleting(null);
      await list.reload();
    } catch {
      toast({ title: 'Error', description: 'Failed to delete gallery. Please try again.', variant: 'destructive' });
    } finally {
      setDeletePending(false);
    }
  }

  const galleries = list.data ?? [];
  const firstLoad = list.loading && !list.data;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 dark:text-slate-100">Photo Galleries</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Create and manage your photo collections</p>
        </div>
        <Button onClick={() => setCreating(true)}>
          <PlusIcon className="h-4 w-4" />
          New Gallery
        </Button>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <label htmlFor="gallery-search" className="sr-only">
            Search galleries
          </label>
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" />
          <input
            id="gallery-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search galleries..."
            className={`${inputClass} pl-9`}
          />
        </div>
        <div className="sm:w-56">
          <SelectField label="Sort by" hideLabel value={sort} onChange={setSort} options={GALLERY_SORTS} />
        </div>
      </div>

      {list.error && !list.data ? (
        <EmptyState
          title="Could not load galleries"
          text={list.error.message}
          action={<Button onClick={() => list.reload()}>Try again</Button>}
        />
      ) : firstLoad ? (
        <div
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
          role="status"
          aria-busy="true"
          aria-label="Loading galleries"
        >
          {Array.from({ length: 6 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
            <GalleryCardSkeleton key={i} />
          ))}
        </div>
      ) : galleries.length === 0 ? (
        query ? (
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
            action={<Button onClick={() => setCreating(true)}>Create Your First Gallery</Button>}
          />
        )
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="gallery-grid">
          {galleries.map((gallery) => (
            <GalleryCardView
              key={gallery.id}
              gallery={{ ...gallery, coverUrl: gallery.coverImageUrl && `${gallery.coverImageUrl}?variant=grid` }}
              actions={{
                onEdit: () => setEditing(gallery),
                onShare: () => setSharing(gallery),
                onDelete: () => setDeleting(gallery),
              }}
            />
          ))}
        </div>
      )}

      <GalleryFormDialog open={creating} onClose={() => setCreating(false)} mode="create" onSubmit={create} />
      <GalleryFormDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        mode="edit"
        initial={editing ? formOf(editing) : undefined}
        onSubmit={update}
      />
      <ShareGalleryDialog gallery={sharing} onClose={() => setSharing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => !deletePending && setDeleting(null)}
        onConfirm={confirmDelete}
        title="Delete Gallery"
        message="Are you sure you want to delete this gallery? This action cannot be undone."
        pending={deletePending}
      />
    </div>
  );
}
