import * as z from 'zod/mini';
import { requiredFieldMessage, type CellValue, type FieldConfig } from './table-config';

/**
 * What a saved value of each field type must be (SPEC.md §5 "Admin save", plus type checks),
 * shared by the form modal and the server. An empty optional value is null.
 */

// With seconds (and any fraction) or, as a date-time-local input gives, minutes only; always
// with Z or ±hh:mm: a time without a zone would be read in a zone the admin did not mean.
const zonedDateTime = z.union([
  z.iso.datetime({ offset: true }),
  z.iso.datetime({ offset: true, precision: -1 }),
]);

const valueSchemas = {
  number: z.nullable(z.number()),
  timestamp: z.nullable(zonedDateTime),
  checkbox: z.boolean(),
  text: z.nullable(z.string()),
};

function kindOf(type: string): keyof typeof valueSchemas {
  if (type === 'number' || type === 'timestamp' || type === 'checkbox') return type;
  return 'text';
}

/** The message for a value of the wrong type, or null when the type is right. */
export function fieldTypeProblem(field: FieldConfig, value: unknown): string | null {
  const kind = kindOf(field.type);
  if (valueSchemas[kind].safeParse(value).success) return null;
  const name = `Field "${field.ui_name}"`;
  switch (kind) {
    case 'number':
      return `${name} must be a number.`;
    case 'timestamp':
      return `${name} must be a date and time with a time zone, like 2025-05-15T09:30:00Z.`;
    case 'checkbox':
      return `${name} must be true or false.`;
    default:
      return `${name} must be text.`;
  }
}

// An embedded image or video with a source counts as content even without any text.
const EMBED_WITH_SOURCE = /<(?:img|iframe)\b[^>]*\ssrc\s*=\s*["']?[^\s"'>]/i;

/** Rich text with no text and no image: what an emptied editor leaves, e.g. `<p><br></p>`. */
export function isBlankRichText(html: string): boolean {
  if (EMBED_WITH_SOURCE.test(html)) return false;
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:nbsp|#160|#xa0);/gi, ' ')
    .replace(/[\u200b\ufeff]/g, '');
  return text.trim() === '';
}

/** Null, missing, blank after trimming, or (rich text) blank HTML. */
export function isEmptyValue(field: FieldConfig, value: CellValue | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'string') return false;
  return field.type === 'rich_text' ? isBlankRichText(value) : value.trim() === '';
}

/** SPEC.md §5: required applies to every type but id and checkbox. */
export function requiredProblem(field: FieldConfig, value: CellValue | undefined): string | null {
  if (!field.required || field.type === 'id' || field.type === 'checkbox') return null;
  return isEmptyValue(field, value) ? requiredFieldMessage(field) : null;
}
