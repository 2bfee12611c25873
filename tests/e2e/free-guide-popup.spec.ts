// The scroll-triggered free-guide popup against the built server and an SMTP sink.
import type { Page } from '@playwright/test';
import { expect, OWNER_EMAIL, recordedAsSent, test, visitorEmail } from './forms-fixtures';

const GUIDE_URL = '/downloads/free-mindfulness-guide.pdf';

async function scrollTo(page: Page, fraction: number) {
  await page.evaluate((share) => {
    const scrollable = document.documentElement.scrollHeight - window.innerHeight;
    window.scrollTo(0, Math.ceil(scrollable * share));
  }, fraction);
}

async function openPopup(page: Page) {
  await page.goto('/');
  await scrollTo(page, 0.5);
  const dialog = page.getByRole('dialog', { name: 'Free Mindfulness Guide' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('opens past 40% once per session, as an accessible dialog that Escape closes', async ({
  page,
  analytics,
}) => {
  await page.goto('/');
  const orderName = page.getByRole('form', { name: 'Order form' }).getByLabel('Full Name *');
  await orderName.focus();
  await scrollTo(page, 0.3);
  await page.waitForTimeout(300);
  const dialog = page.getByRole('dialog', { name: 'Free Mindfulness Guide' });
  await expect(dialog).toHaveCount(0);

  await scrollTo(page, 0.45);
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(dialog).toBeFocused();
  await expect(dialog.getByRole('img')).toHaveCount(0); // the cover is decorative (alt="")
  await expect(dialog.locator('img')).toHaveAttribute('width', '80');
  expect(await page.evaluate(() => sessionStorage.getItem('freeGuidePopupShown'))).toBe('true');

  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByLabel(/^Also send me occasional emails from /)).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(orderName).toBeFocused();
  expect(analytics.filter((line) => line.includes('popup_'))).toEqual([
    '[analytics] event popup_shown {"type":"free_product_gift"}',
    '[analytics] event popup_closed {"type":"free_product_gift"}',
  ]);

  // Closed for the page's life, and not again in this session.
  await scrollTo(page, 0);
  await scrollTo(page, 1);
  await page.waitForTimeout(300);
  await expect(dialog).toHaveCount(0);
  await page.reload();
  await scrollTo(page, 1);
  await page.waitForTimeout(300);
  await expect(dialog).toHaveCount(0);
});

test('request the guide: link, owner email, stored row, then duplicate and a different email', async ({
  page,
  smtpSink,
  stored,
  analytics,
}) => {
  const dialog = await openPopup(page);
  const submit = dialog.getByRole('button', { name: 'Get Your Free Guide' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Your Name *').fill('Ada <i>L</i>');
  await dialog.getByLabel('Your Email *').fill('ada@nowhere');
  await submit.click();
  await expect(dialog.getByRole('alert')).toHaveText('Please enter a valid email address');

  const email = visitorEmail('guide');
  await dialog.getByLabel('Your Email *').fill(email);
  await submit.click();
  await expect(dialog.getByText('Your guide is ready!')).toBeVisible();
  const link = dialog.getByRole('link', { name: 'Download Your Free Guide' });
  await expect(link).toHaveAttribute('href', GUIDE_URL);
  await expect(dialog.getByText(/error sending the notification email/)).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await download.close();
  expect(analytics.filter((line) => line.includes(' free_product_'))).toEqual([
    '[analytics] event free_product_form_submit_attempt {}',
    '[analytics] event free_product_form_submit_attempt {}',
    '[analytics] event free_product_form_submit_success {}',
    '[analytics] event free_product_download_clicked {}',
  ]);

  const mail = await smtpSink.waitFor((m) => m.headers['reply-to'] === email);
  expect(mail.envelopeTo).toEqual([OWNER_EMAIL]);
  expect(mail.subject).toBe('[Soul Reset Bundle] NEW FREE GUIDE REQUEST');
  expect(mail.html).toContain('Ada &lt;i&gt;L&lt;/i&gt;');
  expect(mail.html).toContain('Requested at');
  await recordedAsSent(stored, 'free_product_gift_submissions', email);
  const rows = await stored.query(
    'select name, email_sent from free_product_gift_submissions where email = $1',
    [email],
  );
  expect(rows).toEqual([{ name: 'Ada <i>L</i>', email_sent: true }]);

  await dialog.getByRole('button', { name: 'Request with different email' }).click();
  await expect(dialog.getByLabel('Your Name *')).toHaveValue('');
  await dialog.getByLabel('Your Name *').fill('Ada');
  await dialog.getByLabel('Your Email *').fill(email);
  await submit.click();
  await expect(dialog.getByText("You've already requested this guide!")).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Download Your Free Guide' })).toHaveAttribute(
    'href',
    GUIDE_URL,
  );

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});

test('a refused notification email still gives the guide, and says the email failed', async ({
  page,
  smtpSink,
  stored,
}) => {
  const dialog = await openPopup(page);
  const email = visitorEmail('guide-failing');
  await dialog.getByLabel('Your Name *').fill('Ada');
  await dialog.getByLabel('Your Email *').fill(email);
  smtpSink.rejectAll(true);
  try {
    await dialog.getByRole('button', { name: 'Get Your Free Guide' }).click();
    await expect(dialog.getByText('Your guide is ready!')).toBeVisible();
  } finally {
    smtpSink.rejectAll(false);
  }
  await expect(
    dialog.getByText(
      'Your request was received, but there was an error sending the notification email',
    ),
  ).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Download Your Free Guide' })).toBeVisible();
  const rows = await stored.query(
    'select email_sent, email_sent_at from free_product_gift_submissions where email = $1',
    [email],
  );
  expect(rows).toEqual([{ email_sent: false, email_sent_at: null }]);
});
