import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PhotoGrid } from './PhotoGrid.tsx';
import type { Photo } from './photos.ts';
import { testPhotos } from './testPhotos.ts';

// jsdom has no layout: give every element a 1080 × 800 box so the virtualiser has a viewport.
const restore: (() => void)[] = [];
beforeAll(() => {
  const rect = { width: 1080, height: 800, top: 0, left: 0, right: 1080, bottom: 800, x: 0, y: 0, toJSON: () => ({}) };
  const original = HTMLElement.prototype.getBoundingClientRect;
  HTMLElement.prototype.getBoundingClientRect = () => rect as DOMRect;
  const width = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
  const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1080 });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 800 });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 800 });
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => 1080 });
  // As in a browser, the first observation reports the element's size (there, before the next paint).
  globalThis.ResizeObserver = class {
    constructor(private readonly report: ResizeObserverCallback) {}
    observe(element: Element) {
      this.report(
        [{ target: element, contentRect: element.getBoundingClientRect() } as ResizeObserverEntry],
        this as unknown as ResizeObserver,
      );
    }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  restore.push(() => {
    HTMLElement.prototype.getBoundingClientRect = original;
    if (width) Object.defineProperty(HTMLElement.prototype, 'clientWidth', width);
    if (height) Object.defineProperty(HTMLElement.prototype, 'offsetHeight', height);
  });
});
afterAll(() => {
  for (const undo of restore) undo();
});
afterEach(cleanup);

const photos = testPhotos(10_000);

describe('PhotoGrid', () => {
  it('keeps only the visible rows of 10,000 photos in the page', () => {
    render(<PhotoGrid photos={photos} hasMore={false} loadingMore={false} onLoadMore={() => {}} onOpen={() => {}} />);
    const tiles = screen.getAllByTestId('photo-tile');
    expect(tiles.length).toBeGreaterThan(0);
    expect(tiles.length).toBeLessThan(120);
    expect(tiles[0]?.querySelector('img')?.getAttribute('src')).toBe('/objects/uploads/0?variant=grid');
  });

  it('fetches the first rows at once, the first with high priority, and the rest as they scroll near', () => {
    render(<PhotoGrid photos={photos} hasMore={false} loadingMore={false} onLoadMore={() => {}} onOpen={() => {}} />);
    const images = screen.getAllByTestId('photo-tile').map((tile) => tile.querySelector('img'));
    const columns = images.filter((img) => img?.getAttribute('fetchpriority') === 'high').length;
    expect(columns).toBeGreaterThan(1);
    expect(images.slice(0, columns).every((img) => img?.getAttribute('loading') === 'eager')).toBe(true);
    expect(images.slice(columns, 2 * columns).every((img) => img?.getAttribute('loading') === 'eager')).toBe(true);
    expect(images.slice(columns, 2 * columns).some((img) => img?.hasAttribute('fetchpriority'))).toBe(false);
    expect(images.slice(2 * columns).every((img) => img?.getAttribute('loading') === 'lazy')).toBe(true);
  });

  it('renders the rows scrolled to and asks for the next page near the end', async () => {
    const onLoadMore = vi.fn();
    const onOpen = vi.fn();
    render(<PhotoGrid photos={photos} hasMore loadingMore={false} onLoadMore={onLoadMore} onOpen={onOpen} />);
    const grid = screen.getByTestId('photo-grid');
    expect(onLoadMore).not.toHaveBeenCalled();
    await act(async () => {
      grid.scrollTop = grid.scrollHeight || 10_000_000;
      fireEvent.scroll(grid);
    });
    const tiles = screen.getAllByTestId('photo-tile');
    expect(tiles.length).toBeLessThan(120);
    expect(screen.getByRole('button', { name: 'Open photo-9999.jpg' })).toBeTruthy();
    expect(onLoadMore).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Open photo-9999.jpg' }));
    expect(onOpen).toHaveBeenCalledWith(9999);
  });

  it('does not ask for the next page while the end of the first one is only in the rows kept beyond the view', async () => {
    const onLoadMore = vi.fn();
    // 48 photos in 6 columns: 8 rows, about 4 in view, the rest rendered beyond it.
    render(
      <PhotoGrid photos={photos.slice(0, 48)} hasMore loadingMore={false} onLoadMore={onLoadMore} onOpen={() => {}} />,
    );
    expect(screen.getByRole('button', { name: 'Open photo-47.jpg' })).toBeTruthy();
    expect(onLoadMore).not.toHaveBeenCalled();
    const grid = screen.getByTestId('photo-grid');
    await act(async () => {
      grid.scrollTop = 800;
      fireEvent.scroll(grid);
    });
    expect(onLoadMore).toHaveBeenCalled();
  });

  it("puts its thumbnails in the page in a render of their own, after the screen's commit", async () => {
    // On a phone the screen's first commit was one long task with the grid's second render in it
    // (its width, set in a layout effect, is flushed synchronously): hundreds of milliseconds of
    // Lighthouse's total blocking time. The cells now come as a transition, in slices of their own.
    const host = document.body.appendChild(document.createElement('div'));
    const root = createRoot(host);
    const acting = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    const tiles = () => host.querySelectorAll('[data-testid="photo-tile"]').length;
    try {
      flushSync(() =>
        root.render(
          <PhotoGrid photos={photos} hasMore={false} loadingMore={false} onLoadMore={() => {}} onOpen={() => {}} />,
        ),
      );
      expect(host.querySelector('[data-testid="photo-grid"]')).not.toBeNull();
      expect(tiles()).toBe(0);
      await waitFor(() => expect(tiles()).toBeGreaterThan(0));
    } finally {
      root.unmount();
      host.remove();
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = acting;
    }
  });

  it('shows a placeholder while a photo is processed, then its thumbnail when the data says it is done', () => {
    const fresh = { ...photos[0], id: 'new', name: 'just-in.jpg', processing: true } as Photo;
    const props = { hasMore: false, loadingMore: false, onLoadMore: () => {}, onOpen: () => {} };
    const { rerender } = render(<PhotoGrid photos={[fresh]} {...props} />);
    const tile = screen.getByRole('button', { name: 'Open just-in.jpg' });
    // No request for a thumbnail that does not exist yet (it would show a broken image).
    expect(tile.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'just-in.jpg (preparing its thumbnail)' })).toBeTruthy();
    rerender(<PhotoGrid photos={[{ ...fresh, processing: false }]} {...props} />);
    expect(tile.querySelector('img')?.getAttribute('src')).toBe('/objects/uploads/0?variant=grid');
    expect(screen.queryByTestId('photo-processing')).toBeNull();
  });

  it('offers the high-density thumbnail where the server has made it, so a phone shows the cell sharp', () => {
    const props = { hasMore: false, loadingMore: false, onLoadMore: () => {}, onOpen: () => {} };
    const old = { ...photos[0], id: 'old', name: 'old.jpg', objectPath: '/objects/uploads/old' } as Photo;
    const sharp = {
      ...photos[1],
      id: 'new',
      name: 'new.jpg',
      objectPath: '/objects/uploads/new',
      grid2x: true,
    } as Photo;
    render(<PhotoGrid photos={[old, sharp]} {...props} />);
    const image = (name: string) => screen.getByRole('img', { name });
    // A photo processed before the 800-pixel size existed asks for no thumbnail it does not have.
    expect(image('old.jpg').getAttribute('src')).toBe('/objects/uploads/old?variant=grid');
    expect(image('old.jpg').hasAttribute('srcset')).toBe(false);
    expect(image('new.jpg').getAttribute('src')).toBe('/objects/uploads/new?variant=grid');
    expect(image('new.jpg').getAttribute('srcset')).toBe(
      '/objects/uploads/new?variant=grid 1x, /objects/uploads/new?variant=grid2x 2x',
    );
  });
});
