import { fieldTypeProblem, requiredProblem } from '../../../shared/admin/row-validation';
import {
  isEditableField,
  type CellValue,
  type FieldConfig,
  type TableConfig,
} from '../../../shared/admin/table-config';
import { quoteName } from './quote-name';
import { sanitizeRichText } from './sanitize-rich-text';

export type WritableValues = Record<string, CellValue>;

export type RowInput = { ok: true; values: WritableValues } | { ok: false; message: string };

const refuse = (message: string): RowInput => ({ ok: false, message });

function normalised(field: FieldConfig, value: CellValue): CellValue {
  if (field.type === 'number' || field.type === 'timestamp' || field.type === 'checkbox') {
    return value;
  }
  // Text columns are NOT NULL DEFAULT '', and PostgreSQL refuses NUL characters in text.
  const text = ((value as string | null) ?? '').replaceAll('\u0000', '');
  return field.type === 'rich_text' ? sanitizeRichText(text) : text;
}

/**
 * The values a save writes, from a request body: a JSON object whose keys are configured
 * columns. id, created_at and updated_at belong to the server, and a value sent for them is
 * ignored (a form may send back the row it was given). Fields are checked in configuration
 * order and the first problem is the answer. A field left out keeps the database default on
 * create and its stored value on update; a required one left out is refused.
 */
export function readRowValues(table: TableConfig, body: unknown): RowInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuse('The row must be a JSON object of field values.');
  }
  const sent = body as Record<string, unknown>;
  const configured = new Set(table.field_list.map((field) => field.db_name));
  const unknown = Object.keys(sent).find((key) => !configured.has(key));
  if (unknown !== undefined) {
    return refuse(`${table.ui_table_name} has no field ${quoteName(unknown)}.`);
  }

  const values: WritableValues = {};
  for (const field of table.field_list) {
    if (!isEditableField(field)) continue;
    const present = Object.hasOwn(sent, field.db_name);
    let value: CellValue | undefined;
    if (present) {
      const typeProblem = fieldTypeProblem(field, sent[field.db_name]);
      if (typeProblem) return refuse(typeProblem);
      value = normalised(field, sent[field.db_name] as CellValue);
    }
    const missing = requiredProblem(field, value);
    if (missing) return refuse(missing);
    if (value !== undefined) values[field.db_name] = value;
  }
  return { ok: true, values };
}
