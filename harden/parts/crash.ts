import { startSmtpSink } from '../../tests/support/smtp-sink';
import { startApp } from '../lib/app-process';
import { createTarget, readRows, type DatabaseTarget } from '../lib/database-target';
import { submitForm, uniqueEmail } from '../lib/form-client';
import type { HardenCheck, HardenContext, HardenPart } from '../part';

const CONCURRENCY = 30;

/**
 * kill -9 under a sustained submit load, then a restart on the same data: every submission
 * that was answered success is stored, and the restarted server opens the data and serves.
 */
export const crash: HardenPart = async (context) => {
  const checks: HardenCheck[] = [];
  if (context.postgresAdminUrl) checks.push(await crashUnderLoad(context, 'postgres'));
  else
    checks.push({
      check: 'kill -9 under submit load (postgres)',
      result: 'skipped: set TEST_DATABASE_URL to run it',
      ok: true,
    });
  checks.push(await crashUnderLoad(context, 'embedded-postgres'));
  return checks;
};

type Load = { acknowledged: Set<string>; refusedBeforeKill: string[]; requests: number };

async function crashUnderLoad(
  context: HardenContext,
  kind: 'postgres' | 'embedded-postgres',
): Promise<HardenCheck> {
  const loadMs = context.quick ? 2_000 : 5_000;
  const target = await createTarget(
    kind,
    context.scratchDir,
    `crash-${kind}`,
    context.postgresAdminUrl,
  );
  const sink = await startSmtpSink();
  const env = { ...target.env, SMTP_URL: sink.url, FORM_RATE_LIMIT: '1000000' };
  try {
    const first = await startApp(context.root, env);
    const load = await loadUntilKilled(first.url, kind, loadMs, () => first.kill9());
    const storedBeforeRestart = (await storedEmails(target)).size;

    const second = await startApp(context.root, env);
    const afterRestart = uniqueEmail(`crash-${kind}-after`);
    const reply = await submitForm(second.url, 'order', afterRestart);
    await second.stop();
    const stored = await storedEmails(target);
    return judge(kind, loadMs, load, stored, {
      readyMs: second.readyMs,
      answered: reply.status === 200 && reply.body?.status === 'success',
      storedAfterRestart: stored.has(afterRestart),
      countHeld: stored.size === storedBeforeRestart + 1,
    });
  } finally {
    await sink.close();
    await target.dispose();
  }
}

/** CONCURRENCY loops of unique order submissions for `loadMs`, then `kill` mid-load. */
async function loadUntilKilled(
  url: string,
  kind: string,
  loadMs: number,
  kill: () => Promise<void>,
): Promise<Load> {
  const load: Load = { acknowledged: new Set(), refusedBeforeKill: [], requests: 0 };
  let killed = false;
  let running = true;
  const loops = Array.from({ length: CONCURRENCY }, async (_, loop) => {
    while (running) {
      const email = uniqueEmail(`crash-${kind}-${loop}`);
      load.requests += 1;
      try {
        const reply = await submitForm(url, 'order', email);
        if (reply.status === 200 && reply.body?.status === 'success') load.acknowledged.add(email);
        else if (!killed) load.refusedBeforeKill.push(`${reply.status} ${reply.body?.message}`);
      } catch (error) {
        if (!killed) load.refusedBeforeKill.push(String(error));
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, loadMs));
  killed = true;
  await kill();
  running = false;
  await Promise.all(loops);
  return load;
}

async function storedEmails(target: DatabaseTarget): Promise<Set<string>> {
  return new Set((await readRows(target, 'form_submissions')).map((row) => row.email));
}

function judge(
  kind: string,
  loadMs: number,
  load: Load,
  stored: Set<string>,
  restart: { readyMs: number; answered: boolean; storedAfterRestart: boolean; countHeld: boolean },
): HardenCheck {
  const acknowledged = load.acknowledged.size;
  const missing = [...load.acknowledged].filter((email) => !stored.has(email)).length;
  const storedFromLoad = stored.size - (restart.storedAfterRestart ? 1 : 0);
  const unacknowledged = storedFromLoad - (acknowledged - missing);
  const ok =
    acknowledged > 0 &&
    missing === 0 &&
    load.refusedBeforeKill.length === 0 &&
    restart.answered &&
    restart.storedAfterRestart &&
    restart.countHeld;
  const problems = [
    load.refusedBeforeKill.length > 0 &&
      `${load.refusedBeforeKill.length} refused before the kill (${load.refusedBeforeKill[0]})`,
    !restart.answered && 'the restarted server did not accept a submission',
    !restart.storedAfterRestart && 'the submission after the restart is not stored',
    !restart.countHeld && 'the row count changed across the restart',
  ].filter(Boolean);
  return {
    check: `kill -9 under submit load, restart (${kind}): every acknowledged row stored`,
    result:
      `${acknowledged} acknowledged in ${loadMs / 1000} s, ${storedFromLoad} stored, ` +
      `${missing} missing, ${unacknowledged} stored unacknowledged; ` +
      `restarted and ready in ${Math.round(restart.readyMs)} ms` +
      (problems.length > 0 ? `; ${problems.join('; ')}` : ''),
    ok,
    figures: {
      concurrency: CONCURRENCY,
      requests: load.requests,
      acknowledged,
      stored: storedFromLoad,
      missing,
      stored_unacknowledged: unacknowledged,
      refused_before_kill: load.refusedBeforeKill.length,
      restart_ready_ms: Math.round(restart.readyMs),
    },
  };
}
