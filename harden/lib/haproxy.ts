import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { firstExecutable, foreground } from './nginx';

/** Debian's HAProxy, or HAPROXY_PATH. */
export function findHaproxy(): string | undefined {
  return firstExecutable([process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/bin/haproxy']);
}

export const HAPROXY_CONFIG = 'deploy/haproxy/haproxy.cfg';

/**
 * deploy/'s HAProxy configuration for `upstreams` on `listen`: its `bind` moved to a free
 * loopback port, its `server` lines replaced by one per instance (named s0, s1, ...), its
 * syslog line dropped, and a stats socket under `prefix` to read each server's state.
 * Everything else (the /readyz check, its timing, the retries) is deploy/'s as it is.
 */
export function haproxyConfig(
  source: string,
  values: { listen: string; upstreams: string[]; socket: string },
): string {
  const lines = source.split('\n');
  const out: string[] = [];
  let serversAt = -1;
  for (const line of lines) {
    if (/^\s*log \/dev\/log\b/.test(line)) continue;
    if (/^\s*bind\s/.test(line)) {
      out.push(`    bind ${values.listen}`);
      continue;
    }
    if (/^\s*server\s/.test(line)) {
      if (serversAt < 0) serversAt = out.length;
      continue;
    }
    out.push(line);
    if (/^global\b/.test(line)) out.push(`    stats socket ${values.socket} mode 600 level admin`);
  }
  if (serversAt < 0) throw new Error(`No server lines in ${HAPROXY_CONFIG} to replace`);
  out.splice(serversAt, 0, ...values.upstreams.map((address, i) => `    server s${i} ${address}`));
  return out.join('\n');
}

export type Haproxy = {
  url: string;
  /** Whether HAProxy's check counts the instance at `address` up (it gets requests). */
  isUp(address: string): Promise<boolean>;
  log(): Promise<string>;
  stop(): Promise<void>;
};

/** One command on HAProxy's stats socket, and its answer. */
function ask(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const connection = net.createConnection(socket, () => connection.end(`${command}\n`));
    connection.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    connection.on('end', () => resolve(answer));
    connection.on('error', reject);
  });
}

/** HAProxy in the foreground with deploy/'s configuration; resolves once it answers. */
export async function startHaproxy(
  binary: string,
  root: string,
  port: number,
  upstreams: string[],
): Promise<Haproxy> {
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-haproxy-'));
  const socket = path.join(prefix, 'stats.sock');
  const configFile = path.join(prefix, 'haproxy.cfg');
  const source = await readFile(path.join(root, HAPROXY_CONFIG), 'utf8');
  await writeFile(
    configFile,
    haproxyConfig(source, { listen: `127.0.0.1:${port}`, upstreams, socket }),
  );
  // -db: in the foreground; SIGUSR1: its graceful stop.
  const { child, output, stop } = foreground(binary, ['-db', '-f', configFile], 'SIGUSR1', prefix);
  const isUp = async (address: string) => {
    const i = upstreams.indexOf(address);
    // `show servers state`: ... srv_name srv_addr srv_op_state (2: running) ...
    const state = await ask(socket, 'show servers state').catch(() => '');
    return state.split('\n').some((line) => {
      const fields = line.split(' ');
      return fields[3] === `s${i}` && fields[5] === '2';
    });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`haproxy exited (${HAPROXY_CONFIG}):\n${output()}`);
    }
    const up = (await Promise.all(upstreams.map(isUp))).every(Boolean);
    if (up) break;
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`haproxy did not count every instance up within 15 s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, isUp, log: async () => output(), stop };
}
