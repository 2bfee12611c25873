import { ChevronLeft, ChevronRight } from 'lucide-react';
import { adminIconButton } from './admin-styles';

/** The index of the last page for `count` entries (0 when there are none). */
export function lastPageIndex(count: number, pageSize: number): number {
  return Math.max(0, Math.ceil(count / pageSize) - 1);
}

type PagerProps = {
  page: number;
  count: number;
  pageSize: number;
  /** What is counted, after the number: 'items', 'entries'. */
  unit: string;
  disabled: boolean;
  onPage(page: number): void;
};

/** The admin lists' footer (SPEC.md §2): 'Page X of Y (N items)' with previous and next. */
export function Pager({ page, count, pageSize, unit, disabled, onPage }: PagerProps) {
  const last = lastPageIndex(count, pageSize);
  return (
    <div className="flex items-center justify-between gap-4 border-t border-sand-200 px-4 py-3 sm:px-6">
      <p className="text-sm text-ink-muted" aria-live="polite">
        Page {page + 1} of {last + 1} ({count} {unit})
      </p>
      <div className="flex items-center gap-1">
        <button
          type="button"
          aria-label="Previous page"
          disabled={disabled || page <= 0}
          onClick={() => onPage(page - 1)}
          className={adminIconButton}
        >
          <ChevronLeft aria-hidden="true" className="size-5" />
        </button>
        <button
          type="button"
          aria-label="Next page"
          disabled={disabled || page >= last}
          onClick={() => onPage(page + 1)}
          className={adminIconButton}
        >
          <ChevronRight aria-hidden="true" className="size-5" />
        </button>
      </div>
    </div>
  );
}
