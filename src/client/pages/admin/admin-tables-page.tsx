import { useEffect, useState } from 'react';
import { TABLE_CONFIGURATIONS_FOLDER, type TableConfig } from '../../../shared/admin/table-config';
import { Spinner } from '../../components/spinner';
import { tableApi } from '../../features/admin-tables/table-api-client';
import { loadTableConfigurations } from '../../features/admin-tables/load-table-configurations';
import { TablePanel } from '../../features/admin-tables/table-panel';
import type { CellRenderer } from '../../features/admin-tables/table-grid';
import { deliveryApi } from '../../features/mail/delivery-api-client';
import { RecordDeliveryCell } from '../../features/mail/record-delivery-cell';
import { bannerTones } from '../../components/styles';

/** The Email Sent column shows each record's delivery state and a Resend action. */
const deliveryCells =
  (table: string): CellRenderer =>
  (field, row) =>
    field.db_name === 'email_sent' ? (
      <RecordDeliveryCell
        api={deliveryApi}
        table={table}
        recordId={row.id}
        emailSent={row.email_sent === true}
      />
    ) : undefined;

type Configurations =
  { status: 'loading' } | { status: 'failed' } | { status: 'loaded'; configs: TableConfig[] };

export const configurationMessages = {
  loading: 'Loading Configurations...',
  none: `No table configurations found in ${TABLE_CONFIGURATIONS_FOLDER}. Please add at least one JSON configuration file.`,
  failed: 'An error occurred while loading table configurations.',
} as const;

type AdminTablesPageProps = {
  /** Where the configurations come from; the bundled JSON files unless a test says otherwise. */
  loadConfigurations?: () => Promise<TableConfig[]>;
};

/** The admin index (SPEC.md §2 "Admin table page"): one panel per table configuration. */
export function AdminTablesPage({
  loadConfigurations = loadTableConfigurations,
}: AdminTablesPageProps) {
  const [state, setState] = useState<Configurations>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    loadConfigurations().then(
      (configs) => current && setState({ status: 'loaded', configs }),
      (error: unknown) => {
        console.error('Could not load the table configurations', error);
        if (current) setState({ status: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [loadConfigurations]);

  return (
    <section aria-labelledby="admin-tables-heading">
      <div className="mb-6">
        <h2 id="admin-tables-heading" className="text-2xl font-semibold text-sage-800">
          Tables
        </h2>
        <p className="mt-1 text-ink-muted">
          Browse, edit and export every record your visitors have sent.
        </p>
      </div>
      {state.status === 'loading' ? (
        <div
          role="status"
          className="flex items-center justify-center gap-3 rounded-2xl border border-sand-200 bg-white px-6 py-16 text-ink-muted shadow-sm"
        >
          <Spinner className="size-6 text-sage-600" />
          {configurationMessages.loading}
        </div>
      ) : state.status === 'failed' ? (
        <p role="alert" className={`rounded-2xl border px-6 py-4 ${bannerTones.error}`}>
          {configurationMessages.failed}
        </p>
      ) : state.configs.length === 0 ? (
        <p className="rounded-2xl border border-sand-200 bg-white px-6 py-8 text-center text-ink-muted shadow-sm">
          {configurationMessages.none}
        </p>
      ) : (
        <div className="space-y-8">
          {state.configs.map((config) => (
            <TablePanel
              key={config.db_table_name}
              config={config}
              api={tableApi}
              renderCell={deliveryCells(config.db_table_name)}
            />
          ))}
        </div>
      )}
    </section>
  );
}
