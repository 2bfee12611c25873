// The four embedded visitor forms against the built server: banners, stored rows, the owner's
// email through a real SMTP sink, duplicates, Reset, and failures that still show success.
import {
  allowConsoleErrors,
  expect,
  openForm,
  OWNER_EMAIL,
  recordedAsSent,
  test,
  visitorEmail,
} from './forms-fixtures';

const HOSTILE_NAME = 'Ada <b>Lovelace</b> & "Co"';
const ESCAPED_NAME = 'Ada &lt;b&gt;Lovelace&lt;/b&gt; &amp; &quot;Co&quot;';

test('order form: texts, success with the owner email and row, Reset, then duplicate', async ({
  page,
  smtpSink,
  stored,
  analytics,
}) => {
  const form = await openForm(page, '#/', 'Order form');
  await expect(page.getByRole('heading', { level: 2, name: 'Complete Your Order' })).toBeVisible();
  await expect(
    page.getByText('Fill out the form to receive your Soul Reset Bundle.'),
  ).toBeVisible();
  const buy = form.getByRole('link', { name: 'Buy Now - $27' });
  await expect(buy).toHaveAttribute('target', '_blank');
  await expect(buy).toHaveAttribute('href', /^https:\/\//);
  await expect(form.getByText('secure checkout page')).toBeVisible();
  await expect(form.getByText('will not be shared with third parties')).toBeVisible();

  const submit = form.getByRole('button', { name: 'Ask Questions First' });
  await expect(submit).toBeDisabled();
  const email = visitorEmail('order');
  await form.getByLabel('Full Name *').fill(HOSTILE_NAME);
  await form.getByLabel('Email *').fill(email);
  await form.getByLabel('Message (Optional)').fill('Is it a PDF?\n5 > 3');
  await expect(submit).toBeEnabled();
  await submit.click();

  const banner = form.getByRole('status');
  await expect(banner).toContainText('Order sent successfully!');
  await expect(banner).toContainText('We will contact you soon to complete your purchase.');
  await expect(form.getByLabel('Full Name *')).toHaveValue('');
  // Only the form's own lines: the page records its page view and more besides.
  expect(analytics.filter((line) => /form_submission|conversion/.test(line))).toEqual([
    '[analytics] event form_submission_attempt {"form_type":"order","purchase_intent":true}',
    '[analytics] conversion purchase_intent {"value":27}',
  ]);

  const mail = await smtpSink.waitFor((m) => m.headers['reply-to'] === email);
  expect(mail.envelopeTo).toEqual([OWNER_EMAIL]);
  expect(mail.subject).toBe('[Soul Reset Bundle] NEW ORDER REQUEST');
  expect(mail.html).toContain(ESCAPED_NAME);
  expect(mail.html).not.toContain('<b>Lovelace');
  expect(mail.html).toContain('Is it a PDF?<br>5 &gt; 3');
  expect(mail.html).toContain('Intenzione d&#39;acquisto');

  await recordedAsSent(stored, 'form_submissions', email);
  const rows = await stored.query(
    'select name, message, purchase_intent, email_sent, email_sent_at from form_submissions where email = $1',
    [email],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    name: HOSTILE_NAME,
    message: 'Is it a PDF?\n5 > 3',
    purchase_intent: true,
    email_sent: true,
  });
  expect(rows[0]!.email_sent_at).toBeInstanceOf(Date);

  await form.getByRole('button', { name: 'Reset' }).click();
  await expect(banner).toHaveCount(0);
  await expect(form.getByRole('button', { name: 'Reset' })).toHaveCount(0);

  await form.getByLabel('Full Name *').fill('Ada');
  await form.getByLabel('Email *').fill(email.toUpperCase());
  await submit.click();
  await expect(banner).toContainText('Email already registered!');
  await expect(banner).toContainText('You have already sent a request with this email.');
  await expect(form.getByLabel('Email *')).toHaveValue(email.toUpperCase());
  const after = await stored.query('select id from form_submissions where lower(email) = $1', [
    email,
  ]);
  expect(after).toHaveLength(1);
});

test('contact form on /contact-us and on the home page', async ({
  page,
  smtpSink,
  stored,
  analytics,
}) => {
  const home = await openForm(page, '#/', 'Contact form');
  await expect(home.getByRole('button', { name: 'Send Message' })).toBeDisabled();

  const form = await openForm(page, '#/contact-us', 'Contact form');
  // Until the app renders the new route, the home page's contact form is the one on screen.
  await expect(page.getByRole('heading', { level: 1, name: 'Get in Touch' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Contact Us' })).toBeVisible();
  await expect(
    page.getByText("Have questions? Fill out the form and we'll get back to you."),
  ).toBeVisible();
  await expect(
    form.getByText('Your data is protected and will not be shared with third parties.'),
  ).toBeVisible();
  const email = visitorEmail('contact');
  await form.getByLabel('Full Name').fill('Grace');
  await form.getByLabel('Email').fill(email);
  const submit = form.getByRole('button', { name: 'Send Message' });
  await expect(submit).toBeDisabled();
  await form.getByLabel('Message').fill('<script>alert(1)</script>');
  await submit.click();
  await expect(form.getByRole('status')).toHaveText(
    'Message sent successfully! We will get back to you as soon as possible.',
  );
  expect(analytics).toContain(
    '[analytics] event form_submission_attempt {"form_type":"contact","purchase_intent":false}',
  );
  expect(analytics).toContain('[analytics] conversion support_inquiry {}');

  const mail = await smtpSink.waitFor((m) => m.headers['reply-to'] === email);
  expect(mail.envelopeTo).toEqual([OWNER_EMAIL]);
  expect(mail.subject).toBe('[Soul Reset Bundle] NEW CONTACT MESSAGE');
  expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(mail.html).not.toContain('<script>');
  await recordedAsSent(stored, 'form_submissions', email);
  const rows = await stored.query(
    'select purchase_intent, email_sent from form_submissions where email = $1',
    [email],
  );
  expect(rows).toEqual([{ purchase_intent: false, email_sent: true }]);

  await form.getByRole('button', { name: 'Reset' }).click();
  await form.getByLabel('Full Name').fill('Grace');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Message').fill('Again');
  await submit.click();
  await expect(form.getByRole('status')).toContainText('Email already registered!');
});

test('refund form: success, and a refused email still shows success with email_sent false', async ({
  page,
  smtpSink,
  stored,
  analytics,
}) => {
  const form = await openForm(page, '#/refund-policy', 'Refund request form');
  await expect(form.getByPlaceholder('Your full name')).toBeVisible();
  await expect(form.getByPlaceholder('Describe your refund request or questions...')).toBeVisible();
  const email = visitorEmail('refund');
  const fill = async (address: string) => {
    await form.getByLabel('Full Name *').fill('Ada');
    await form.getByLabel('Email *').fill(address);
    await form.getByLabel('Message *').fill('The download link expired.');
  };
  await fill(email);
  await form.getByRole('button', { name: 'Submit Request' }).click();
  const banner = form.getByRole('status');
  await expect(banner).toContainText('Request submitted successfully!');
  await expect(banner).toContainText('We will contact you as soon as possible.');
  expect(analytics).toContain('[analytics] conversion refund_inquiry {}');
  const mail = await smtpSink.waitFor((m) => m.headers['reply-to'] === email);
  expect(mail.subject).toBe('[Soul Reset Bundle] NEW REFUND REQUEST');
  expect(mail.html).toContain('The download link expired.');

  const failing = visitorEmail('refund-failing');
  smtpSink.rejectAll(true);
  try {
    await form.getByRole('button', { name: 'Reset' }).click();
    await fill(failing);
    await form.getByRole('button', { name: 'Submit Request' }).click();
    await expect(banner).toContainText('Request submitted successfully!');
  } finally {
    smtpSink.rejectAll(false);
  }
  await recordedAsSent(stored, 'refund_inquiries', email);
  const rows = await stored.query(
    'select email, email_sent, email_sent_at from refund_inquiries where email = any($1) order by id',
    [[email, failing]],
  );
  expect(rows.map((row) => [row.email, row.email_sent])).toEqual([
    [email, true],
    [failing, false],
  ]);
  expect(rows[1]!.email_sent_at).toBeNull();
});

test('refund form: a failed request shows the Italian error text', async ({
  page,
  consoleErrors,
}) => {
  const form = await openForm(page, '#/refund-policy', 'Refund request form');
  await page.route('**/api/forms/refund', (route) => route.abort('connectionfailed'));
  await form.getByLabel('Full Name *').fill('Ada');
  await form.getByLabel('Email *').fill(visitorEmail('refund-offline'));
  await form.getByLabel('Message *').fill('Hello');
  await form.getByRole('button', { name: 'Submit Request' }).click();
  const alert = form.getByRole('alert');
  await expect(alert).toContainText('Submission Error');
  await expect(alert).toContainText(
    "Si è verificato un errore durante l'invio della richiesta. Riprova più tardi.",
  );
  await expect(form.getByRole('button', { name: 'Reset' })).toBeVisible();
  allowConsoleErrors(consoleErrors, /net::ERR_CONNECTION_FAILED|Failed to load resource/);
});

test('terms feedback form: success, duplicate and Reset', async ({
  page,
  smtpSink,
  stored,
  analytics,
}) => {
  const form = await openForm(page, '#/terms-of-service', 'Terms of service question form');
  await expect(
    form.getByText('Your data is protected and will not be shared with third parties.'),
  ).toBeVisible();
  await expect(form.getByLabel('Your Question *')).toHaveAttribute('rows', '4');
  const email = visitorEmail('terms');
  const submit = form.getByRole('button', { name: 'Submit Question' });
  for (const attempt of [1, 2]) {
    await form.getByLabel('Full Name *').fill('Ada');
    await form.getByLabel('Email *').fill(email);
    await form.getByLabel('Your Question *').fill(`May I print it? (${attempt})`);
    await submit.click();
    if (attempt === 1) {
      await expect(form.getByRole('status')).toHaveText(
        'Question submitted successfully! We will get back to you as soon as possible.',
      );
      await form.getByRole('button', { name: 'Reset' }).click();
    }
  }
  const banner = form.getByRole('status');
  await expect(banner).toContainText('Email already registered!');
  await expect(banner).toContainText('You have already sent a question with this email.');
  expect(analytics).toContain(
    '[analytics] event form_submission_attempt {"form_type":"terms_of_service_feedback"}',
  );
  expect(analytics).toContain('[analytics] conversion terms_feedback {}');
  const mail = await smtpSink.waitFor((m) => m.headers['reply-to'] === email);
  expect(mail.subject).toBe('[Soul Reset Bundle] NEW TERMS OF SERVICE FEEDBACK');
  expect(mail.html).toContain('Submitted on ');
  const rows = await stored.query(
    'select message from terms_of_service_feedback where email = $1',
    [email],
  );
  expect(rows).toEqual([{ message: 'May I print it? (1)' }]);
});
