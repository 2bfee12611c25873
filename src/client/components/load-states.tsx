import { RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Spinner } from './spinner';

/** An admin list that could not be fetched: what failed, and a way to fetch it again. */
export function LoadFailed({
  children,
  onRetry,
  className = 'm-4 rounded-xl sm:m-6',
}: {
  children: ReactNode;
  onRetry: () => void;
  /** Placement and corners: inside a panel by default. */
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={`flex flex-wrap items-center justify-between gap-3 border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 ${className}`}
    >
      <p>{children}</p>
      <button
        type="button"
        onClick={onRetry}
        className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1 font-semibold text-red-800 hover:bg-red-100"
      >
        <RotateCw aria-hidden="true" className="size-4" />
        Try again
      </button>
    </div>
  );
}

/** A panel's first fetch, before there is anything to show. */
export function PanelLoading({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="flex h-32 items-center justify-center gap-3 text-ink-muted">
      <Spinner className="size-6 text-sage-600" />
      {children}
    </div>
  );
}
