import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createScratchDatabase } from '../../bench/lib/postgres';
import type { FuzzAppResult } from '../../tests/support/fuzz/fuzz-app';
import type { RouteReport } from '../../tests/support/fuzz/fuzz-route';
import type { HardenCheck, HardenPart } from '../part';

/** Inputs per route, shared out among the databases. */
const FULL_RUNS = 10_000;
const QUICK_RUNS = 1_000;

type DatabaseResult = FuzzAppResult & { kind: string; seconds: number };

/** Runs fuzz-database.ts in a child process and reads its JSON answer. */
function fuzzDatabase(
  root: string,
  args: { kind: string; url?: string; runs: number; dataDir: string },
): Promise<DatabaseResult> {
  const argv = ['--kind', args.kind, '--runs', String(args.runs), '--data-dir', args.dataDir];
  if (args.url) argv.push('--url', args.url);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'harden/fuzz/fuzz-database.ts'), ...argv],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').at(-1);
      if (code === 0 && line) resolve(JSON.parse(line) as DatabaseResult);
      else reject(new Error(`${args.kind} fuzz exited ${code}: ${stderr.slice(-1000)}`));
    });
  });
}

const count = (n: number) => n.toLocaleString('en-US');

function routeCheck(route: string, results: DatabaseResult[]): HardenCheck {
  const reports = results.map((result) => ({
    kind: result.kind,
    report: result.routes.find((r) => r.route === route)!,
  }));
  const sum = (key: keyof Omit<RouteReport, 'route' | 'failure'>) =>
    reports.reduce((total, { report }) => total + report[key], 0);
  const failure = reports.find(({ report }) => report.failure !== null);
  const figures = {
    inputs: sum('inputs'),
    '5xx': sum('5xx'),
    '4xx': sum('4xx'),
    '429': sum('429'),
    '2xx': sum('2xx'),
    invalid_rows: sum('invalidRows'),
    ...Object.fromEntries(reports.map(({ kind, report }) => [`inputs_${kind}`, report.inputs])),
  };
  const split = reports.map(({ kind, report }) => `${kind} ${count(report.inputs)}`).join(' + ');
  const result =
    `${count(figures.inputs)} inputs (${split}): ${count(figures['5xx'])} × 5xx, ` +
    `${count(figures['4xx'])} × 4xx (${count(figures['429'])} × 429), ` +
    `${count(figures['2xx'])} × 2xx, ${count(figures.invalid_rows)} invalid rows`;
  return {
    check: `fuzz ${route}`,
    result: failure ? `${result}; ${failure.kind}: ${failure.report.failure}` : result,
    ok: !failure && figures['5xx'] === 0 && figures.invalid_rows === 0,
    figures,
  };
}

/**
 * Sends generated hostile inputs to the five form routes, both sign-in routes and the four
 * admin table routes (as the admin), in-process over a fresh embedded PostgreSQL and a scratch PostgreSQL
 * database at once, one child process each; see tests/support/fuzz for the inputs and checks.
 */
export const fuzz: HardenPart = async (context) => {
  const total = context.quick ? QUICK_RUNS : FULL_RUNS;
  const scratch = context.postgresAdminUrl
    ? await createScratchDatabase(context.postgresAdminUrl)
    : undefined;
  const databases = [
    { kind: 'embedded-postgres' },
    ...(scratch ? [{ kind: 'postgres', url: scratch.url }] : []),
  ];
  const runs = Math.ceil(total / databases.length);
  try {
    // Settled, not all: a failed child must not leave the other writing into a removed folder.
    const settled = await Promise.allSettled(
      databases.map(async (database) => {
        const dataDir = path.join(context.scratchDir, database.kind);
        await mkdir(dataDir, { recursive: true });
        return fuzzDatabase(context.root, { ...database, runs, dataDir });
      }),
    );
    const failed = settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
    if (failed.length > 0) throw new Error(failed.join('\n'));
    const results = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const routes = results[0]!.routes.map((report) => report.route);
    return [
      ...routes.map((route) => routeCheck(route, results)),
      ...results.map((result): HardenCheck => ({
        check: `fuzz: the app serves afterwards [${result.kind}]`,
        result:
          result.afterwards ??
          `health, a valid submission and an admin sign-in answered; Object.prototype clean; ${Math.round(result.seconds)} s`,
        ok: result.afterwards === null,
        figures: { seconds: Math.round(result.seconds) },
      })),
    ];
  } finally {
    await scratch?.drop();
  }
};
