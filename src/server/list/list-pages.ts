import { escapeHtml } from '../mail/escape-html';
import { UNSUBSCRIBE_CHOICE_FIELD, type UnsubscribeScope } from '../../shared/list/list-api';

/** The list pages' own small stylesheet (the site's policy allows no inline style). */
export const LIST_STYLESHEET_PATH = '/list/list.css';

export const listStylesheet = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
  background:#f7f4ee;color:#1f2a24;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:16px}
main{width:100%;max-width:32rem;background:#fff;border-radius:24px;padding:32px;
  box-shadow:0 10px 30px rgba(31,42,36,.08)}
h1{margin:0 0 12px;font-size:1.6rem;line-height:1.25;color:#2f4a3a}
p{margin:0 0 16px;color:#3d4a42}
button{display:block;width:100%;border:0;border-radius:999px;padding:14px 24px;font:inherit;
  font-weight:600;background:#3f5e4a;color:#fff;cursor:pointer}
button:hover{background:#2f4a3a}
button:focus-visible,a:focus-visible{outline:3px solid #c58b3a;outline-offset:2px}
a{color:#2f4a3a}
fieldset{border:0;margin:0 0 20px;padding:0}
legend{font-weight:600;margin:0 0 8px;padding:0;color:#1f2a24}
label.choice{display:flex;gap:12px;align-items:flex-start;padding:12px 14px;margin:0 0 8px;
  border:1px solid #d8d2c4;border-radius:14px;cursor:pointer}
label.choice:has(input:checked){border-color:#3f5e4a;background:#f1f5f1}
label.choice input{margin:4px 0 0;width:18px;height:18px;flex:none;accent-color:#3f5e4a}
label.choice span{display:block}
label.choice strong{display:block;color:#1f2a24}
label.choice small{display:block;font-size:.875rem;color:#4f5d54}
.small{font-size:.875rem;color:#4f5d54;margin-top:16px}
`;

function layout(title: string, productName: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<meta name="robots" content="noindex">' +
    '<link rel="icon" type="image/svg+xml" href="/favicon.svg">' +
    `<title>${escapeHtml(title)} · ${escapeHtml(productName)}</title>` +
    `<link rel="stylesheet" href="${LIST_STYLESHEET_PATH}"></head>` +
    `<body><main>${body}<p class="small"><a href="/">${escapeHtml(productName)}</a></p></main></body></html>`
  );
}

/** The confirm link's page: one button; opening it changes nothing (mail scanners fetch links). */
export function confirmPage(productName: string, action: string): string {
  return layout(
    'Confirm your subscription',
    productName,
    `<h1>Confirm your subscription</h1>` +
      `<p>One click and you will get occasional emails from ${escapeHtml(productName)}. ` +
      `You can leave at any time with the link at the end of every email.</p>` +
      `<form method="post" action="${escapeHtml(action)}"><button type="submit">Yes, subscribe me</button></form>`,
  );
}

/** After the confirm button: the same words whether or not the link named anyone. */
export function confirmedPage(productName: string): string {
  return layout(
    'Thank you',
    productName,
    `<h1>Thank you!</h1>` +
      `<p>If this link came from one of our emails, your subscription is confirmed and a ` +
      `welcome email is on its way.</p>`,
  );
}

/** The unsubscribe link's page: one button and the choice of what to stop. */
export function unsubscribePage(productName: string, action: string): string {
  const choice = (value: UnsubscribeScope, title: string, meaning: string, checked: boolean) =>
    `<label class="choice"><input type="radio" name="${UNSUBSCRIBE_CHOICE_FIELD}" ` +
    `value="${value}"${checked ? ' checked' : ''}>` +
    `<span><strong>${title}</strong><small>${meaning}</small></span></label>`;
  return layout(
    'Unsubscribe',
    productName,
    `<h1>Unsubscribe</h1>` +
      `<p>Stop the occasional emails from ${escapeHtml(productName)}.</p>` +
      `<form method="post" action="${escapeHtml(action)}">` +
      `<fieldset><legend>What should still reach you?</legend>` +
      choice(
        'list',
        'Only order emails',
        'No more list emails. Receipts and download links for anything you buy still arrive.',
        true,
      ) +
      choice(
        'everything',
        'Nothing I have not asked for',
        'No list emails, and no more requests to join, even if someone enters this address in ' +
          'our form. Receipts and download links still arrive, because you ask for them when ' +
          'you buy.',
        false,
      ) +
      `</fieldset><button type="submit">Unsubscribe</button></form>`,
  );
}

/** After unsubscribing: the same words whether or not the link named anyone. */
export function unsubscribedPage(productName: string, scope: UnsubscribeScope = 'list'): string {
  const next =
    scope === 'everything'
      ? 'We will not ask this address to join again either. Receipts and download links for ' +
        'anything you buy still arrive. To join again, tick the box for emails at checkout.'
      : 'If you change your mind, ask for the free guide again and tick the box: we will ask ' +
        'you to confirm.';
  return layout(
    'Unsubscribed',
    productName,
    `<h1>You are unsubscribed</h1>` +
      `<p>No more list emails will be sent to this address. ${next}</p>`,
  );
}
