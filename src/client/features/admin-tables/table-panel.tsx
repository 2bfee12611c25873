import { Download, Plus, RotateCw } from 'lucide-react';
import { useId, useState } from 'react';
import type { RowValues } from '../../../shared/admin/table-api';
import type { TableConfig, TableRow } from '../../../shared/admin/table-config';
import { adminPrimaryButton, adminSecondaryButton } from '../../components/button-styles';
import { Spinner } from '../../components/spinner';
import { downloadFile } from '../../lib/download-file';
import { RowFormModal } from './row-form-modal';
import type { TableApi } from './table-api-client';
import { csvFileName, tableToCsv } from './table-csv';
import { TableGrid, type CellRenderer } from './table-grid';
import { TablePagination } from './table-pagination';
import { useTablePage } from './use-table-page';

type Editing = { mode: 'create' } | { mode: 'edit'; row: TableRow } | null;

export const deleteConfirmation = 'Are you sure you want to delete this item?';

/**
 * One configured table (SPEC.md §2 "Table panel", §4): a page of its rows with edit and
 * delete, adding, CSV export of the loaded page, and paging.
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
  const { page, setPage, reload, loading, data, error } = useTablePage(
    api,
    table,
    config.ui_table_name,
  );
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ReadonlySet<number>>(new Set());

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
      window.alert(
        `Error deleting item: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
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
        <div className="flex items-center gap-2">
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

      {error ? (
        <div
          role="alert"
          className="m-4 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 sm:m-6"
        >
          <p>
            Failed to fetch data for {config.ui_table_name}: {error}
          </p>
          <button
            type="button"
            onClick={reload}
            className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1 font-semibold text-red-800 hover:bg-red-100"
          >
            <RotateCw aria-hidden="true" className="size-4" />
            Try again
          </button>
        </div>
      ) : data ? (
        <div className={loading ? 'opacity-60 transition-opacity' : undefined}>
          <TableGrid
            config={config}
            rows={data.rows}
            deleting={deleting}
            onEdit={(row) => setEditing({ mode: 'edit', row })}
            onDelete={(row) => void remove(row)}
            renderCell={renderCell}
          />
          {data.count > 0 ? (
            <TablePagination page={page} count={data.count} disabled={loading} onPage={setPage} />
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
