import { formatMoney } from '../../shared/money';
import { formatDate, page, table, textBody, type Row } from '../mail/email-layout';
import { escapeHtml } from '../mail/escape-html';
import type { Notification } from '../forms/notification-emails';

/** An amount Stripe reported, as people write it: "$27.00", or "unknown" without one. */
export function paidAmount(amount: number | null, currency: string | null): string {
  return amount === null || !currency ? 'unknown' : formatMoney(amount, currency);
}

export type LinkEmailInput = {
  name: string | null;
  /** As the live store content names it. */
  productName: string;
  url: string;
  expiresAt: Date;
  downloadLimit: number;
};

function button(url: string, label: string): string {
  return (
    `<p style="margin:28px 0"><a href="${escapeHtml(url)}" style="background:#4f6b55;color:#ffffff;` +
    `padding:14px 28px;border-radius:999px;text-decoration:none;font-weight:bold;display:inline-block">` +
    `${escapeHtml(label)}</a></p>`
  );
}

function linkTerms(input: LinkEmailInput): string {
  const times = input.downloadLimit === 1 ? 'once' : `${input.downloadLimit} times`;
  return `The link works ${times} until ${formatDate(input.expiresAt, 'en-US')}. If it has run out, ask for a new one on the thank-you page or the page the link opens.`;
}

function greeting(name: string | null): string {
  return name ? `Hi ${name},` : 'Hi,';
}

function buyerEmail(
  input: LinkEmailInput,
  subject: string,
  lines: { intro: string; rows?: Row[] },
): Notification {
  const terms = linkTerms(input);
  const rows = lines.rows ?? [];
  return {
    subject,
    html: page(
      `<p>${escapeHtml(greeting(input.name))}</p><p>${escapeHtml(lines.intro)}</p>` +
        button(input.url, `Download the ${input.productName}`) +
        `<p style="color:#4a5650">${escapeHtml(terms)}</p>` +
        (rows.length ? table(rows) : '') +
        `<p style="color:#4a5650;font-size:13px">If the button does not work, copy this address into your browser: ${escapeHtml(input.url)}</p>`,
    ),
    text: [
      greeting(input.name),
      '',
      lines.intro,
      '',
      `Download: ${input.url}`,
      '',
      terms,
      ...(rows.length ? ['', ...rows.map(([label, value]) => `${label}: ${value}`)] : []),
    ].join('\n'),
  };
}

/** The buyer's receipt, with the first download link; its subject and opening are the owner's. */
export function receiptEmail(
  input: LinkEmailInput & {
    amount: number | null;
    currency: string | null;
    paidAt: Date;
    subject: string;
    intro: string;
  },
): Notification {
  return buyerEmail(input, input.subject, {
    intro: input.intro,
    rows: [
      ['Product', input.productName],
      ['Paid', paidAmount(input.amount, input.currency)],
      ['Date', formatDate(input.paidAt, 'en-US')],
    ],
  });
}

/** A fresh link for a buyer who asked for one (or whom the owner sent one). */
export function newLinkEmail(input: LinkEmailInput): Notification {
  return buyerEmail(input, `Your new download link for the ${input.productName}`, {
    intro: `Here is a new download link for your ${input.productName}. Links sent before keep working until they run out.`,
  });
}

export type OrderSummary = {
  /** As the live store content names it: the owner's emails start with it. */
  productName: string;
  id: number;
  sessionId: string;
  email: string;
  name: string | null;
  amount: number | null;
  currency: string | null;
};

function orderRows(order: OrderSummary): Row[] {
  return [
    ['Order', `#${order.id}`],
    ['Buyer', order.name ? `${order.name} <${order.email}>` : order.email || 'unknown'],
    ['Amount', paidAmount(order.amount, order.currency)],
    ['Stripe session', order.sessionId],
  ];
}

function ownerEmail(
  order: OrderSummary,
  subject: string,
  heading: string,
  rows: Row[],
  footer: string,
): Notification {
  return {
    subject: `[${order.productName}] ${subject}`,
    html: page(
      `<h2>${escapeHtml(heading)}</h2>${table(rows)}<p style="color:#4a5650">${escapeHtml(footer)}</p>`,
    ),
    text: textBody(heading, rows, footer),
  };
}

/** The owner's note of each paid order. */
export function paidOrderEmail(order: OrderSummary): Notification {
  return ownerEmail(
    order,
    `New order ${paidAmount(order.amount, order.currency)}`,
    'New paid order',
    orderRows(order),
    'The buyer has been sent a receipt with a download link.',
  );
}

/** A payment that does not match the product: nothing was sent to the buyer. */
export function reviewOrderEmail(order: OrderSummary, reason: string): Notification {
  return ownerEmail(
    order,
    'Payment held for review',
    'A payment is held for review',
    [...orderRows(order), ['Why', reason]],
    'Nothing was sent to the buyer. Check the payment in Stripe, then send the link from the admin Orders page or refund it.',
  );
}

/** A dispute (chargeback) closed the order's downloads; the owner has to answer it in Stripe. */
export function disputedOrderEmail(order: OrderSummary): Notification {
  return ownerEmail(
    order,
    'Payment disputed',
    'A buyer disputed a payment',
    orderRows(order),
    "The order's download links are closed. Answer the dispute in your Stripe dashboard.",
  );
}
