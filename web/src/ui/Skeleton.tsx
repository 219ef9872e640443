export function Skeleton({ className = '' }: { className?: string }) {
  return (
    <div
      aria-hidden="true"
      data-testid="skeleton"
      className={`animate-pulse rounded-md bg-slate-200 dark:bg-slate-800 ${className}`}
    />
  );
}

/** Placeholders while a page or list loads: one Skeleton a class in `rows`, in a busy `className` box. */
export function SkeletonStack({ rows, className = 'space-y-6' }: { rows: readonly string[]; className?: string }) {
  return (
    <div className={className} aria-busy="true">
      {[...rows.entries()].map(([row, rowClassName]) => (
        <Skeleton key={row} className={rowClassName} />
      ))}
    </div>
  );
}
