import type { FastifyInstance } from 'fastify';
import type { TableConfig } from '../../../src/shared/admin/table-config';
import { formKinds, type FormKind } from '../../../src/shared/forms/form-fields';
import { formDefinition } from '../../../src/server/forms/form-definitions';
import { SESSION_ID_PATTERN } from '../../../src/shared/orders/order-api';
import { adminChecker, adminRequests, sendAdmin, type AdminKind } from './admin-fuzz';
import { jsonBody, objectText } from './fuzz-body';
import { formBodies, formChecker, sendForm } from './form-fuzz';
import { fuzzRoute, type RouteReport } from './fuzz-route';
import {
  authApi,
  checkSendCode,
  checkSignIn,
  sendAuth,
  sendCodeBodies,
  signInBodies,
} from './sign-in-fuzz';
import { signInFromOutbox } from './outbox-sign-in';
import {
  checkPath,
  checkResend,
  checkWebhook,
  pathSegments,
  resendBodies,
  sendPath,
  sendResend,
  sendWebhook,
  webhookInputs,
} from './order-fuzz';
import {
  checkEvent,
  checkInsights,
  eventBodies,
  insightQueries,
  invalidEvents,
  sendEvent,
  sendInsights,
} from './insight-fuzz';
import { invalidAdminRows, invalidSubmissionRows } from './stored-rows';

export type FuzzAppOptions = {
  /** Generated inputs per route. */
  runs: number;
  seed?: number;
  /** An address on the app's ADMIN_EMAILS. */
  adminEmail: string;
  tables: readonly TableConfig[];
  /** Called after each route, e.g. to print progress. */
  onReport?: (report: RouteReport) => void;
};

export type FuzzAppResult = {
  routes: RouteReport[];
  /** What no longer worked after the run (null: health, a submission and a sign-in all did). */
  afterwards: string | null;
};

function fail(report: RouteReport, problem: string) {
  report.failure ??= problem;
}

async function fuzzForms(app: FastifyInstance, options: FuzzAppOptions) {
  const reports: RouteReport[] = [];
  const expectedRows = new Map<string, number>();
  for (const form of formKinds) {
    const { check, counts } = formChecker(form);
    const report = await fuzzRoute({
      route: `POST /api/forms/${form}`,
      inputs: formBodies,
      runs: options.runs,
      seed: options.seed,
      send: (body) => sendForm(app, form, body),
      check,
    });
    const { table } = formDefinition(form);
    expectedRows.set(table, (expectedRows.get(table) ?? 0) + counts.stored);
    const rows = await invalidSubmissionRows(app.database.db, table);
    report.invalidRows = rows.invalid;
    if (rows.first) fail(report, `stored an invalid row: ${rows.first}`);
    if (rows.rows !== expectedRows.get(table)) {
      fail(report, `${table} holds ${rows.rows} rows; ${expectedRows.get(table)} were stored`);
    }
    options.onReport?.(report);
    reports.push(report);
  }
  return reports;
}

async function fuzzSignIn(app: FastifyInstance, options: FuzzAppOptions) {
  const reports: RouteReport[] = [];
  for (const [url, inputs, check] of [
    [authApi.sendCode, sendCodeBodies, checkSendCode],
    [authApi.signIn, signInBodies, checkSignIn],
  ] as const) {
    const report = await fuzzRoute({
      route: `POST ${url}`,
      inputs,
      runs: options.runs,
      seed: options.seed,
      send: (body) => sendAuth(app, url, body),
      check,
    });
    options.onReport?.(report);
    reports.push(report);
  }
  return reports;
}

/** Orders that break the table's rules the database does not enforce itself. */
async function invalidOrders(app: FastifyInstance): Promise<{ invalid: number; first?: string }> {
  const rows = await app.database.db.selectFrom('orders').selectAll().execute();
  const bad = rows.filter(
    (order) =>
      !SESSION_ID_PATTERN.test(order.session_id) ||
      (order.payment_intent !== null && !/^pi_[A-Za-z0-9_]+$/.test(order.payment_intent)) ||
      (order.currency !== null && !/^[a-z]{3}$/.test(order.currency)) ||
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f]/.test(`${order.email}${order.name ?? ''}`) ||
      (order.status === 'paid' && order.amount_total !== app.config.product.priceCents),
  );
  return { invalid: bad.length, first: bad[0] && JSON.stringify(bad[0]) };
}

/** The webhook, the buyer's link request, the thank-you page's status and both downloads. */
async function fuzzOrders(app: FastifyInstance, options: FuzzAppOptions) {
  if (!app.config.stripe) return [];
  const routes: (() => Promise<RouteReport>)[] = [
    () =>
      fuzzRoute({
        route: 'POST /api/webhooks/stripe',
        inputs: webhookInputs,
        runs: options.runs,
        seed: options.seed,
        send: (input) => sendWebhook(app, input),
        check: checkWebhook,
      }),
    () =>
      fuzzRoute({
        route: 'POST /api/orders/resend-link',
        inputs: resendBodies,
        runs: options.runs,
        seed: options.seed,
        send: (body) => sendResend(app, body),
        check: checkResend,
      }),
    ...['/api/orders/session/', '/download/'].map(
      (prefix) => () =>
        fuzzRoute({
          route: `GET ${prefix}${prefix === '/download/' ? ':token' : ':id'}`,
          inputs: pathSegments,
          runs: options.runs,
          seed: options.seed,
          send: (segment) => sendPath(app, prefix, segment),
          check: checkPath,
        }),
    ),
  ];
  const reports: RouteReport[] = [];
  for (const run of routes) {
    const report = await run();
    const rows = await invalidOrders(app);
    report.invalidRows = rows.invalid;
    if (rows.first) fail(report, `stored an invalid order: ${rows.first}`);
    options.onReport?.(report);
    reports.push(report);
  }
  return reports;
}

/** The collector's events, and the owner's insights over any range. */
async function fuzzInsights(app: FastifyInstance, options: FuzzAppOptions) {
  const cookie = await signInFromOutbox(app, options.adminEmail);
  const events = await fuzzRoute({
    route: 'POST /api/events',
    inputs: eventBodies,
    runs: options.runs,
    seed: options.seed,
    send: (body) => sendEvent(app, body),
    check: checkEvent,
  });
  const rows = await invalidEvents(app);
  events.invalidRows = rows.invalid;
  if (rows.first) fail(events, `stored an invalid event: ${rows.first}`);
  const insights = await fuzzRoute({
    route: 'GET /api/admin/insights',
    inputs: insightQueries,
    runs: options.runs,
    seed: options.seed,
    send: (query) => sendInsights(app, cookie, query),
    check: checkInsights,
  });
  for (const report of [events, insights]) options.onReport?.(report);
  return [events, insights];
}

const adminRoutes: Record<AdminKind, string> = {
  list: 'GET /api/admin/tables/:table/rows',
  create: 'POST /api/admin/tables/:table/rows',
  update: 'PUT /api/admin/tables/:table/rows/:id',
  delete: 'DELETE /api/admin/tables/:table/rows/:id',
  export: 'GET /api/admin/tables/:table/export',
  bulkDelete: 'POST /api/admin/tables/:table/bulk-delete',
};

async function fuzzAdmin(app: FastifyInstance, options: FuzzAppOptions) {
  const cookie = await signInFromOutbox(app, options.adminEmail);
  const requests = adminRequests(options.tables);
  const reports: RouteReport[] = [];
  for (const kind of ['create', 'list', 'export', 'update', 'delete', 'bulkDelete'] as const) {
    const report = await fuzzRoute({
      route: adminRoutes[kind],
      inputs: requests[kind],
      runs: options.runs,
      seed: options.seed,
      send: (request) => sendAdmin(app, cookie, kind, request),
      check: adminChecker(options.tables, kind),
    });
    const rows = await invalidAdminRows(app.database.db, options.tables);
    report.invalidRows = rows.invalid;
    if (rows.first) fail(report, `left an invalid row: ${rows.first}`);
    options.onReport?.(report);
    reports.push(report);
  }
  return reports;
}

/** Whether the app still answers health, a valid submission and a sign-in. */
async function stillServing(app: FastifyInstance, options: FuzzAppOptions): Promise<string | null> {
  const polluted = Object.keys(Object.prototype).concat(Object.keys(Array.prototype));
  if (polluted.length > 0) return `Object.prototype was polluted: ${polluted.join(', ')}`;
  const health = await app.inject({ method: 'GET', url: '/healthz' });
  if (health.statusCode !== 200) return `/healthz answered ${health.statusCode}`;
  const form: FormKind = 'contact';
  const valid = jsonBody(
    objectText([
      ['name', 'After Fuzz'],
      ['email', `after-fuzz-${Date.now()}@example.com`],
      ['message', 'Still there?'],
    ]),
  );
  const submitted = await sendForm(app, form, valid);
  if (submitted.json<{ status?: string }>().status !== 'success') {
    return `a valid submission answered ${submitted.statusCode} ${submitted.body}`;
  }
  try {
    await signInFromOutbox(app, options.adminEmail);
  } catch (error) {
    return `the admin could not sign in: ${String(error)}`;
  }
  return null;
}

/**
 * The app must mail through its outbox (no SMTP_URL): sign-in codes are read from there.
 * Fuzzes every public submit route, both sign-in routes and the admin table routes (as the
 * admin) of one app, checks the stored rows after each route, and that the app still serves.
 */
export async function fuzzApp(
  app: FastifyInstance,
  options: FuzzAppOptions,
): Promise<FuzzAppResult> {
  const routes = [
    ...(await fuzzForms(app, options)),
    ...(await fuzzSignIn(app, options)),
    ...(await fuzzAdmin(app, options)),
    ...(await fuzzOrders(app, options)),
    ...(await fuzzInsights(app, options)),
  ];
  return { routes, afterwards: await stillServing(app, options) };
}
