import { product } from '../../shared/product';
import { escapeHtml } from '../mail/escape-html';

/** The owner's notification for one submission: subject and both bodies (SPEC.md §7). */
export type Notification = { subject: string; html: string; text: string };

type Row = [label: string, value: string];

const brand = product.name;

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
function formatDate(date: Date, locale: keyof typeof dateFormats): string {
  return `${dateFormats[locale].format(date)} UTC`;
}

const cell = 'padding:8px 12px;border:1px solid #d9e2d5;text-align:left;vertical-align:top';

/** Every value is escaped here, and message line breaks survive as <br>. */
function table(rows: Row[]): string {
  const body = rows
    .map(
      ([label, value]) =>
        `<tr><th style="${cell};background:#f2f6f0;width:30%">${escapeHtml(label)}</th>` +
        `<td style="${cell}">${escapeHtml(value).replace(/\r?\n/g, '<br>')}</td></tr>`,
    )
    .join('');
  return `<table style="border-collapse:collapse;width:100%;max-width:640px">${body}</table>`;
}

function page(content: string): string {
  return (
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2a24">' +
    `${content}</body></html>`
  );
}

function textBody(heading: string, rows: Row[], footer?: string): string {
  const lines = rows.map(([label, value]) => `${label}: ${value}`);
  return [heading, '', ...lines, ...(footer ? ['', footer] : [])].join('\n');
}

export type Submission = { name: string; email: string; message?: string; submittedAt: Date };

/** Order form (purchase intent): Italian body, as the owner reads it. */
export function orderEmail(input: Submission & { purchaseIntent: boolean }): Notification {
  const heading = "Nuova richiesta d'ordine";
  const rows: Row[] = [
    ['Nome', input.name],
    ['Email', input.email],
    ['Messaggio', input.message || 'Nessun messaggio'],
    ["Intenzione d'acquisto", input.purchaseIntent ? 'Sì' : 'No'],
    ['Data', formatDate(input.submittedAt, 'it-IT')],
  ];
  return {
    subject: `[${brand}] NEW ORDER REQUEST`,
    html: page(`<h2>${escapeHtml(heading)} – ${escapeHtml(brand)}</h2>${table(rows)}`),
    text: textBody(`${heading} – ${brand}`, rows),
  };
}

export function contactEmail(input: Submission): Notification {
  const heading = 'New contact message';
  const rows: Row[] = [
    ['Name', input.name],
    ['Email', input.email],
    ['Message', input.message || 'No message provided'],
    ['Sent', formatDate(input.submittedAt, 'en-US')],
  ];
  return {
    subject: `[${brand}] NEW CONTACT MESSAGE`,
    html: page(`<h2>${escapeHtml(heading)}</h2>${table(rows)}`),
    text: textBody(heading, rows),
  };
}

export function refundEmail(input: Submission): Notification {
  const heading = 'New refund request';
  const rows: Row[] = [
    ['Name', input.name],
    ['Email', input.email],
    ['Message', input.message || 'No message provided'],
  ];
  const sent = `Sent on ${formatDate(input.submittedAt, 'en-US')}`;
  return {
    subject: `[${brand}] NEW REFUND REQUEST`,
    html: page(
      `<h2>${escapeHtml(heading)}</h2>${table(rows)}<p style="color:#4a5650">${escapeHtml(sent)}</p>`,
    ),
    text: textBody(heading, rows, sent),
  };
}

export function termsFeedbackEmail(input: Submission): Notification {
  const heading = 'New question about the Terms of Service';
  const rows: Row[] = [
    ['Name', input.name],
    ['Email', input.email],
    ['Message', input.message || 'No message provided'],
  ];
  const footer = `Submitted on ${formatDate(input.submittedAt, 'en-US')}`;
  const header =
    '<div style="background:#345a42;color:#ffffff;padding:16px 20px;font-size:20px;font-weight:bold">' +
    `${escapeHtml(brand)}</div>`;
  return {
    subject: `[${brand}] NEW TERMS OF SERVICE FEEDBACK`,
    html: page(
      `${header}<h2>${escapeHtml(heading)}</h2>${table(rows)}` +
        `<p style="color:#4a5650;font-size:13px">${escapeHtml(footer)}</p>`,
    ),
    text: textBody(`${brand}\n${heading}`, rows, footer),
  };
}

export function freeGuideEmail(input: Submission): Notification {
  const heading = 'New free Mindfulness Guide request';
  const rows: Row[] = [
    ['Name', input.name],
    ['Email', input.email],
    ['Requested at', formatDate(input.submittedAt, 'en-US')],
  ];
  return {
    subject: `[${brand}] NEW FREE GUIDE REQUEST`,
    html: page(`<h2>${escapeHtml(heading)}</h2>${table(rows)}`),
    text: textBody(heading, rows),
  };
}
