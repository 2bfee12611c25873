import { formKinds, type FormKind } from '../../src/shared/forms/form-fields';
import { tableRowsPath } from '../../src/shared/admin/table-api';
import { formDefinition } from '../../src/server/forms/form-definitions';
import { signInOverHttp } from '../../bench/lib/sign-in';
import { freePort } from '../../tests/support/free-port';
import { startSmtpSink } from '../../tests/support/smtp-sink';
import { startTcpProxy } from '../../tests/support/tcp-proxy';
import { startApp } from '../lib/app-process';
import { createTarget, readRows, type DatabaseTarget } from '../lib/database-target';
import { refusedThenKilled, twoInstances } from '../lib/mail-queue-checks';
import { submitForm, uniqueEmail, type FormReply } from '../lib/form-client';
import { mailStall } from '../lib/mail-stall';
import { startSilentServer } from '../lib/silent-server';
import type { HardenCheck, HardenContext, HardenPart } from '../part';

const MAIL_TIMEOUT_MS = 2_000;
/** What a success may take beyond MAIL_TIMEOUT_MS: the database steps and the round trip. */
const ANSWER_MARGIN_MS = 1_500;
const ROUNDS = 2;
const ADMIN = 'owner@example.com';
const RECOVERY_LIMIT_MS = 10_000;

type MailFault = 'down' | 'refusing' | 'hanging';

/**
 * Mail transport down, refusing and hanging: every visitor still gets success in time and
 * every row is stored with email_sent false. The mail queue: refused emails of a server
 * killed right after answering arrive once after a restart; two instances send each of twenty
 * queued emails once (PostgreSQL). PostgreSQL unreachable: 503s with a message,
 * /readyz fails, /healthz stays up, and the same process recovers when it comes back.
 */
export const faults: HardenPart = async (context) => {
  const checks: HardenCheck[] = [];
  for (const fault of ['down', 'refusing', 'hanging'] as const) {
    checks.push(await mailFault(context, fault));
  }
  checks.push(await mailStall(context));
  checks.push(
    await refusedThenKilled(context, context.postgresAdminUrl ? 'postgres' : 'embedded-postgres'),
  );
  if (context.postgresAdminUrl) {
    checks.push(await twoInstances(context));
    checks.push(...(await databaseOutage(context, context.postgresAdminUrl)));
  } else {
    checks.push({
      check: 'two instances on one PostgreSQL, 20 queued emails: each sent exactly once',
      result: 'skipped: set TEST_DATABASE_URL to run it',
      ok: true,
    });
    checks.push({
      check: 'PostgreSQL unreachable, then back',
      result: 'skipped: set TEST_DATABASE_URL to run it',
      ok: true,
    });
  }
  return checks;
};

async function mailFault(context: HardenContext, fault: MailFault): Promise<HardenCheck> {
  const kind = context.postgresAdminUrl ? 'postgres' : 'embedded-postgres';
  const target = await createTarget(
    kind,
    context.scratchDir,
    `mail-${fault}`,
    context.postgresAdminUrl,
  );
  const sink = fault === 'refusing' ? await startSmtpSink() : undefined;
  sink?.rejectAll(true);
  const silent = fault === 'hanging' ? await startSilentServer() : undefined;
  const smtpUrl = sink?.url ?? `smtp://127.0.0.1:${silent?.port ?? (await freePort())}`;
  try {
    const app = await startApp(context.root, {
      ...target.env,
      SMTP_URL: smtpUrl,
      MAIL_TIMEOUT_MS: String(MAIL_TIMEOUT_MS),
      FORM_RATE_LIMIT: '1000',
    });
    const sent: { form: FormKind; email: string; reply: FormReply }[] = [];
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        // All five forms at once: one hung connection must not hold up the others.
        sent.push(
          ...(await Promise.all(
            formKinds.map(async (form) => {
              const email = uniqueEmail(`mail-${fault}-${form}`);
              return { form, email, reply: await submitForm(app.url, form, email) };
            }),
          )),
        );
      }
    } finally {
      await app.stop();
    }
    return await judgeMailFault(fault, target, sent);
  } finally {
    await silent?.close();
    await sink?.close();
    await target.dispose();
  }
}

async function judgeMailFault(
  fault: MailFault,
  target: DatabaseTarget,
  sent: { form: FormKind; email: string; reply: FormReply }[],
): Promise<HardenCheck> {
  const limit = MAIL_TIMEOUT_MS + ANSWER_MARGIN_MS;
  const problems: string[] = [];
  for (const { form, reply } of sent) {
    if (reply.status !== 200 || reply.body?.status !== 'success' || reply.body.emailSent !== false)
      problems.push(`${form} answered ${reply.status} ${JSON.stringify(reply.body)}`);
    if (reply.ms > limit) problems.push(`${form} took ${Math.round(reply.ms)} ms`);
  }
  const tables = [...new Set(sent.map(({ form }) => formDefinition(form).table))];
  const rows = await readRows(target, tables);
  let stored = 0;
  for (const { form, email } of sent) {
    const mine = rows.filter((row) => row.email === email);
    if (mine.length !== 1) {
      problems.push(`${form} ${email}: ${mine.length} rows`);
      continue;
    }
    stored += 1;
    if (mine[0]!.email_sent !== false || mine[0]!.email_sent_at !== null)
      problems.push(`${form} ${email}: stored as sent`);
  }
  const maxMs = Math.round(Math.max(...sent.map(({ reply }) => reply.ms)));
  const ok = problems.length === 0;
  return {
    check: `mail ${fault}: every form answers success, stores email_sent false (${target.kind})`,
    result:
      `${sent.length} submits, slowest ${maxMs} ms (limit ${limit}), ` +
      `${stored}/${sent.length} stored, ${sent.length - stored} lost` +
      (ok ? '' : `; ${problems.slice(0, 3).join('; ')}`),
    ok,
    figures: {
      submits: sent.length,
      slowest_ms: maxMs,
      limit_ms: limit,
      stored,
      lost: sent.length - stored,
      problems: problems.length,
    },
  };
}

type Probe = { status: number; ms: number; body: unknown };

async function probe(url: string, init?: RequestInit): Promise<Probe> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: keep the text for the report.
    }
    return { status: response.status, ms: performance.now() - started, body };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, body: String(error) };
  }
}

function hasMessage(body: unknown): boolean {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.length > 10;
}

async function databaseOutage(context: HardenContext, adminUrl: string): Promise<HardenCheck[]> {
  const target = await createTarget('postgres', context.scratchDir, 'db-outage', adminUrl);
  const direct = new URL(target.env.DATABASE_URL!);
  const proxy = await startTcpProxy(Number(direct.port || 5432));
  const proxied = new URL(direct);
  proxied.host = `127.0.0.1:${proxy.port}`;
  const sink = await startSmtpSink();
  try {
    const app = await startApp(context.root, {
      ...target.env,
      DATABASE_URL: proxied.toString(),
      SMTP_URL: sink.url,
      ADMIN_EMAILS: ADMIN,
      FORM_RATE_LIMIT: '1000',
    });
    try {
      const cookie = await signInOverHttp(app.url, sink, ADMIN);
      const submit = () =>
        submitForm(app.url, 'order', uniqueEmail('db-outage')).then(
          (reply): Probe => reply,
          (error: unknown): Probe => ({ status: 0, ms: 0, body: String(error) }),
        );
      const list = () =>
        probe(`${app.url}${tableRowsPath('form_submissions')}?page=0`, { headers: { cookie } });
      const ready = () => probe(`${app.url}/readyz`);
      const health = () => probe(`${app.url}/healthz`);

      const before = [await submit(), await list(), await ready()];
      if (before.some((p) => p.status !== 200))
        throw new Error(`Not healthy before the outage: ${JSON.stringify(before)}`);

      await proxy.stop();
      const down = {
        submit: await submit(),
        list: await list(),
        ready: await ready(),
        health: await health(),
      };
      const downOk =
        down.submit.status === 503 &&
        hasMessage(down.submit.body) &&
        down.list.status === 503 &&
        hasMessage(down.list.body) &&
        down.ready.status !== 200 &&
        down.health.status === 200;
      const slowest = Math.round(Math.max(...Object.values(down).map((p) => p.ms)));

      await proxy.start();
      const recovery = await timeRecovery({ submit, list, ready });
      const recovered = Object.values(recovery).every((ms) => ms !== undefined);
      const recoveryMs = recovered ? Math.max(...(Object.values(recovery) as number[])) : -1;

      return [
        {
          check: 'PostgreSQL unreachable: 503 with a message, /readyz fails, /healthz up',
          result:
            `submit ${down.submit.status}, admin list ${down.list.status}, ` +
            `readyz ${down.ready.status}, healthz ${down.health.status}, slowest answer ${slowest} ms` +
            (downOk ? '' : `; ${JSON.stringify(down).slice(0, 300)}`),
          ok: downOk,
          figures: {
            submit_status: down.submit.status,
            admin_list_status: down.list.status,
            readyz_status: down.ready.status,
            healthz_status: down.health.status,
            slowest_answer_ms: slowest,
          },
        },
        {
          check: 'PostgreSQL back: submit, admin list, /readyz recover without a restart',
          result: recovered
            ? `recovered in ${Math.round(recoveryMs)} ms (submit ${Math.round(recovery.submit!)}, ` +
              `list ${Math.round(recovery.list!)}, readyz ${Math.round(recovery.ready!)})`
            : `not recovered within ${RECOVERY_LIMIT_MS} ms: ${JSON.stringify(recovery)}`,
          ok: recovered,
          figures: { recovery_ms: Math.round(recoveryMs) },
        },
      ];
    } finally {
      await app.stop();
    }
  } finally {
    await sink.close();
    await proxy.close();
    await target.dispose();
  }
}

/** Milliseconds until each probe first answers 200 (undefined: not within the limit). */
async function timeRecovery(
  probes: Record<string, () => Promise<Probe>>,
): Promise<Record<string, number | undefined>> {
  const started = performance.now();
  const found: Record<string, number | undefined> = {};
  while (performance.now() - started < RECOVERY_LIMIT_MS) {
    for (const [name, run] of Object.entries(probes)) {
      if (found[name] === undefined && (await run()).status === 200)
        found[name] = performance.now() - started;
    }
    if (Object.keys(probes).every((name) => found[name] !== undefined)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return found;
}
