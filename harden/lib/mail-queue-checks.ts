import { formKinds } from '../../src/shared/forms/form-fields';
import { formDefinition } from '../../src/server/forms/form-definitions';
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink';
import type { HardenCheck, HardenContext } from '../part';
import { startApp, type AppProcess } from './app-process';
import { createTarget, readRows } from './database-target';
import { submitForm, uniqueEmail } from './form-client';

/** Short delays, so a retry comes within the run. */
const RETRY_ENV = { MAIL_RETRY_DELAYS: '1,1,1', MAIL_TIMEOUT_MS: '2000', FORM_RATE_LIMIT: '1000' };
const DELIVERY_LIMIT_MS = 30_000;

const tables = [...new Set(formKinds.map((form) => formDefinition(form).table))];

async function delivered(sink: SmtpSink, emails: string[]): Promise<number> {
  const deadline = performance.now() + DELIVERY_LIMIT_MS;
  const received = () =>
    emails.filter((email) => sink.messages.some((mail) => mail.headers['reply-to'] === email));
  while (received().length < emails.length && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return received().length;
}

/** Each email received once, and each record stored once with email_sent true. */
function judge(
  sink: SmtpSink,
  emails: string[],
  rows: { email: string; email_sent: boolean }[],
): { problems: string[]; sentOnce: number } {
  const problems: string[] = [];
  let sentOnce = 0;
  for (const email of emails) {
    const copies = sink.messages.filter((mail) => mail.headers['reply-to'] === email).length;
    if (copies === 1) sentOnce += 1;
    else problems.push(`${email}: received ${copies} times`);
    const mine = rows.filter((row) => row.email === email);
    if (mine.length !== 1 || !mine[0]!.email_sent)
      problems.push(`${email}: ${mine.length} rows, email_sent ${String(mine[0]?.email_sent)}`);
  }
  return { problems, sentOnce };
}

/**
 * The mail server refuses every form's email; the server is killed with SIGKILL right after
 * answering; the mail server comes back and the server restarts: every email arrives once
 * and every record ends email_sent true.
 */
export async function refusedThenKilled(
  context: HardenContext,
  kind: 'postgres' | 'embedded-postgres',
): Promise<HardenCheck> {
  const target = await createTarget(
    kind,
    context.scratchDir,
    'mail-queue-kill',
    context.postgresAdminUrl,
  );
  const sink = await startSmtpSink();
  sink.rejectAll(true);
  try {
    const env = { ...target.env, SMTP_URL: sink.url, ...RETRY_ENV };
    const first = await startApp(context.root, env);
    const emails: string[] = [];
    let answeredFalse = 0;
    try {
      for (const form of formKinds) {
        const email = uniqueEmail(`queue-kill-${form}`);
        emails.push(email);
        const reply = await submitForm(first.url, form, email);
        if (reply.status === 200 && reply.body?.emailSent === false) answeredFalse += 1;
      }
    } finally {
      await first.kill9();
    }
    sink.rejectAll(false);
    const second = await startApp(context.root, env);
    let arrived: number;
    try {
      arrived = await delivered(sink, emails);
    } finally {
      await second.stop();
    }
    const { problems, sentOnce } = judge(sink, emails, await readRows(target, tables));
    if (answeredFalse !== emails.length)
      problems.push(`${answeredFalse}/${emails.length} answered emailSent false`);
    return {
      check: `mail refused, server SIGKILLed after answering, restarted: each email delivered once (${kind})`,
      result:
        `${emails.length} forms, ${arrived} delivered after restart, ${sentOnce} exactly once` +
        (problems.length ? `; ${problems.slice(0, 3).join('; ')}` : ''),
      ok: problems.length === 0,
      figures: { forms: emails.length, delivered: arrived, exactly_once: sentOnce },
    };
  } finally {
    await sink.close();
    await target.dispose();
  }
}

/**
 * Two server processes on one PostgreSQL database; twenty submissions (ten to each) queued
 * while the mail server refuses; then it accepts: each of the twenty arrives exactly once.
 */
export async function twoInstances(context: HardenContext): Promise<HardenCheck> {
  const target = await createTarget(
    'postgres',
    context.scratchDir,
    'mail-queue-two',
    context.postgresAdminUrl,
  );
  const sink = await startSmtpSink();
  sink.rejectAll(true);
  const apps: AppProcess[] = [];
  try {
    for (const name of ['a', 'b']) {
      apps.push(
        await startApp(context.root, {
          ...target.env,
          DATA_DIR: `${target.env.DATA_DIR}-${name}`,
          SMTP_URL: sink.url,
          ...RETRY_ENV,
        }),
      );
    }
    const emails = Array.from({ length: 20 }, (_, i) => uniqueEmail(`queue-two-${i}`));
    await Promise.all(emails.map((email, i) => submitForm(apps[i % 2]!.url, 'refund', email)));
    sink.rejectAll(false);
    const arrived = await delivered(sink, emails);
    // Both workers keep polling: give a duplicate the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (const app of apps.splice(0)) await app.stop();
    const { problems, sentOnce } = judge(sink, emails, await readRows(target, 'refund_inquiries'));
    return {
      check: 'two instances on one PostgreSQL, 20 queued emails: each sent exactly once',
      result:
        `${arrived}/20 delivered, ${sentOnce} exactly once` +
        (problems.length ? `; ${problems.slice(0, 3).join('; ')}` : ''),
      ok: problems.length === 0,
      figures: { delivered: arrived, exactly_once: sentOnce },
    };
  } finally {
    for (const app of apps) await app.stop();
    await sink.close();
    await target.dispose();
  }
}
