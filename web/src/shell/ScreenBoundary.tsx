import { Component, type ReactNode } from 'react';
import { isUnauthorizedError } from '../lib/unauthorized.ts';
import { Button } from '../ui/Button.tsx';

interface State {
  error: Error | null;
}

/** Catches a screen's failed query; a 401 shows nothing because the redirect to sign-in is on its way. */
export class ScreenBoundary extends Component<
  { children: ReactNode; resetKey?: string; onRetry?: () => unknown },
  State
> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey?: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (isUnauthorizedError(error)) return null;
    return (
      <div role="alert" className="mx-auto max-w-md py-16 text-center">
        <h2 className="text-lg font-semibold text-slate-900 dark:text-slate-100">Something went wrong</h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{error.message}</p>
        <Button
          className="mt-6"
          onClick={async () => {
            // The screen's data comes afresh first; shown again before that, it would fail again.
            await this.props.onRetry?.();
            this.setState({ error: null });
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
}

/**
 * For the shell's small live pieces (bell, storage card, theme): if their data fails to load,
 * they show `fallback` instead of taking the whole app down with them.
 */
export class QuietBoundary extends Component<{ children: ReactNode; fallback?: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    return this.state.error ? (this.props.fallback ?? null) : this.props.children;
  }
}
