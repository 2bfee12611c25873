import { sql, type Kysely } from 'kysely';
import { isBlankRichText } from '../../../src/shared/admin/row-validation';
import type { TableConfig } from '../../../src/shared/admin/table-config';
import { fieldLimits } from '../../../src/shared/forms/form-fields';
import type { Database } from '../../../src/server/db/schema';

export type RowFindings = { invalid: number; rows: number; first: string | null };

type SubmissionRow = { id: number; name: string; email: string; message?: string };

// The shape the form schemas promise, written out again so that the check does not trust them.
// eslint-disable-next-line no-control-regex
const lineControls = /[\u0000-\u001f\u007f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex
const textControls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function submissionProblem(row: SubmissionRow): string | null {
  const { name, email, message } = row;
  if (name.trim() !== name || name === '') return 'name is empty or untrimmed';
  if (name.length > fieldLimits.name) return 'name is too long';
  if (lineControls.test(name)) return 'name has a control character';
  if (email.trim() !== email || !emailShape.test(email)) return 'email is not an address';
  if (email.length > fieldLimits.email || lineControls.test(email)) return 'email is too long';
  if (message !== undefined) {
    if (message.length > fieldLimits.message) return 'message is too long';
    if (textControls.test(message)) return 'message has a control character';
  }
  return null;
}

/** Rows of a visitor-form table that the form's schema would not have produced. */
export async function invalidSubmissionRows(
  db: Kysely<Database>,
  table: string,
): Promise<RowFindings> {
  const { rows } = await sql<SubmissionRow>`select * from ${sql.table(table)}`.execute(db);
  const findings: RowFindings = { invalid: 0, rows: rows.length, first: null };
  for (const row of rows) {
    const problem = submissionProblem(row);
    if (!problem) continue;
    findings.invalid++;
    findings.first ??= `${table} row ${row.id}: ${problem}: ${JSON.stringify(row).slice(0, 300)}`;
  }
  return findings;
}

const scriptTag = /<(?:script|style|object|embed|svg|math)\b/i;
const eventAttribute = /<[^>]*\son[a-z]+\s*=/i;
const scriptUrl = /<[^>]*\s(?:href|src)\s*=\s*["']?\s*(?:javascript|vbscript|data:text)/i;

/**
 * Rows of the admin's tables that a save should never leave: a required field empty, NUL in
 * text, or rich text that can run script.
 */
export async function invalidAdminRows(
  db: Kysely<Database>,
  tables: readonly TableConfig[],
): Promise<RowFindings> {
  const findings: RowFindings = { invalid: 0, rows: 0, first: null };
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`
      select * from ${sql.table(table.db_table_name)}`.execute(db);
    findings.rows += rows.length;
    for (const row of rows) {
      let problem: string | null = null;
      for (const field of table.field_list) {
        const value = row[field.db_name];
        if (typeof value !== 'string') continue;
        if (value.includes('\u0000')) problem = `${field.db_name} has NUL`;
        else if (field.required && value.trim() === '') problem = `${field.db_name} is empty`;
        else if (field.type === 'rich_text') {
          if (field.required && isBlankRichText(value)) problem = `${field.db_name} is blank`;
          if (scriptTag.test(value) || eventAttribute.test(value) || scriptUrl.test(value)) {
            problem = `${field.db_name} can run script`;
          }
        }
        if (problem) break;
      }
      if (!problem) continue;
      findings.invalid++;
      findings.first ??= `${table.db_table_name} row ${String(row.id)}: ${problem}: ${JSON.stringify(row).slice(0, 300)}`;
    }
  }
  return findings;
}
