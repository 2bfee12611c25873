import { resultSections } from './report';

type AnyRecord = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Keys of the bench's JSON that describe the run rather than a part. */
const RUN_KEYS = new Set(['started_at', 'machine', 'commit', 'seconds', 'quick', 'options']);

const partKey = (part: string) => part.replaceAll('-', '_');

/** What the run was measured on, in one line. */
function machineLine(machine: AnyRecord | undefined): string {
  if (!machine) return 'not recorded';
  return [
    machine.cpu_model && `${machine.cpus} × ${machine.cpu_model}`,
    !machine.cpu_model && machine.cpus && `${machine.cpus} CPUs`,
    machine.memory_gb && `${machine.memory_gb} GB memory`,
    machine.os,
    machine.node && `Node ${machine.node.replace(/^v/, '')}`,
    machine.load_average && `load average ${machine.load_average.join(' / ')} at the start`,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * docs/bench-results.md from one run's JSON (`npm run bench -- --out FILE`): the date, commit
 * and machine, then each part's tables as the bench prints them. A part without a table of its
 * own in report.ts is shown as its JSON, so a new part is never left out.
 */
export function benchResultsPage(results: AnyRecord): string {
  const sections = resultSections(results);
  const covered = new Set(sections.map((section) => partKey(section.part)));
  const seconds = (results.seconds ?? {}) as Record<string, number>;
  const commit = results.commit as AnyRecord | undefined;
  const lines = [
    '# Benchmark results',
    '',
    'For contributors: the latest run of `npm run bench`, one section per part. What each part',
    'measures, and how to run it, is in [Bench and harden](bench-and-harden.md); older runs are in',
    "this file's git history.",
    '',
    '<!-- Written by `npm run docs -- --bench FILE` from the JSON of `npm run bench -- --out FILE`. -->',
    '',
    `- **Date**: ${results.started_at ?? 'not recorded'}`,
    `- **Commit**: ${commit ? `\`${commit.sha}\`${commit.dirty ? ' with uncommitted changes' : ''}` : 'not recorded'}`,
    `- **Machine**: ${machineLine(results.machine)}`,
    `- **Run**: ${results.quick ? '`--quick` (smoke sizes: figures are not comparable with a full run)' : 'full'}${
      results.options?.only ? `, parts ${results.options.only.join(', ')}` : ''
    }`,
  ];
  const total = Object.values(seconds).reduce((sum, value) => sum + value, 0);
  if (total > 0) {
    lines.push(
      `- **Seconds per part**: ${Object.entries(seconds)
        .map(([part, value]) => `${part} ${value}`)
        .join(', ')} (${total} s)`,
    );
  }
  for (const section of sections) {
    lines.push('', `## ${section.part}`, section.text.replace(/^\n+/, '\n'));
  }
  for (const [key, value] of Object.entries(results)) {
    if (RUN_KEYS.has(key) || covered.has(key)) continue;
    lines.push(
      '',
      `## ${key.replaceAll('_', '-')}`,
      '',
      '```json',
      JSON.stringify(value, null, 2),
      '```',
    );
  }
  return `${lines.join('\n')}\n`;
}
