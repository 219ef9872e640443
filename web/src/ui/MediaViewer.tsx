import type { ReactNode } from 'react';

// The parts the dark media viewers share: the gallery's lightbox and the File Manager's preview.

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-400">{label}</dt>
      <dd className="text-sm text-slate-100">{children}</dd>
    </div>
  );
}

/** The previous/next arrow over the picture. */
export function NavButton({
  side,
  label,
  chevron,
  disabled,
  onClick,
}: {
  side: string;
  label: string;
  chevron: string;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`absolute top-1/2 -translate-y-1/2 rounded-full bg-black/50 p-2 text-white hover:bg-black/70 focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-30 ${side}`}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
    >
      <svg viewBox="0 0 20 20" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d={chevron} />
      </svg>
    </button>
  );
}
