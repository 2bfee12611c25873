import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';

const SITE_LINE = /^\s*Site:\s+(https?:\/\/\S+?)\/?$/m;

export type BenchServer = {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn until /readyz answered 200. */
  readyMs: number;
  rssMb(): Promise<number>;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  stop(): Promise<void>;
};

/** The environment a server gets: only what Node needs, plus the bench's own settings. */
function serverEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { PATH, HOME, TMPDIR, LANG, TZ } = process.env;
  const base = Object.fromEntries(
    Object.entries({ PATH, HOME, TMPDIR, LANG, TZ }).filter(([, value]) => value !== undefined),
  );
  // No balancer in front of a bench server: its stop need not drain (DRAIN_SECONDS, 5 s in
  // production). A caller that measures a drain sets it.
  return {
    ...base,
    PORT: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DRAIN_SECONDS: '0',
    ...env,
  };
}

/**
 * Spawns `node <args>` (a server that prints the start banner), waits for the banner and
 * then for /readyz, and times the whole start from the spawn.
 */
export async function startBenchServer(
  args: string[],
  env: Record<string, string>,
  options: {
    /** Another user to run as (the caller is root). */
    user?: { uid: number; gid: number };
    /** Called at once with the new process, before it is ready (to watch its start). */
    onSpawn?: (child: ChildProcess) => void;
  } = {},
): Promise<BenchServer> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: serverEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options.user,
  });
  options.onSpawn?.(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`No start banner in 120 s:\n${output}`)),
        120_000,
      );
      const check = () => {
        const match = SITE_LINE.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', check);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`The server exited before it started:\n${output}`));
      });
    });
    await waitUntilReady(url);
    const readyMs = performance.now() - started;
    return {
      url,
      child,
      readyMs,
      rssMb: async () => {
        const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]);
        return kb / 1024;
      },
      output: () => output,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilReady(url: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const ok = await fetch(`${url}/readyz`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${url}/readyz did not answer 200 within 60 s`);
}
