import type { FastifyInstance } from 'fastify';
import type { TableConfig } from '../../../src/shared/admin/table-config';
import { formKinds, type FormKind } from '../../../src/shared/forms/form-fields';
import { formDefinition } from '../../../src/server/forms/form-definitions';
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
  ];
  return { routes, afterwards: await stillServing(app, options) };
}
