// A real refusal from the server (429 after FORM_RATE_LIMIT submissions) shown by a form.
import { allowConsoleErrors, expect, openForm, test, visitorEmail } from './forms-fixtures';

test.use({ formRateLimit: '2' });

test('the third submission from one address shows the refusal in the error banner', async ({
  page,
  consoleErrors,
}) => {
  const form = await openForm(page, '#/contact-us', 'Contact form');
  for (const attempt of [1, 2, 3]) {
    await form.getByLabel('Full Name').fill('Ada');
    await form.getByLabel('Email').fill(visitorEmail(`limit-${attempt}`));
    await form.getByLabel('Message').fill('Hello');
    await form.getByRole('button', { name: 'Send Message' }).click();
    if (attempt < 3) {
      await expect(form.getByRole('status')).toContainText('Message sent successfully!');
      await form.getByRole('button', { name: 'Reset' }).click();
    }
  }
  const alert = form.getByRole('alert');
  await expect(alert).toContainText('Submission Error');
  await expect(alert).toContainText(
    'Too many submissions from your network. Please try again in 10 minutes.',
  );
  allowConsoleErrors(consoleErrors, /status of 429/);
});
