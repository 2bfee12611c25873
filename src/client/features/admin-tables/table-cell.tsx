import { isTextLike, type CellValue, type FieldConfig } from '../../../shared/admin/table-config';

import { formatDate } from '../../lib/format-date';

function isEmpty(value: CellValue | undefined): value is null | undefined | '' {
  return value === null || value === undefined || value === '';
}

/** SPEC.md §2 "Table panel", cell rendering: the text a grid cell shows for a value. */
export function cellText(field: FieldConfig, value: CellValue | undefined): string {
  if (isEmpty(value)) return 'N/A';
  if (field.type === 'checkbox') return value ? 'Yes' : 'No';
  if (field.type === 'timestamp') return formatDate(value as string | number);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** One grid cell: text-like values are clamped to two lines, with the full text on hover. */
export function TableCell({ field, value }: { field: FieldConfig; value: CellValue | undefined }) {
  const text = cellText(field, value);
  if (isEmpty(value)) {
    return <td className="px-4 py-3 whitespace-nowrap text-ink-muted italic">{text}</td>;
  }
  if (field.type === 'checkbox') {
    return (
      <td className="px-4 py-3 whitespace-nowrap">
        <span
          className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            value ? 'bg-sage-100 text-sage-800' : 'bg-sand-200 text-ink-muted'
          }`}
        >
          {text}
        </span>
      </td>
    );
  }
  if (isTextLike(field.type)) {
    return (
      <td className="px-4 py-3">
        <span title={text} className="line-clamp-2 max-w-xs break-words">
          {text}
        </span>
      </td>
    );
  }
  return <td className="px-4 py-3 whitespace-nowrap tabular-nums">{text}</td>;
}
