import { useEffect, useSyncExternalStore } from 'react';
import { CloseIcon } from './icons.tsx';

// One toast visible at a time. The store lives outside React so that code
// with no component at hand (the network layer's 401 handling) can raise a toast too.

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; 0 keeps it until dismissed. */
  duration?: number;
}

export interface ToastItem extends Required<Pick<ToastInput, 'variant' | 'duration'>> {
  id: number;
  title?: string;
  description?: string;
}

const DEFAULT_DURATION = 5000;
let current: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: ToastItem[]) {
  current = next;
  for (const listener of listeners) listener();
}

export function toast(input: ToastInput): { id: number; dismiss: () => void } {
  const id = nextId++;
  emit([
    {
      id,
      title: input.title,
      description: input.description,
      variant: input.variant ?? 'default',
      duration: input.duration ?? DEFAULT_DURATION,
    },
  ]);
  return { id, dismiss: () => dismissToast(id) };
}

export function dismissToast(id?: number) {
  emit(id === undefined ? [] : current.filter((t) => t.id !== id));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToast() {
  const toasts = useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
  return { toasts, toast, dismiss: dismissToast };
}

function ToastCard({ item }: { item: ToastItem }) {
  useEffect(() => {
    if (!item.duration) return;
    const timer = setTimeout(() => dismissToast(item.id), item.duration);
    return () => clearTimeout(timer);
  }, [item.id, item.duration]);
  const destructive = item.variant === 'destructive';
  return (
    <div
      role={destructive ? 'alert' : 'status'}
      data-variant={item.variant}
      data-testid="toast"
      className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg ${
        destructive
          ? // red-700, not 600: white text, faded to 90% for the description, keeps 4.5:1 on it
            'border-red-800 bg-red-700 text-white'
          : 'border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100'
      }`}
    >
      <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
        {item.title && <p className="text-sm font-semibold">{item.title}</p>}
        {item.description && <p className="mt-1 text-sm opacity-90">{item.description}</p>}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(item.id)}
        className="rounded p-1 opacity-70 hover:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-current"
        aria-label="Close notification"
      >
        <CloseIcon className="h-4 w-4" />
      </button>
    </div>
  );
}

/** Mount once near the root. */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-20 z-[100] flex flex-col items-center gap-2 px-4 md:bottom-4 md:items-end"
    >
      {toasts.map((item) => (
        <ToastCard key={item.id} item={item} />
      ))}
    </div>
  );
}
