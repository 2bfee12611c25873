import { readdir, readFile } from 'node:fs/promises';

/** `pid` and every process below it (the embedded PostgreSQL under its watching shell). */
export async function processTree(pid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(parent))
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/**
 * Proportional set size of the processes, summed, in MB: each shared page (PostgreSQL's
 * shared buffers, the libraries) counted once across them, unlike RSS.
 */
export async function pssMb(pids: number[]): Promise<number> {
  let kb = 0;
  for (const pid of pids) {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    kb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  }
  return kb / 1024;
}
