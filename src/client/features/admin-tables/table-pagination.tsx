import { ChevronLeft, ChevronRight } from 'lucide-react';
import { adminIconButton } from '../../components/button-styles';
import { lastPageIndex } from './use-table-page';

type TablePaginationProps = {
  page: number;
  count: number;
  disabled: boolean;
  onPage(page: number): void;
};

/** SPEC.md §2: 'Page X of Y (N items)' with previous and next, for a table with rows. */
export function TablePagination({ page, count, disabled, onPage }: TablePaginationProps) {
  const last = lastPageIndex(count);
  return (
    <div className="flex items-center justify-between gap-4 border-t border-sand-200 px-4 py-3 sm:px-6">
      <p className="text-sm text-ink-muted" aria-live="polite">
        Page {page + 1} of {last + 1} ({count} items)
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
