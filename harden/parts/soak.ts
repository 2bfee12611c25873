import { formKinds } from '../../src/shared/forms/form-fields';
import { tableRowsPath } from '../../src/shared/admin/table-api';
import { signInOverHttp } from '../../bench/lib/sign-in';
import { startSmtpSink } from '../../tests/support/smtp-sink';
import { startApp } from '../lib/app-process';
import { createTarget } from '../lib/database-target';
import { submitForm, uniqueEmail } from '../lib/form-client';
import type { HardenCheck, HardenPart } from '../part';

const ADMIN = 'owner@example.com';
/** What one second of the soak sends, all at once. */
const EACH_SECOND = { page: 4, submit: 2, adminList: 1 };
const RSS_DRIFT_LIMIT = 0.1;

type Kind = keyof typeof EACH_SECOND;
type Tally = { requests: number; serverErrors: number; failures: number; slowestMs: number };

/**
 * A steady mixed load on the default deployment (the embedded PostgreSQL): page loads,
 * submits and admin lists every second. No 5xx, and
 * the resident memory at the end within 10% of what it was after the warm-up minute.
 */
export const soak: HardenPart = async (context) => {
  const durationMs = context.quick ? 60_000 : 600_000;
  const baselineAtMs = Math.min(60_000, durationMs / 4);
  const target = await createTarget('embedded-postgres', context.scratchDir, 'soak');
  const sink = await startSmtpSink();
  const app = await startApp(context.root, {
    ...target.env,
    SMTP_URL: sink.url,
    ADMIN_EMAILS: ADMIN,
    FORM_RATE_LIMIT: '1000000',
  });
  try {
    const cookie = await signInOverHttp(app.url, sink, ADMIN);
    const tally = Object.fromEntries(
      Object.keys(EACH_SECOND).map((kind) => [
        kind,
        { requests: 0, serverErrors: 0, failures: 0, slowestMs: 0 },
      ]),
    ) as Record<Kind, Tally>;
    const examples: string[] = [];
    const record = async (kind: Kind, send: () => Promise<Response | number>) => {
      const entry = tally[kind];
      entry.requests += 1;
      const started = performance.now();
      try {
        const answer = await send();
        const status = typeof answer === 'number' ? answer : answer.status;
        if (typeof answer !== 'number') await answer.arrayBuffer();
        if (status >= 500) {
          entry.serverErrors += 1;
          if (examples.length < 3) examples.push(`${kind} ${status}`);
        } else if (status !== 200) {
          entry.failures += 1;
          if (examples.length < 3) examples.push(`${kind} ${status}`);
        }
      } catch (error) {
        entry.failures += 1;
        if (examples.length < 3) examples.push(`${kind} ${String(error)}`);
      }
      entry.slowestMs = Math.max(entry.slowestMs, performance.now() - started);
    };

    let second = 0;
    const oneSecond = () => {
      const requests: Promise<void>[] = [];
      for (let i = 0; i < EACH_SECOND.page; i += 1)
        requests.push(record('page', () => fetch(`${app.url}/`)));
      for (let i = 0; i < EACH_SECOND.submit; i += 1) {
        const form = formKinds[(second * EACH_SECOND.submit + i) % formKinds.length]!;
        requests.push(
          record(
            'submit',
            async () => (await submitForm(app.url, form, uniqueEmail('soak'))).status,
          ),
        );
      }
      for (let i = 0; i < EACH_SECOND.adminList; i += 1)
        requests.push(
          record('adminList', () =>
            fetch(`${app.url}${tableRowsPath('form_submissions')}?page=${second % 5}`, {
              headers: { cookie },
            }),
          ),
        );
      second += 1;
      return Promise.all(requests);
    };

    const started = performance.now();
    const inFlight: Promise<unknown>[] = [];
    let baselineRss: number | undefined;
    let peakRss = await app.rssMb();
    while (performance.now() - started < durationMs) {
      inFlight.push(oneSecond());
      const rss = await app.rssMb();
      peakRss = Math.max(peakRss, rss);
      if (baselineRss === undefined && performance.now() - started >= baselineAtMs)
        baselineRss = rss;
      // Steady rate: the next batch leaves on the second, whether or not this one is done.
      const next = started + second * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
    }
    await Promise.all(inFlight);
    const endRss = await app.rssMb();
    const baseline = baselineRss ?? endRss;
    const drift = (endRss - baseline) / baseline;

    const requests = Object.values(tally).reduce((sum, t) => sum + t.requests, 0);
    const serverErrors = Object.values(tally).reduce((sum, t) => sum + t.serverErrors, 0);
    const failures = Object.values(tally).reduce((sum, t) => sum + t.failures, 0);
    const seconds = Math.round(durationMs / 1000);
    const byKind = (Object.entries(tally) as [Kind, Tally][])
      .map(([kind, t]) => `${t.requests} ${kind} (slowest ${Math.round(t.slowestMs)} ms)`)
      .join(', ');
    const rss = (mb: number) => `${Math.round(mb)} MB`;
    const checks: HardenCheck[] = [
      {
        check: `soak ${seconds} s of mixed load (embedded-postgres): no 5xx, no failed request`,
        result:
          `${requests} requests: ${byKind}; ${serverErrors} × 5xx, ${failures} other failures` +
          (examples.length > 0 ? ` (${examples.join('; ')})` : ''),
        ok: requests > 0 && serverErrors === 0 && failures === 0,
        figures: {
          seconds,
          requests,
          ...Object.fromEntries(
            Object.entries(tally).flatMap(([kind, t]) => [
              [`${kind}_requests`, t.requests],
              [`${kind}_slowest_ms`, Math.round(t.slowestMs)],
            ]),
          ),
          server_errors: serverErrors,
          failures,
        },
      },
      {
        check: `soak ${seconds} s (embedded-postgres): app RSS at the end within 10% of RSS at ${baselineAtMs / 1000} s`,
        result:
          `RSS ${rss(baseline)} at ${baselineAtMs / 1000} s, ${rss(endRss)} at the end ` +
          `(${drift >= 0 ? '+' : ''}${(drift * 100).toFixed(1)}%), peak ${rss(peakRss)}`,
        ok: baselineRss !== undefined && drift <= RSS_DRIFT_LIMIT,
        figures: {
          rss_baseline_mb: Math.round(baseline),
          rss_end_mb: Math.round(endRss),
          rss_peak_mb: Math.round(peakRss),
          rss_drift_percent: Number((drift * 100).toFixed(1)),
        },
      },
    ];
    return checks;
  } finally {
    await app.stop();
    await sink.close();
    await target.dispose();
  }
};
