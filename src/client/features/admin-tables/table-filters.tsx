import { X } from 'lucide-react';
import { useId, useState } from 'react';
import type { TableFilter, TableQuery } from '../../../shared/admin/table-api';
import { MAX_SEARCH_LENGTH } from '../../../shared/admin/table-api';
import type { TableConfig } from '../../../shared/admin/table-config';
import { adminInput } from '../../components/admin-styles';
import { DateField } from '../../components/date-field';
import { SearchField } from '../../components/search-field';
import { useDebounced } from '../../lib/use-debounced';

type TableFiltersProps = {
  config: TableConfig;
  query: TableQuery;
  onChange(query: TableQuery): void;
};

/** The search box and the filters that fit the table's columns. */
export function TableFilters({ config, query, onChange }: TableFiltersProps) {
  const id = useId();
  const has = (column: string) => config.field_list.some((field) => field.db_name === column);
  const searchable = ['name', 'email', 'message'].filter(has);
  const filter = query.filter ?? {};
  const urlText = query.q ?? '';
  const [text, setText] = useState(urlText);
  const [shown, setShown] = useState(urlText);
  // The address changed (Back, a reload, Clear): the box follows it.
  if (urlText !== shown) {
    setShown(urlText);
    setText(urlText);
  }

  useDebounced(text.trim(), urlText, (wanted) => {
    setShown(wanted);
    onChange({ ...query, q: wanted || undefined });
  });

  function setFilter(column: string, value: TableFilter[string] | undefined) {
    const next: TableFilter = { ...filter };
    if (value === undefined) delete next[column];
    else next[column] = value;
    onChange({ ...query, filter: next });
  }

  const range = (filter.created_at ?? {}) as { from?: string; to?: string };
  function setRange(end: 'from' | 'to', value: string) {
    const next = { ...range, [end]: value || undefined };
    if (!next.from) delete next.from;
    if (!next.to) delete next.to;
    setFilter('created_at', Object.keys(next).length > 0 ? next : undefined);
  }

  const active = Boolean(query.q) || Object.keys(filter).length > 0;

  return (
    <div className="flex flex-wrap items-end gap-x-4 gap-y-3 border-b border-sand-200 bg-sand-50/60 px-4 py-3 sm:px-6">
      {searchable.length > 0 ? (
        <SearchField
          id={`${id}-q`}
          label={`Search ${searchable.join(', ')}`}
          value={text}
          maxLength={MAX_SEARCH_LENGTH}
          onChange={setText}
        />
      ) : null}
      {has('email_sent') ? (
        <label className="flex items-center gap-2 py-2 text-sm text-ink">
          <input
            type="checkbox"
            checked={filter.email_sent === false}
            onChange={(event) => setFilter('email_sent', event.target.checked ? false : undefined)}
            className="size-4 accent-sage-700"
          />
          Email not sent
        </label>
      ) : null}
      {has('purchase_intent') ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-intent`} className="text-xs font-medium text-ink-muted">
            Purchase intent
          </label>
          <select
            id={`${id}-intent`}
            value={filter.purchase_intent === undefined ? '' : String(filter.purchase_intent)}
            onChange={(event) =>
              setFilter(
                'purchase_intent',
                event.target.value === '' ? undefined : event.target.value === 'true',
              )
            }
            className={adminInput}
          >
            <option value="">Any</option>
            <option value="true">Yes</option>
            <option value="false">No</option>
          </select>
        </div>
      ) : null}
      {has('created_at') ? (
        <fieldset className="flex flex-wrap items-end gap-2">
          <legend className="sr-only">Created between (UTC days)</legend>
          <DateField
            id={`${id}-from`}
            label="Created from"
            value={range.from ?? ''}
            onChange={(value) => setRange('from', value)}
          />
          <DateField
            id={`${id}-to`}
            label="to"
            value={range.to ?? ''}
            onChange={(value) => setRange('to', value)}
          />
        </fieldset>
      ) : null}
      {active ? (
        <button
          type="button"
          onClick={() => {
            setText('');
            onChange({ sort: query.sort, order: query.order });
          }}
          className="inline-flex items-center gap-1 rounded-lg px-2 py-2 text-sm font-medium text-sage-800 hover:bg-sand-100"
        >
          <X aria-hidden="true" className="size-4" />
          Clear search and filters
        </button>
      ) : null}
    </div>
  );
}
