import { escapeHtml } from '../mail/escape-html';
import { formatDate, page, table, textBody, type Row } from '../mail/email-layout';

/** The owner's notification for one submission: subject and both bodies (SPEC.md §7). */
export type Notification = { subject: string; html: string; text: string };

/** When the owner's email is written: the time, and the product as the live content names it. */
export type SubmissionMeta = { submittedAt: Date; productName: string };

export type Submission = SubmissionMeta & { name: string; email: string; message?: string };

/** Order form (purchase intent): Italian body, as the owner reads it. */
export function orderEmail(input: Submission & { purchaseIntent: boolean }): Notification {
  const brand = input.productName;
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
  const brand = input.productName;
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
  const brand = input.productName;
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
  const brand = input.productName;
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
  const brand = input.productName;
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
