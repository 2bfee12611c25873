import { ArrowDown, ArrowUp, ArrowUpDown, Pencil, Trash2 } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import type { SortOrder } from '../../../shared/admin/table-api';
import {
  isGridField,
  type FieldConfig,
  type TableConfig,
  type TableRow,
} from '../../../shared/admin/table-config';
import { adminIconButton } from '../../components/admin-styles';
import { TableCell } from './table-cell';

type TableGridProps = {
  config: TableConfig;
  rows: TableRow[];
  /** Ids of rows being deleted right now. */
  deleting: ReadonlySet<number>;
  onEdit(row: TableRow): void;
  onDelete(row: TableRow): void;
  /** The column the rows are sorted by, and how (id descending when none is chosen). */
  sort: { column: string; order: SortOrder };
  onSort(column: string): void;
  /** Ids of the rows ticked for a bulk delete. */
  selected: ReadonlySet<number>;
  onSelect(ids: number[], selected: boolean): void;
  /** What the grid says when there are no rows. */
  emptyText?: string;
  /** A cell of the page's own making (a `<td>`) in place of a field's plain one. */
  renderCell?: CellRenderer;
};

/** Returns undefined to keep the field's plain cell. */
export type CellRenderer = (field: FieldConfig, row: TableRow) => ReactNode | undefined;

const headerText = 'text-xs font-semibold tracking-wide whitespace-nowrap text-ink-muted uppercase';

function SortIcon({ order }: { order: SortOrder | null }) {
  const Icon = order === 'asc' ? ArrowUp : order === 'desc' ? ArrowDown : ArrowUpDown;
  return (
    <Icon
      aria-hidden="true"
      className={`size-3.5 ${order ? 'text-sage-700' : 'text-ink-muted opacity-60'}`}
    />
  );
}

/**
 * The rows of one page: Actions first, then every field but rich text. It scrolls sideways
 * inside its panel on narrow screens, with the actions kept in view.
 */
export function TableGrid({
  config,
  rows,
  deleting,
  onEdit,
  onDelete,
  sort,
  onSort,
  selected,
  onSelect,
  emptyText = 'No records yet.',
  renderCell,
}: TableGridProps) {
  const fields = config.field_list.filter(isGridField);
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const someSelected = rows.some((row) => selected.has(row.id));
  return (
    <>
      {/* Focusable so keyboard users can scroll a grid wider than the screen. */}
      <div
        role="group"
        aria-label={`${config.ui_table_name} rows`}
        tabIndex={0}
        className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sage-600"
      >
        <table className="w-max min-w-full border-collapse text-left text-sm text-ink">
          <caption className="sr-only">{config.ui_table_name}</caption>
          <thead className="bg-sand-50">
            <tr className="border-b border-sand-200">
              <th
                scope="col"
                className={`sticky left-0 z-10 bg-sand-50 px-4 py-3 shadow-[inset_-1px_0_0_var(--color-sand-200)] ${headerText}`}
              >
                <span className="flex items-center gap-3">
                  <input
                    type="checkbox"
                    aria-label="Select every row on this page"
                    checked={allSelected}
                    ref={(box) => {
                      if (box) box.indeterminate = someSelected && !allSelected;
                    }}
                    disabled={rows.length === 0}
                    onChange={(event) =>
                      onSelect(
                        rows.map((row) => row.id),
                        event.target.checked,
                      )
                    }
                    className="size-4 accent-sage-700"
                  />
                  Actions
                </span>
              </th>
              {fields.map((field) => {
                const order = sort.column === field.db_name ? sort.order : null;
                return (
                  <th
                    key={field.db_name}
                    scope="col"
                    aria-sort={
                      order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : undefined
                    }
                    className={`px-2 py-1.5 ${headerText}`}
                  >
                    <button
                      type="button"
                      onClick={() => onSort(field.db_name)}
                      className="inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 uppercase hover:bg-sand-100 hover:text-sage-800"
                    >
                      {field.ui_name}
                      <SortIcon order={order} />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-sand-200">
            {rows.map((row) => (
              <tr key={row.id} className="group align-top hover:bg-sage-50">
                <td className="sticky left-0 z-10 bg-white px-2 py-1.5 shadow-[inset_-1px_0_0_var(--color-sand-200)] group-hover:bg-sage-50">
                  <div className="flex items-center gap-0.5">
                    <label className="inline-flex size-9 cursor-pointer items-center justify-center">
                      <input
                        type="checkbox"
                        aria-label={`Select row ${row.id}`}
                        checked={selected.has(row.id)}
                        onChange={(event) => onSelect([row.id], event.target.checked)}
                        className="size-4 accent-sage-700"
                      />
                    </label>
                    <button
                      type="button"
                      aria-label={`Edit row ${row.id}`}
                      title="Edit"
                      onClick={() => onEdit(row)}
                      className={adminIconButton}
                    >
                      <Pencil aria-hidden="true" className="size-4" />
                    </button>
                    <button
                      type="button"
                      aria-label={`Delete row ${row.id}`}
                      title="Delete"
                      disabled={deleting.has(row.id)}
                      onClick={() => onDelete(row)}
                      className={`${adminIconButton} hover:bg-red-50 hover:text-red-700`}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                    </button>
                  </div>
                </td>
                {fields.map((field) => (
                  <Fragment key={field.db_name}>
                    {renderCell?.(field, row) ?? (
                      <TableCell field={field} value={row[field.db_name]} />
                    )}
                  </Fragment>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 ? (
        // Outside the scrolling area, so it stays in view however wide the columns are.
        <p className="px-4 py-10 text-center text-ink-muted">{emptyText}</p>
      ) : null}
    </>
  );
}
