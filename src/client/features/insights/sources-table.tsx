import { useState } from 'react';
import { ArrowDown, ArrowUp, Download } from 'lucide-react';
import type { SourceRow } from '../../../shared/insights/insights-api';
import { adminSecondaryButton } from '../../components/admin-styles';
import { downloadFile } from '../../lib/download-file';
import { formatAmount } from '../../lib/format-amount';
import { formatCount, formatShare } from './insights-summary';
import {
  channelLabels,
  columnLabels,
  groupName,
  groupRows,
  groupsToCsv,
  sortColumns,
  sortGroups,
  type GroupKind,
  type Sort,
  type SortColumn,
} from './sources-summary';

const cell = 'px-2 py-1.5 sm:px-3';

type SourcesTableProps = {
  kind: GroupKind;
  rows: SourceRow[];
  currency: string;
  range: { from: string; to: string };
};

/**
 * The Sources or Campaigns panel: one line per source (or campaign) with its visitors, guide
 * requests, checkout clicks, purchases, revenue and conversion; each heading sorts, and the
 * lines download as CSV.
 */
export function SourcesTable({ kind, rows, currency, range }: SourcesTableProps) {
  const [sort, setSort] = useState<Sort>({ column: 'visitors', descending: true });
  const groups = sortGroups(groupRows(rows, kind), sort, kind);
  const title = kind === 'sources' ? 'Sources' : 'Campaigns';

  if (groups.length === 0) {
    return (
      <p role="status" className="text-sm text-ink-muted">
        {kind === 'sources'
          ? 'No source in this range yet.'
          : 'No campaign in this range: links tagged with utm_campaign show here.'}
      </p>
    );
  }

  function sortBy(column: SortColumn) {
    setSort((last) =>
      last.column === column
        ? { column, descending: !last.descending }
        : { column, descending: column !== 'name' && column !== 'channel' },
    );
  }

  return (
    <div>
      <div
        role="group"
        aria-label={`${title} table`}
        tabIndex={0}
        className="max-h-96 overflow-auto rounded-lg border border-sand-200 focus-visible:outline-2 focus-visible:outline-sage-600"
      >
        <table className="w-full border-collapse text-left text-sm tabular-nums">
          <caption className="sr-only">
            {title}: visitors, guide requests, checkout clicks, purchases, revenue and conversion
          </caption>
          <thead className="sticky top-0 bg-sand-50">
            <tr>
              {sortColumns.map((column) => {
                const active = sort.column === column;
                const label =
                  column === 'name' && kind === 'campaigns' ? 'Campaign' : columnLabels[column];
                return (
                  <th
                    key={column}
                    scope="col"
                    aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
                    className={`${cell} text-xs font-semibold text-ink-muted ${column === 'name' || column === 'channel' ? '' : 'text-right'}`}
                  >
                    <button
                      type="button"
                      onClick={() => sortBy(column)}
                      className="inline-flex items-center gap-1 rounded hover:text-sage-800 focus-visible:outline-2 focus-visible:outline-sage-600"
                    >
                      {label}
                      {active ? (
                        sort.descending ? (
                          <ArrowDown aria-hidden="true" className="size-3" />
                        ) : (
                          <ArrowUp aria-hidden="true" className="size-3" />
                        )
                      ) : null}
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-sand-200">
            {groups.map((group) => (
              <tr key={group.key}>
                <th scope="row" className={`${cell} max-w-56 font-normal break-words`}>
                  {groupName(group, kind)}
                </th>
                <td className={cell}>{channelLabels[group.channel]}</td>
                <td className={`${cell} text-right`}>{formatCount(group.visitors)}</td>
                <td className={`${cell} text-right`}>{formatCount(group.guideRequests)}</td>
                <td className={`${cell} text-right`}>{formatCount(group.checkoutClicks)}</td>
                <td className={`${cell} text-right`}>{formatCount(group.purchases)}</td>
                <td className={`${cell} text-right whitespace-nowrap`}>
                  {formatAmount(group.revenue, currency)}
                </td>
                <td className={`${cell} text-right`}>{formatShare(group.conversion)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button
        type="button"
        className={`${adminSecondaryButton} mt-3`}
        onClick={() =>
          downloadFile(
            `${title}_${range.from}_${range.to}.csv`,
            [groupsToCsv(groups, kind, currency)],
            'text/csv;charset=utf-8',
          )
        }
      >
        <Download aria-hidden="true" className="size-4" />
        Download {title.toLowerCase()} as CSV
      </button>
    </div>
  );
}
