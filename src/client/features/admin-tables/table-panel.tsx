import { Download, FileDown, Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { tableExportPath, type RowValues } from '../../../shared/admin/table-api';
import { PAGE_SIZE, type TableConfig, type TableRow } from '../../../shared/admin/table-config';
import { adminPrimaryButton, adminSecondaryButton } from '../../components/admin-styles';
import { Pager } from '../../components/pager';
import { LoadFailed } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import { downloadFile } from '../../lib/download-file';
import { RowFormModal } from './row-form-modal';
import type { TableApi } from './table-api-client';
import { csvFileName, tableToCsv } from './table-csv';
import { TableFilters } from './table-filters';
import { TableGrid, type CellRenderer } from './table-grid';
import { queryKey } from './table-query-url';
import { useTablePage } from './use-table-page';
import { useTableQuery } from './use-table-query';
import { errorMessage } from '../../../shared/error-message';

type Editing = { mode: 'create' } | { mode: 'edit'; row: TableRow } | null;

export const deleteConfirmation = 'Are you sure you want to delete this item?';

/** The one confirm of a bulk delete, naming how many rows go. */
export function bulkDeleteConfirmation(count: number): string {
  return `Delete ${count} ${count === 1 ? 'row' : 'rows'}? You can restore them from Activity.`;
}

/**
 * One configured table (SPEC.md §2 "Table panel", §4, DESIGN.md "Admin tools"): a page of
 * the rows that match its search and filters, sortable by any column, with edit and delete,
 * bulk delete of ticked rows, adding, CSV export of the loaded page or of every match, and
 * paging over the matches.
 */
export function TablePanel({
  config,
  api,
  renderCell,
}: {
  config: TableConfig;
  api: TableApi;
  /** Cells the page draws itself (the Email Sent column's delivery state). */
  renderCell?: CellRenderer;
}) {
  const headingId = useId();
  const table = config.db_table_name;
  const { query, setQuery } = useTableQuery(table);
  const { page, setPage, reload, loading, data, error } = useTablePage(
    api,
    table,
    config.ui_table_name,
    query,
  );
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ReadonlySet<number>>(new Set());
  // Ticks belong to the page and query they were made on.
  const view = `${page}:${queryKey(query)}`;
  const [ticked, setTicked] = useState<{ view: string; ids: ReadonlySet<number> }>({
    view,
    ids: new Set(),
  });
  const selected = ticked.view === view ? ticked.ids : new Set<number>();
  const [bulkDeleting, setBulkDeleting] = useState(false);
  const searching = Boolean(query.q) || Object.keys(query.filter ?? {}).length > 0;
  const sort = { column: query.sort ?? 'id', order: query.order ?? (query.sort ? 'asc' : 'desc') };

  function select(ids: number[], on: boolean) {
    const next = new Set(selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    setTicked({ view, ids: next });
  }

  function sortBy(column: string) {
    const current = sort.column === column ? sort.order : null;
    const isDefault = !query.sort;
    // Ascending, then descending, then back to newest first.
    if (column === 'id' && isDefault) setQuery({ ...query, sort: 'id', order: 'asc' });
    else if (current === null) setQuery({ ...query, sort: column, order: 'asc' });
    else if (current === 'asc') setQuery({ ...query, sort: column, order: 'desc' });
    else setQuery({ ...query, sort: undefined, order: undefined });
  }

  async function removeSelected() {
    const ids = [...selected];
    if (ids.length === 0 || !window.confirm(bulkDeleteConfirmation(ids.length))) return;
    setBulkDeleting(true);
    try {
      await api.bulkDelete(table, ids);
      setTicked({ view, ids: new Set() });
      reload();
    } catch (failure) {
      window.alert(`Error deleting items: ${errorMessage(failure)}`);
    } finally {
      setBulkDeleting(false);
    }
  }

  async function save(values: RowValues) {
    if (editing?.mode === 'edit') {
      await api.updateRow(table, editing.row.id, values);
    } else {
      await api.createRow(table, values);
      // Newest rows come first: show the one just added.
      setPage(0);
    }
    setEditing(null);
    reload();
  }

  async function remove(row: TableRow) {
    if (!window.confirm(deleteConfirmation)) return;
    setDeleting((ids) => new Set(ids).add(row.id));
    try {
      await api.deleteRow(table, row.id);
      reload();
    } catch (failure) {
      window.alert(`Error deleting item: ${errorMessage(failure)}`);
    } finally {
      setDeleting((ids) => {
        const next = new Set(ids);
        next.delete(row.id);
        return next;
      });
    }
  }

  function exportCsv() {
    downloadFile(
      csvFileName(config),
      // A byte-order mark, so spreadsheet programs read the file as UTF-8.
      ['\uFEFF', tableToCsv(config, data?.rows ?? [])],
      'text/csv;charset=utf-8',
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      aria-busy={loading}
      className="min-w-0 overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-3 border-b border-sand-200 px-4 py-4 sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          <h3 id={headingId} className="text-lg font-semibold text-sage-800">
            {config.ui_table_name}
          </h3>
          {loading ? (
            <span role="status" className="inline-flex items-center gap-1.5 text-sm text-ink-muted">
              <Spinner />
              <span className="sr-only">Loading {config.ui_table_name}…</span>
            </span>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <a
            // The server answers as an attachment named after the table: the page stays.
            href={tableExportPath(table, query)}
            className={adminSecondaryButton}
          >
            <FileDown aria-hidden="true" className="size-4" />
            Export all
          </a>
          <button
            type="button"
            onClick={exportCsv}
            disabled={!data}
            className={adminSecondaryButton}
          >
            <Download aria-hidden="true" className="size-4" />
            Export CSV
          </button>
          <button
            type="button"
            onClick={() => setEditing({ mode: 'create' })}
            className={adminPrimaryButton}
          >
            <Plus aria-hidden="true" className="size-4" />
            Add New
          </button>
        </div>
      </div>

      <TableFilters config={config} query={query} onChange={setQuery} />
      {selected.size > 0 ? (
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-sand-200 bg-sage-50 px-4 py-2.5 text-sm sm:px-6">
          <p className="font-medium text-sage-800">
            {selected.size} {selected.size === 1 ? 'row' : 'rows'} selected
          </p>
          <div className="flex items-center gap-2">
            <button
              type="button"
              onClick={() => setTicked({ view, ids: new Set() })}
              className="rounded-lg px-2.5 py-1.5 font-medium text-sage-800 hover:bg-sand-100"
            >
              Clear selection
            </button>
            <button
              type="button"
              disabled={bulkDeleting}
              onClick={() => void removeSelected()}
              className="inline-flex items-center gap-1.5 rounded-lg bg-red-700 px-3 py-1.5 font-semibold text-white shadow-sm hover:bg-red-800 disabled:opacity-60"
            >
              <Trash2 aria-hidden="true" className="size-4" />
              Delete selected
            </button>
          </div>
        </div>
      ) : null}
      {searching && data && !error ? (
        <p role="status" className="px-4 pt-3 text-sm text-ink-muted sm:px-6">
          {data.count === 1 ? '1 matching row' : `${data.count} matching rows`}
        </p>
      ) : null}

      {error ? (
        <LoadFailed onRetry={reload}>
          Failed to fetch data for {config.ui_table_name}: {error}
        </LoadFailed>
      ) : data ? (
        <div className={loading ? 'opacity-60 transition-opacity' : undefined}>
          <TableGrid
            config={config}
            rows={data.rows}
            deleting={deleting}
            onEdit={(row) => setEditing({ mode: 'edit', row })}
            onDelete={(row) => void remove(row)}
            sort={sort}
            onSort={sortBy}
            selected={selected}
            onSelect={select}
            emptyText={searching ? 'No rows match this search.' : undefined}
            renderCell={renderCell}
          />
          {data.count > 0 ? (
            <Pager
              page={page}
              count={data.count}
              pageSize={PAGE_SIZE}
              unit="items"
              disabled={loading}
              onPage={setPage}
            />
          ) : null}
        </div>
      ) : (
        <div className="flex h-32 items-center justify-center text-ink-muted">
          <Spinner className="size-6 text-sage-600" />
        </div>
      )}

      {editing ? (
        <RowFormModal
          config={config}
          row={editing.mode === 'edit' ? editing.row : undefined}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}
