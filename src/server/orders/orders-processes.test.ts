// Verified purchases across real processes: a killed server, and two instances on one
// PostgreSQL database (as behind a load balancer) that Stripe's deliveries reach at once.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { BenchServer } from '../../../bench/lib/processes';
import { eventually } from '../../../tests/support/eventually';
import { bundleBytes, linkIn, productFile } from '../../../tests/support/orders-app';
import { startSmtpSink } from '../../../tests/support/smtp-sink';
import {
  charge,
  checkoutSession,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
} from '../../../tests/support/stripe-events';
import { useServerProcesses } from '../../../tests/support/server-processes';
import { describeEachDatabase } from '../../../tests/support/test-database';

const processes = useServerProcesses();

function serverProcess(env: Record<string, string>): Promise<BenchServer> {
  return processes.start({ STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, ...env });
}

function deliver(server: BenchServer, event: unknown) {
  const { payload, headers } = signedEvent(event);
  return fetch(`${server.url}/api/webhooks/stripe`, { method: 'POST', headers, body: payload });
}

describeEachDatabase('verified purchases across processes', (use, kind) => {
  it('mails the receipt of a payment whose server was killed with SIGKILL right after it answered', async () => {
    const sink = await startSmtpSink();
    processes.cleanup(() => sink.close());
    sink.rejectAll(true);
    const databaseEnv = await processes.databaseEnv(kind, use());
    const env = {
      ...databaseEnv,
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAYS: '1',
      // A short lease: the killed server's claim on the receipt expires soon after the restart.
      MAIL_TIMEOUT_MS: '1000',
      BUNDLE_FILE: await productFile(),
    };
    const buyer = `killed-${Date.now()}@example.com`;

    const first = await serverProcess(env);
    const session = checkoutSession({ customer_details: { email: buyer, name: 'Kim' } });
    expect((await deliver(first, stripeEvent('checkout.session.completed', session))).status).toBe(
      200,
    );
    first.child.kill('SIGKILL');
    await first.stop();
    expect(first.child.signalCode).toBe('SIGKILL');

    sink.rejectAll(false);
    const second = await serverProcess(env);
    const receipt = await sink.waitFor((mail) => mail.envelopeTo.includes(buyer), 45_000);
    expect(receipt.subject).toBe('Your Soul Reset Bundle: receipt and download link');
    const file = await fetch(`${second.url}${linkIn(receipt)}`);
    expect(Buffer.from(await file.arrayBuffer()).equals(bundleBytes)).toBe(true);
    // Stripe retries the event the killed server had already answered: nothing is sent twice.
    expect((await deliver(second, stripeEvent('checkout.session.completed', session))).status).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sink.messages.filter((mail) => mail.envelopeTo.includes(buyer))).toHaveLength(1);
  }, 120_000);

  if (kind !== 'postgres') return;

  it('two instances fulfil each session once and share its links and refunds', async () => {
    const sink = await startSmtpSink();
    processes.cleanup(() => sink.close());
    const env = { DATABASE_URL: use().url!, SMTP_URL: sink.url, BUNDLE_FILE: await productFile() };
    const a = await serverProcess(env);
    const b = await serverProcess(env);

    const tag = `two-instances-${Date.now()}`;
    const sessions = Array.from({ length: 10 }, (_, i) =>
      checkoutSession({ customer_details: { email: `${tag}-${i}@example.com`, name: null } }),
    );
    // Each session: completed to one instance, async success to the other, and the same
    // event to both, all at once.
    const answers = await Promise.all(
      sessions.flatMap((session) => {
        const completed = stripeEvent('checkout.session.completed', session);
        return [
          deliver(a, completed),
          deliver(b, completed),
          deliver(b, stripeEvent('checkout.session.async_payment_succeeded', session)),
        ];
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(200));

    const receipts = await eventually(async () => {
      const mails = sink.messages.filter((mail) => mail.envelopeTo[0]?.startsWith(tag));
      return mails.length >= 10 ? mails : undefined;
    }, 45_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sink.messages.filter((mail) => mail.envelopeTo[0]?.startsWith(tag))).toHaveLength(10);
    const { rows } = await sql<{ orders: number; links: number }>`
      select count(distinct o.id)::int as orders, count(l.id)::int as links
      from orders o join download_links l on l.order_id = o.id
      where o.email like ${`${tag}-%`}`.execute(use().db);
    expect(rows[0]).toEqual({ orders: 10, links: 10 });

    // A link mailed by either instance works on both; a refund told to one closes it on both.
    const link = linkIn(receipts[0]!);
    const first = await fetch(`${a.url}${link}`);
    expect(Buffer.from(await first.arrayBuffer()).equals(bundleBytes)).toBe(true);
    expect((await fetch(`${b.url}${link}`)).status).toBe(200);
    const buyer = receipts[0]!.envelopeTo[0]!;
    const session = sessions.find((s) => s.customer_details.email === buyer)!;
    expect(
      (await deliver(b, stripeEvent('charge.refunded', charge(session.payment_intent, 2700))))
        .status,
    ).toBe(200);
    const closed = await fetch(`${a.url}${link}`, { redirect: 'manual' });
    expect(closed.status).toBe(302);
    expect(closed.headers.get('location')).toBe('/#/download-link?reason=revoked');
  }, 120_000);
});
