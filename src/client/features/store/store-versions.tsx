import { History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { StoreVersion } from '../../../shared/store/store-api';
import { adminSecondaryButton } from '../../components/admin-styles';
import { formatDate } from '../../lib/format-date';

/**
 * The published versions, newest first: the live one marked, any other restorable after a
 * second click that names it.
 */
export function StoreVersions({
  rows,
  live,
  busy,
  onRestore,
}: {
  rows: StoreVersion[];
  live: number;
  busy: boolean;
  onRestore(version: number): void;
}) {
  const [asked, setAsked] = useState<number | null>(null);
  if (rows.length === 0)
    return <p className="px-5 py-4 text-sm text-ink-muted">No versions yet.</p>;
  return (
    <ul className="divide-y divide-sand-200">
      {rows.map((row) => (
        <li key={row.version} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-3">
          <History aria-hidden="true" className="size-4 text-ink-muted" />
          <div className="min-w-0 flex-1">
            <p className="font-medium text-ink">
              Version {row.version}
              {row.version === live && (
                <span className="ml-2 rounded-full bg-sage-100 px-2 py-0.5 text-xs font-semibold text-sage-800">
                  Live
                </span>
              )}
            </p>
            <p className="text-sm text-ink-muted">
              {formatDate(row.publishedAt, 'short')}
              {row.by ? ` · ${row.by}` : ''}
            </p>
          </div>
          {row.version !== live &&
            (asked === row.version ? (
              <div className="flex items-center gap-2">
                <button
                  type="button"
                  className={adminSecondaryButton}
                  disabled={busy}
                  onClick={() => {
                    setAsked(null);
                    onRestore(row.version);
                  }}
                >
                  Publish version {row.version} again
                </button>
                <button
                  type="button"
                  className="px-2 py-2 text-sm font-medium text-ink-muted hover:text-ink"
                  onClick={() => setAsked(null)}
                >
                  Cancel
                </button>
              </div>
            ) : (
              <button
                type="button"
                className={adminSecondaryButton}
                disabled={busy}
                onClick={() => setAsked(row.version)}
              >
                <RotateCcw aria-hidden="true" className="size-4" />
                Restore
              </button>
            ))}
        </li>
      ))}
    </ul>
  );
}
