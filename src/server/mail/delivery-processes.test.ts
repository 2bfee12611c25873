// The queue across processes: a killed server's emails, and several instances on one database.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { BenchServer } from '../../../bench/lib/processes';
import { eventually } from '../../../tests/support/eventually';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { useServerProcesses } from '../../../tests/support/server-processes';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { openDatabase, type AppDatabase } from '../db/database';

const OWNER = 'owner@soulreset.test';

const processes = useServerProcesses();

async function sinkForTest(): Promise<SmtpSink> {
  const sink = await startSmtpSink();
  processes.cleanup(() => sink.close());
  return sink;
}

function serverProcess(env: Record<string, string>): Promise<BenchServer> {
  return processes.start({ OWNER_EMAIL: OWNER, MAIL_TIMEOUT_MS: '1000', ...env });
}

describeEachDatabase('mail delivery across processes', (use, kind) => {
  it('delivers, after a restart, the email of a server killed with SIGKILL right after it answered', async () => {
    const sink = await sinkForTest();
    sink.rejectAll(true);
    const databaseEnv = await processes.databaseEnv(kind, use());
    const env = { ...databaseEnv, SMTP_URL: sink.url, MAIL_RETRY_DELAYS: '1' };
    const email = `crash-${Date.now()}@example.com`;

    const first = await serverProcess(env);
    const response = await fetch(`${first.url}/api/forms/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email, message: 'Before the crash' }),
    });
    expect(await response.json()).toEqual({ status: 'success', emailSent: false });
    first.child.kill('SIGKILL');
    await first.stop();
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(sink.messages).toHaveLength(0);

    sink.rejectAll(false);
    const second = await serverProcess(env);
    const mail = await sink.waitFor((received) => received.headers['reply-to'] === email, 20_000);
    expect(mail.subject).toBe('[Soul Reset Bundle] NEW ORDER REQUEST');
    expect(mail.envelopeTo).toEqual([OWNER]);
    await second.stop();

    // Read the stored state with the server stopped: its data directory is one app's at a time.
    const database: AppDatabase =
      kind === 'postgres' ? use() : await openDatabase({ dataDir: databaseEnv.DATA_DIR! });
    try {
      const record = await database.db
        .selectFrom('form_submissions')
        .select(['id', 'email_sent', 'email_sent_at'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(record.email_sent).toBe(true);
      expect(record.email_sent_at).toBeInstanceOf(Date);
      const delivery = await database.db
        .selectFrom('mail_deliveries')
        .select(['status', 'attempts'])
        .where('source_table', '=', 'form_submissions')
        .where('source_id', '=', record.id)
        .executeTakeFirstOrThrow();
      // The killed instance's worker may have tried (and been refused) before the kill: its
      // attempt counts, and its claim expired before the restarted one sent it.
      expect(delivery.status).toBe('sent');
      expect([1, 2]).toContain(delivery.attempts);
    } finally {
      if (kind !== 'postgres') await database.close();
    }
    expect(sink.messages.filter((received) => received.headers['reply-to'] === email)).toHaveLength(
      1,
    );
  }, 90_000);

  if (kind === 'postgres') {
    it('sends each of twenty queued emails exactly once with two instances on one database', async () => {
      const sink = await sinkForTest();
      const config = await testConfig({
        OWNER_EMAIL: OWNER,
        SMTP_URL: sink.url,
        MAIL_RETRY_DELAYS: '0.2',
      });
      const instances = [];
      for (let i = 0; i < 2; i++) {
        // Each instance has its own connection pool, as two processes would.
        const database = await openDatabase({ databaseUrl: use().url! });
        const app = await buildTestApp(database, { config });
        processes.cleanup(async () => {
          await app.close();
          await database.close();
        });
        instances.push({ app, database });
      }
      const tag = `twenty-${Date.now()}`;
      await sql`
        with records as (
          insert into refund_inquiries (name, email)
          select 'Visitor ' || g, ${tag} || '-' || g || '@example.com'
          from generate_series(1, 20) as g
          returning id, email)
        insert into mail_deliveries (source_table, source_id, recipient, reply_to, subject, html, text)
        select 'refund_inquiries', id, ${OWNER}, email, ${tag} || ' ' || email, '<p>Queued</p>', 'Queued'
        from records`.execute(use().db);
      for (const { app } of instances) app.deliveryWorker.wake();

      await eventually(async () => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from mail_deliveries
          where subject like ${`${tag} %`} and status = 'sent'`.execute(use().db);
        return rows[0]!.n === 20 ? true : undefined;
      }, 20_000);
      // Both workers looked again meanwhile; nothing more may arrive.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const subjects = sink.messages
        .map((mail) => mail.subject)
        .filter((subject) => subject.startsWith(tag));
      expect(subjects).toHaveLength(20);
      expect(new Set(subjects).size).toBe(20);
      const { rows } = await sql<{ attempts: number; email_sent: boolean }>`
        select d.attempts, r.email_sent from mail_deliveries d
        join refund_inquiries r on r.id = d.source_id
        where d.subject like ${`${tag} %`}`.execute(use().db);
      expect(rows).toHaveLength(20);
      expect(rows.every((row) => row.attempts === 1 && row.email_sent)).toBe(true);
    }, 60_000);
  }
});
