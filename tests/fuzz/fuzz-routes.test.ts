import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TableConfig } from '../../src/shared/admin/table-config';
import { tableConfigurationsDir } from '../../src/server/app';
import { loadTableConfigurations } from '../../src/server/admin/tables/table-configurations';
import { fuzzApp } from '../support/fuzz/fuzz-app';
import { TEST_WEBHOOK_SECRET } from '../support/stripe-events';
import { buildTestApp } from '../support/test-app';
import { testConfig } from '../support/test-config';
import { describeEachDatabase } from '../support/test-database';

const ADMIN = 'owner@example.com';
/** A few hundred per route keeps both databases under half a minute; harden sends 10,000. */
const RUNS = 150;

describeEachDatabase('fuzzed requests to every public, sign-in and admin route', (use) => {
  let app: FastifyInstance;
  let tables: TableConfig[];

  beforeAll(async () => {
    tables = await loadTableConfigurations(tableConfigurationsDir);
    app = await buildTestApp(use(), {
      // Mail goes to the outbox of the test's DATA_DIR. Each request comes from an address of
      // its own and the form limit is out of reach: rate limits have tests of their own.
      config: await testConfig({
        ADMIN_EMAILS: ADMIN,
        FORM_RATE_LIMIT: '100000',
        STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      }),
      tables,
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('answers no 5xx, refuses clearly, stores only valid rows, and keeps serving', async () => {
    const result = await fuzzApp(app, { runs: RUNS, adminEmail: ADMIN, tables });
    const summary = result.routes.map(({ route, failure, ...figures }) => ({
      route,
      failure,
      fiveHundreds: figures['5xx'],
      invalidRows: figures.invalidRows,
    }));
    expect(summary).toEqual(
      result.routes.map(({ route }) => ({ route, failure: null, fiveHundreds: 0, invalidRows: 0 })),
    );
    expect(result.afterwards).toBeNull();
    for (const report of result.routes) expect(report.inputs).toBeGreaterThanOrEqual(RUNS);
    // The valid path ran too: forms stored rows, codes were mailed, the admin saved rows.
    const twoHundreds = Object.fromEntries(result.routes.map((r) => [r.route, r['2xx']]));
    expect(twoHundreds['POST /api/forms/contact']).toBeGreaterThan(0);
    expect(twoHundreds['POST /api/auth/email-otp/send-verification-otp']).toBeGreaterThan(0);
    expect(twoHundreds['POST /api/admin/tables/:table/rows']).toBeGreaterThan(0);
    expect(twoHundreds['PUT /api/admin/tables/:table/rows/:id']).toBeGreaterThan(0);
    expect(twoHundreds['POST /api/webhooks/stripe']).toBeGreaterThan(0);
    expect(twoHundreds['POST /api/orders/resend-link']).toBeGreaterThan(0);
    expect(twoHundreds['POST /api/events']).toBeGreaterThan(0);
    expect(twoHundreds['GET /api/admin/insights']).toBeGreaterThan(0);
    // Signed events with valid contents paid for orders.
    const paid = await use()
      .db.selectFrom('orders')
      .select('id')
      .where('status', '=', 'paid')
      .execute();
    expect(paid.length).toBeGreaterThan(0);
  }, 120_000);
});
