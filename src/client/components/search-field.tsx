import { Search } from 'lucide-react';
import { adminInput } from './admin-styles';

/** An admin list's search box: a label above, the magnifier inside. */
export function SearchField({
  id,
  label,
  value,
  maxLength,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  maxLength: number;
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex min-w-0 flex-[1_1_14rem] flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-ink-muted">
        {label}
      </label>
      <div className="relative">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-muted"
        />
        <input
          id={id}
          type="search"
          value={value}
          maxLength={maxLength}
          onChange={(event) => onChange(event.target.value)}
          placeholder="Search…"
          className={`${adminInput} w-full pl-9`}
        />
      </div>
    </div>
  );
}
