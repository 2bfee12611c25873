import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeClientBuild } from '../../../tests/support/fake-client-build';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import type { PublicConfig } from '../../shared/public-config';
import {
  STORE_PATH,
  STORE_PUBLISH_PATH,
  storeRestorePath,
  type StoreState,
} from '../../shared/store/store-api';

const ADMIN = 'owner@example.com';

/** The offer the page was rendered with (the JSON the browser hydrates from). */
async function offerServed(app: FastifyInstance): Promise<PublicConfig['offer']> {
  const body = (await app.inject('/')).body;
  const json = /<script type="application\/json" id="public-config">(.*?)<\/script>/s.exec(body);
  return (JSON.parse(json![1]!) as PublicConfig).offer;
}

describeEachDatabase('PRICE_RULES on the served page and the Store page', (use) => {
  let sink: SmtpSink;
  let eu: FastifyInstance;
  let us: FastifyInstance;
  let off: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    const env = { SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN, PRODUCT_PRICE_CENTS: '8900' };
    const clientDir = await fakeClientBuild();
    eu = await buildTestApp(use(), {
      config: await testConfig({ ...env, PRICE_RULES: 'eu' }),
      clientDir,
    });
    // The first version, $89 without a former price, was live for the last 60 days.
    await sql`update store_versions set published_at = now() - interval '60 days'
      where version = 1`.execute(eu.database.db);
    us = await buildTestApp(use(), {
      config: await testConfig({ ...env, PRICE_RULES: 'us' }),
      clientDir,
    });
    off = await buildTestApp(use(), { config: await testConfig(env), clientDir });
    cookie = await signIn(eu, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([eu?.close(), us?.close(), off?.close()]);
    await sink?.close();
  });

  const admin = (url: string, method: 'GET' | 'PUT' | 'POST' = 'GET', payload?: object) =>
    eu.inject({
      method,
      url,
      headers: { cookie, origin: eu.config.publicUrl },
      ...(payload ? { payload } : {}),
    });

  async function publishPrice(priceCents: number, compareAtCents: number | null) {
    const { draft } = (await admin(STORE_PATH)).json() as StoreState;
    const product = { ...draft.product, priceCents, compareAtCents };
    expect((await admin(STORE_PATH, 'PUT', { content: { ...draft, product } })).statusCode).toBe(
      200,
    );
    const published = await admin(STORE_PUBLISH_PATH, 'POST');
    expect(published.statusCode).toBe(201);
    return (published.json() as { version: number }).version;
  }

  const everyone = () => Promise.all([eu, us, off].map((app) => app.store.refresh()));

  it('strikes through only what each rule allows, and the Store page warns under every rule', async () => {
    // $27, "was $99": $99 was never charged; $89 was, for 60 days.
    const reduced = await publishPrice(2700, 9900);
    await everyone();
    expect((await offerServed(off)).former).toEqual({
      price: '$99',
      percentOff: 73,
      savings: '$72',
    });
    // eu: the lowest price of the 30 days before: $89, the percentage and saving from it.
    expect((await offerServed(eu)).former).toEqual({
      price: '$89',
      percentOff: 70,
      savings: '$62',
    });
    // us: $99 was never live, so no comparison.
    expect((await offerServed(us)).former).toBeUndefined();

    const { prices } = (await admin(STORE_PATH)).json() as StoreState;
    expect(prices.rules).toBe('eu');
    expect(prices.live.lowest30Cents).toBe(8900);
    expect(prices.live.warnings[0]).toMatch(/\$99\.00 was never charged/);

    // Restore the $89 version, then the reduction again: $27 was live in the 30 days before
    // the restored reduction, so it is no reduction.
    await admin(storeRestorePath(1), 'POST');
    await admin(storeRestorePath(reduced), 'POST');
    await everyone();
    expect((await offerServed(eu)).former).toBeUndefined();
    expect((await offerServed(off)).former?.price).toBe('$99');
    const after = (await admin(STORE_PATH)).json() as StoreState;
    expect(after.prices.live.lowest30Cents).toBe(2700);
    expect(after.prices.draft.warnings.join(' ')).toMatch(/lowest price .* is \$27\.00/);
  });

  it('a sale: its end is on the page, and every instance serves the regular price within 5 s of it', async () => {
    const { draft } = (await admin(STORE_PATH)).json() as StoreState;
    const endsAt = new Date(Date.now() + 2_000).toISOString();
    const product = { ...draft.product, priceCents: 8900, compareAtCents: null };
    const content = { ...draft, product: { ...product, sale: { priceCents: 4900, endsAt } } };
    expect((await admin(STORE_PATH, 'PUT', { content })).statusCode).toBe(200);
    expect((await admin(STORE_PUBLISH_PATH, 'POST')).statusCode).toBe(201);
    await everyone();
    for (const app of [eu, off]) {
      expect(await offerServed(app)).toMatchObject({ price: '$49', endsAt });
    }
    const endedAt = Date.parse(endsAt);
    const regularAfter: number[] = [];
    for (const app of [eu, off]) {
      while (Date.now() - endedAt < 5_000) {
        const offer = await offerServed(app);
        if (offer.price === '$89' && offer.endsAt === undefined && !offer.former) {
          regularAfter.push(Date.now() - endedAt);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(regularAfter).toHaveLength(2);
    expect(Math.min(...regularAfter)).toBeGreaterThanOrEqual(0);
  });
});
