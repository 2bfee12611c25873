import { escapeHtml } from './escape-html';

// The plain layout every email of the site shares: a heading and a table of labels and values.

export type Row = [label: string, value: string];

// Building a formatter is far slower than using one: one per locale, made once.
const dateFormats = {
  'en-US': new Intl.DateTimeFormat('en-US', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }),
  'it-IT': new Intl.DateTimeFormat('it-IT', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }),
};

/** Owner-facing times are shown in UTC and say so, whatever the server's time zone. */
export function formatDate(date: Date, locale: keyof typeof dateFormats): string {
  return `${dateFormats[locale].format(date)} UTC`;
}

const cell = 'padding:8px 12px;border:1px solid #d9e2d5;text-align:left;vertical-align:top';

/** Every value is escaped here, and message line breaks survive as <br>. */
export function table(rows: Row[]): string {
  const body = rows
    .map(
      ([label, value]) =>
        `<tr><th style="${cell};background:#f2f6f0;width:30%">${escapeHtml(label)}</th>` +
        `<td style="${cell}">${escapeHtml(value).replace(/\r?\n/g, '<br>')}</td></tr>`,
    )
    .join('');
  return `<table style="border-collapse:collapse;width:100%;max-width:640px">${body}</table>`;
}

/** What page() puts before and after an email's content. */
export const PAGE_START =
  '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2a24">';
export const PAGE_END = '</body></html>';

export function page(content: string): string {
  return `${PAGE_START}${content}${PAGE_END}`;
}

export function textBody(heading: string, rows: Row[], footer?: string): string {
  const lines = rows.map(([label, value]) => `${label}: ${value}`);
  return [heading, '', ...lines, ...(footer ? ['', footer] : [])].join('\n');
}
