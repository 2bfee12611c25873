import * as z from 'zod/mini';

/**
 * One admin table configuration (SPEC.md §3 "Table configuration"): the JSON files in
 * `src/shared/table-configurations/` are bundled into the admin page and are the server's
 * allowlist of tables and columns.
 */

/** Where the configurations live, as the admin page names it when there are none. */
export const TABLE_CONFIGURATIONS_FOLDER = 'src/shared/table-configurations';

/** Field types SPEC.md names; any other type behaves as plain text. */
export const knownFieldTypes = [
  'id',
  'number',
  'timestamp',
  'checkbox',
  'rich_text',
  'text',
  'web_url',
  'media_url',
  'file_url',
  'address',
] as const;

export type KnownFieldType = (typeof knownFieldTypes)[number];

// SQL identifiers: configurations name tables and columns, and only these shapes are accepted.
const identifier = z.string().check(z.regex(/^[a-z_][a-z0-9_]{0,62}$/));

export const fieldConfigSchema = z.object({
  db_name: identifier,
  ui_name: z.string().check(z.trim(), z.minLength(1)),
  type: z.string().check(z.minLength(1)),
  required: z.boolean(),
});

export const tableConfigSchema = z.object({
  db_table_name: identifier,
  ui_table_name: z.string().check(z.trim(), z.minLength(1)),
  field_list: z.array(fieldConfigSchema).check(z.minLength(1)),
});

export type FieldConfig = z.infer<typeof fieldConfigSchema>;
export type TableConfig = z.infer<typeof tableConfigSchema>;

/** Rows per admin page (SPEC.md §9). */
export const PAGE_SIZE = 10;

/** A stored value as the admin API carries it: timestamps are ISO 8601 strings. */
export type CellValue = string | number | boolean | null;
export type TableRow = Record<string, CellValue> & { id: number };

/** Fields the form modal shows and a save may carry: all but id-type, created_at, updated_at. */
export function isEditableField(field: FieldConfig): boolean {
  return field.type !== 'id' && field.db_name !== 'created_at' && field.db_name !== 'updated_at';
}

/** Fields the grid shows: all but rich text. */
export function isGridField(field: FieldConfig): boolean {
  return field.type !== 'rich_text';
}

/** Types shown and edited as plain text (SPEC.md §3: the last five and any unknown type). */
export function isTextLike(type: string): boolean {
  return !['id', 'number', 'timestamp', 'checkbox', 'rich_text'].includes(type);
}

/** SPEC.md §5 "Admin save" and §8 "Admin required field". */
export function requiredFieldMessage(field: FieldConfig): string {
  return `Field "${field.ui_name}" is required.`;
}
