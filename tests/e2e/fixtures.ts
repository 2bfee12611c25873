import { test as base, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../support/temp-dir';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverEntry = path.join(root, 'dist/server/index.js');

const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const FAILURE_TIMEOUT_MS = 30_000;

/** The banner line that says where the site listens, e.g. `  Site:      http://127.0.0.1:41234/`. */
const SITE_LINE = /^\s*Site:\s+(https?:\/\/\S+)/m;

/**
 * Only what Node itself needs is inherited: any app setting in the caller's environment
 * (DATABASE_URL, NODE_ENV, SMTP_URL, ...) would make the tests depend on the machine.
 */
const INHERITED_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LC_ALL',
  'TZ',
  'SystemRoot',
  'NODE_V8_COVERAGE',
];

export type ServerEnv = Record<string, string>;

export type StartedServer = {
  /** The site's URL from the start banner, with a trailing slash. */
  url: string;
  dataDir: string;
  process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr interleaved in arrival order. */
  logs(): string;
  /** Resolves with the exit code (null when ended by a signal) once the process has exited. */
  exited: Promise<number | null>;
  /**
   * SIGTERM, then SIGKILL if it has not exited within 10 s; removes the data directory when
   * startServer created it. Resolves with the exit code.
   */
  stop(): Promise<number | null>;
};

export type FailedStart = { code: number | null; stdout: string; stderr: string };

// Servers still running, and the data directories made for them: cleaned up if the test
// process exits without stopping them (an interrupted run).
const running = new Set<ChildProcess>();
const ownedDataDirs = new Set<string>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of ownedDataDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh, empty directory for a server's DATA_DIR. */
export function makeDataDir(): Promise<string> {
  return makeTempDir('soul-reset-e2e-');
}

export function removeDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

async function removeOwnedDir(dir: string): Promise<void> {
  await removeDir(dir);
  ownedDataDirs.delete(dir);
}

type Spawned = {
  child: ChildProcess;
  dataDir: string;
  ownsDataDir: boolean;
  stdout(): string;
  stderr(): string;
  logs(): string;
  exited: Promise<number | null>;
};

/** Runs dist/server/index.js on PORT=0 with a fresh DATA_DIR unless `env` names one. */
async function spawnServer(env: ServerEnv): Promise<Spawned> {
  if (!existsSync(serverEntry)) {
    throw new Error(`${serverEntry} is missing: build first (node scripts/build.mjs).`);
  }
  const ownsDataDir = env.DATA_DIR === undefined;
  const dataDir = env.DATA_DIR ?? (await makeDataDir());
  if (ownsDataDir) ownedDataDirs.add(dataDir);
  const inherited = Object.fromEntries(
    INHERITED_ENV.flatMap((name) => {
      const value = process.env[name];
      return value === undefined ? [] : [[name, value]];
    }),
  );
  const child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: { ...inherited, PORT: '0', LOG_LEVEL: 'warn', ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  let logs = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    logs += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    logs += chunk;
  });
  // 'close', not 'exit': by then both pipes are drained, so the captured output is complete.
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) => {
      running.delete(child);
      reject(error);
    });
    child.once('close', (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  exited.catch(() => {});
  return {
    child,
    dataDir,
    ownsDataDir,
    stdout: () => stdout,
    stderr: () => stderr,
    logs: () => logs,
    exited,
  };
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function terminate(spawned: Spawned): Promise<number | null> {
  const { child } = spawned;
  if (!hasExited(child)) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  try {
    return await spawned.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves with the banner's URL; rejects with the captured stderr if the process exits first. */
function waitForBanner(spawned: Spawned, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = () => {
      const match = SITE_LINE.exec(spawned.stdout());
      if (match?.[1]) {
        finish();
        resolve(match[1]);
      }
    };
    const timer = setTimeout(() => {
      finish();
      reject(
        new Error(
          `The server printed no start banner within ${timeoutMs} ms.\n` +
            `stdout:\n${spawned.stdout()}\nstderr:\n${spawned.stderr()}`,
        ),
      );
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      spawned.child.stdout?.off('data', onData);
    };
    spawned.child.stdout?.on('data', onData);
    spawned.exited.then(
      (code) => {
        finish();
        reject(
          new Error(
            `The server exited with code ${code} before it started.\n` +
              `stderr:\n${spawned.stderr() || '(empty)'}`,
          ),
        );
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
    onData();
  });
}

/**
 * Starts the built server (PORT=0, LOG_LEVEL=warn, a fresh DATA_DIR unless `env` sets one,
 * then `env`) and resolves once its start banner is printed.
 */
export async function startServer(env: ServerEnv = {}): Promise<StartedServer> {
  const spawned = await spawnServer(env);
  let stopping: Promise<number | null> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      try {
        return await terminate(spawned);
      } finally {
        if (spawned.ownsDataDir) await removeOwnedDir(spawned.dataDir);
      }
    })());
  try {
    const url = await waitForBanner(spawned, STARTUP_TIMEOUT_MS);
    return {
      url,
      dataDir: spawned.dataDir,
      process: spawned.child,
      stdout: spawned.stdout,
      stderr: spawned.stderr,
      logs: spawned.logs,
      exited: spawned.exited,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Starts the server where it is expected to refuse to start. Resolves with its exit code and
 * output once it exits; rejects if it starts after all, or is still running after 30 s.
 */
export async function runServerExpectingFailure(env: ServerEnv = {}): Promise<FailedStart> {
  const spawned = await spawnServer(env);
  try {
    return await new Promise<FailedStart>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `The server was still running after ${FAILURE_TIMEOUT_MS} ms although it should ` +
              `have failed.\nstdout:\n${spawned.stdout()}\nstderr:\n${spawned.stderr()}`,
          ),
        );
      }, FAILURE_TIMEOUT_MS);
      spawned.child.stdout?.on('data', () => {
        const match = SITE_LINE.exec(spawned.stdout());
        if (match) {
          clearTimeout(timer);
          reject(new Error(`The server started at ${match[1]} although it should have failed.`));
        }
      });
      spawned.exited.then(
        (code) => {
          clearTimeout(timer);
          resolve({ code, stdout: spawned.stdout(), stderr: spawned.stderr() });
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  } finally {
    await terminate(spawned);
    if (spawned.ownsDataDir) await removeOwnedDir(spawned.dataDir);
  }
}

export type ServerInfo = {
  /** The site's URL with a trailing slash. */
  url: string;
  dataDir: string;
  /** Everything the server printed so far. */
  logs(): string;
};

type TestFixtures = {
  /** Console errors and uncaught exceptions of `page`; the test fails unless it stays empty. */
  consoleErrors: string[];
};

type WorkerFixtures = {
  /** Extra environment for this worker's server (set with `test.use({ serverEnv })`). */
  serverEnv: ServerEnv;
  server: ServerInfo;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  serverEnv: [{}, { scope: 'worker', option: true }],

  server: [
    async ({ serverEnv }, use) => {
      const server = await startServer(serverEnv);
      try {
        await use({ url: server.url, dataDir: server.dataDir, logs: server.logs });
      } catch (error) {
        await server.stop();
        throw error;
      }
      const code = await server.stop();
      if (code !== 0) {
        throw new Error(`The server exited with code ${code} on SIGTERM.\n${server.logs()}`);
      }
    },
    { scope: 'worker', timeout: STARTUP_TIMEOUT_MS + 2 * STOP_TIMEOUT_MS + 10_000 },
  ],

  baseURL: async ({ server }, use) => {
    await use(server.url);
  },

  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      // Every Content-Security-Policy violation fails the test, on every route the suite visits.
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `[csp] ${event.effectiveDirective} refused ${event.blockedURI || 'inline'}`,
          );
        });
      });
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const { url, lineNumber } = message.location();
        errors.push(`console.error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
      });
      page.on('pageerror', (error) => {
        errors.push(`uncaught: ${error.stack ?? error.message}`);
      });
      await use(errors);
      expect(errors, 'console errors or uncaught exceptions in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
