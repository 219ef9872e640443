import { Dialog } from '@headlessui/react';
import { type ReactNode, useEffect, useRef } from 'react';
import { CloseIcon } from './icons.tsx';

// The parts the dark media viewers share: the gallery's lightbox, the review page's lightbox and the
// File Manager's preview.

/** The dark full-screen dialog a viewer opens in; the class names let one be laid out its own way. */
export function ViewerDialog({
  open,
  onClose,
  className = 'relative z-50',
  backdropClassName = 'bg-black/90',
  bodyClassName = 'flex flex-col lg:flex-row',
  children,
}: {
  open: boolean;
  onClose: () => void;
  className?: string;
  backdropClassName?: string;
  bodyClassName?: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} className={className}>
      <div className={`fixed inset-0 ${backdropClassName}`} aria-hidden="true" />
      <div className={`fixed inset-0 ${bodyClassName}`}>{children}</div>
    </Dialog>
  );
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-400">{label}</dt>
      <dd className="text-sm text-slate-100">{children}</dd>
    </div>
  );
}

const ARROWS = {
  previous: { side: 'left-2', label: 'Previous', chevron: 'M12 4l-6 6 6 6' },
  next: { side: 'right-2', label: 'Next', chevron: 'M8 4l6 6-6 6' },
};

/** The previous/next arrow over the picture; without `onClick` there is nothing that way. */
function NavButton({
  way,
  noun,
  onClick,
}: {
  way: keyof typeof ARROWS;
  noun: string;
  onClick: (() => void) | undefined;
}) {
  const { side, label, chevron } = ARROWS[way];
  return (
    <button
      type="button"
      className={`absolute top-1/2 -translate-y-1/2 rounded-full bg-black/50 p-2 text-white hover:bg-black/70 focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-30 ${side}`}
      onClick={() => onClick?.()}
      disabled={!onClick}
      aria-label={`${label} ${noun}`}
    >
      <svg viewBox="0 0 20 20" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d={chevron} />
      </svg>
    </button>
  );
}

/** The two arrows over the picture; `noun` names what they move through ("photo", "file"). */
export function PrevNextButtons({
  noun,
  onPrevious,
  onNext,
}: {
  noun: string;
  /** Undefined at the first one. */
  onPrevious: (() => void) | undefined;
  /** Undefined at the last one. */
  onNext: (() => void) | undefined;
}) {
  return (
    <>
      <NavButton way="previous" noun={noun} onClick={onPrevious} />
      <NavButton way="next" noun={noun} onClick={onNext} />
    </>
  );
}

/** The side panel's first row: the title (whatever the viewer puts there) and the close button. */
export function ViewerHeader({
  onClose,
  closeLabel = 'Close',
  children,
}: {
  onClose: () => void;
  closeLabel?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex items-start justify-between gap-2">
      {children}
      <button
        type="button"
        onClick={onClose}
        className="rounded p-1 text-slate-300 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
        aria-label={closeLabel}
      >
        <CloseIcon className="h-5 w-5" />
      </button>
    </div>
  );
}

/**
 * The left and right arrow keys call `onPrevious` / `onNext` while `open` (an undefined one: nothing
 * that way), except where `ignore` says the key belongs to what has the focus.
 */
export function useArrowKeys(
  open: boolean,
  onPrevious: (() => void) | undefined,
  onNext: (() => void) | undefined,
  ignore?: (target: EventTarget | null) => boolean,
) {
  // The latest callbacks, so the listener is added once per opening rather than on every render.
  const latest = useRef({ onPrevious, onNext, ignore });
  latest.current = { onPrevious, onNext, ignore };
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      const { onPrevious, onNext, ignore } = latest.current;
      if (ignore?.(event.target)) return;
      if (event.key === 'ArrowLeft') onPrevious?.();
      if (event.key === 'ArrowRight') onNext?.();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
}

/** A titled list in a viewer's side panel ("Comments (3)"), or the `empty` line when it has none. */
export function PanelSection({
  id,
  title,
  count,
  empty,
  heading: Heading = 'h3',
  className = 'space-y-2',
  footer,
  children,
}: {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  count: number;
  empty: string;
  heading?: 'h2' | 'h3';
  className?: string;
  /** After the list, e.g. the box to add to it. */
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <Heading id={id} className="text-sm font-semibold text-white">
        {title} ({count})
      </Heading>
      {count === 0 ? <p className="text-sm text-slate-400">{empty}</p> : children}
      {footer}
    </section>
  );
}

/** One comment in a viewer's list: who, when (already written out) and what. */
export function PanelComment({ author, when, body }: { author: ReactNode; when: string; body: string }) {
  return (
    <li className="rounded-md bg-white/5 p-2 text-sm text-slate-100">
      <p className="text-xs text-slate-400">
        <span className="font-medium text-slate-200">{author}</span> · {when}
      </p>
      <p className="mt-0.5 whitespace-pre-wrap break-words">{body}</p>
    </li>
  );
}
