import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { fakeClientBuild } from '../../../tests/support/fake-client-build';
import { buildTestApp } from '../../../tests/support/test-app';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { PUBLIC_CONFIG_ELEMENT_ID, type PublicConfig } from '../../shared/public-config';

/** The settings and content a served page embeds for the browser. */
function embedded(html: string): PublicConfig {
  const match = new RegExp(
    `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">(.*?)</script>`,
  ).exec(html);
  if (!match) throw new Error('The page embeds no settings.');
  return JSON.parse(match[1]!) as PublicConfig;
}

describeEachDatabase('the page of /?code=', (use) => {
  let app: FastifyInstance;
  const page = async (url: string) => embedded((await app.inject(url)).body);

  beforeAll(async () => {
    app = await buildTestApp(use(), { clientDir: await fakeClientBuild() });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await use().db.deleteFrom('orders').execute();
    await use().db.deleteFrom('discount_codes').execute();
  });

  it('renders a usable code’s price struck from the regular one, with the code’s end', async () => {
    const endsAt = new Date(Date.now() + 3 * 86_400_000);
    await use()
      .db.insertInto('discount_codes')
      .values({ code: 'SPRING', percent_off: 20, active: true, ends_at: endsAt })
      .execute();
    const coded = await page('/?code=spring');
    expect(coded.offer).toMatchObject({
      price: '$21.60',
      former: { price: '$27', percentOff: 20, savings: '$5.40' },
      endsAt: endsAt.toISOString(),
    });
    expect(coded.code).toEqual({
      code: 'SPRING',
      applied: true,
      message: 'Code SPRING applied: 20% off.',
      endsAt: endsAt.toISOString(),
    });
    // The page without a code is the regular one.
    const plain = await page('/');
    expect(plain.offer.price).toBe('$27');
    expect(plain.code).toBeUndefined();
  });

  it('refuses a code at its maximum uses, past its end or unknown, with the regular price', async () => {
    const db = use().db;
    await db
      .insertInto('discount_codes')
      .values([
        { code: 'FULL', amount_off_cents: 500, currency: 'usd', max_uses: 1, active: true },
        {
          code: 'OLD',
          percent_off: 10,
          active: true,
          starts_at: new Date('2026-01-01T00:00:00Z'),
          ends_at: new Date('2026-02-01T12:00:00Z'),
        },
      ])
      .execute();
    const full = await page('/?code=FULL');
    expect(full.offer.price).toBe('$22');
    await db
      .insertInto('orders')
      .values({
        session_id: 'cs_test_used_once',
        status: 'paid',
        amount_total: 2200,
        currency: 'usd',
        discount_code: 'FULL',
        amount_discount: 500,
      })
      .execute();
    const used = await page('/?code=FULL');
    expect(used.code).toEqual({
      code: 'FULL',
      applied: false,
      message: 'The code FULL has been used as many times as it can be.',
    });
    expect(used.offer.price).toBe('$27');
    expect((await page('/?code=OLD')).code?.message).toBe(
      'The code OLD ended on Feb 1, 2026, 12:00 PM UTC.',
    );
    const unknown = await page('/?code=%3Cscript%3E');
    expect(unknown.code).toEqual({
      code: null,
      applied: false,
      message: 'This code is not valid: please check how it is written.',
    });
    expect(unknown.offer.price).toBe('$27');
  });
});
