export function Spinner({ className = 'h-6 w-6', label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <svg
        className={`animate-spin text-indigo-600 dark:text-indigo-400 ${className}`}
        viewBox="0 0 24 24"
        aria-hidden="true"
      >
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="4" fill="none" opacity="0.25" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" fill="none" strokeLinecap="round" />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The whole-screen spinner shown while the sign-in check runs. */
export function FullScreenSpinner() {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-3 bg-slate-50 dark:bg-slate-950">
      <Spinner className="h-10 w-10" />
      <p className="text-sm text-slate-600 dark:text-slate-400" aria-hidden="true">
        Loading
      </p>
    </div>
  );
}
