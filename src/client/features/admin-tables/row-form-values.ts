import type { RowValues } from '../../../shared/admin/table-api';
import type { CellValue, FieldConfig, TableRow } from '../../../shared/admin/table-config';
import { fromLocalInput, toLocalInput } from '../../lib/local-date-time';
import { isEmptyRichText } from './rich-text-plain';

/** What the form's inputs hold: text for every input, a boolean for a tick box. */
export type FormValues = Record<string, string | boolean>;

function asText(value: CellValue | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** SPEC.md §4: blanks (false for tick boxes) when adding, the row's values when editing. */
export function initialFormValues(fields: FieldConfig[], row?: TableRow): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = row?.[field.db_name];
    if (field.type === 'checkbox') values[field.db_name] = value === true;
    else if (field.type === 'timestamp') values[field.db_name] = toLocalInput(asText(value));
    else values[field.db_name] = asText(value);
  }
  return values;
}

function isBlank(field: FieldConfig, value: string | boolean | undefined): boolean {
  if (typeof value !== 'string') return value === undefined;
  return field.type === 'rich_text' ? isEmptyRichText(value) : value.trim() === '';
}

/** SPEC.md §5 "Admin save": the first required field left empty (tick boxes never are). */
export function firstMissingField(
  fields: FieldConfig[],
  values: FormValues,
): FieldConfig | undefined {
  return fields.find(
    (field) =>
      field.required &&
      field.type !== 'id' &&
      field.type !== 'checkbox' &&
      isBlank(field, values[field.db_name]),
  );
}

/**
 * The body of a save (see shared/admin/table-api.ts): booleans, numbers, UTC ISO timestamps,
 * null for an empty value. A timestamp the admin left as shown keeps its stored value, so an
 * unrelated edit neither drops its seconds nor shifts a time from the hour repeated when the
 * clocks go back.
 */
export function toRowValues(fields: FieldConfig[], values: FormValues, row?: TableRow): RowValues {
  const body: RowValues = {};
  for (const field of fields) {
    const name = field.db_name;
    const value = values[name];
    if (field.type === 'checkbox') {
      body[name] = value === true;
    } else if (typeof value !== 'string' || isBlank(field, value)) {
      body[name] = null;
    } else if (field.type === 'number') {
      const number = Number(value);
      body[name] = Number.isFinite(number) ? number : value;
    } else if (field.type === 'timestamp') {
      const stored = row?.[name];
      body[name] =
        typeof stored === 'string' && value === toLocalInput(stored)
          ? stored
          : (fromLocalInput(value) ?? value);
    } else {
      body[name] = value;
    }
  }
  return body;
}
