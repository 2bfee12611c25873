// The logs of the real entry point (src/server/index.ts) in a terminal, as an operator sees
// them: a pseudo-terminal from `script`, with and without NODE_ENV=production.
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { makeTempDir } from '../../tests/support/temp-dir';

const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The entry point in a terminal of its own; its output with the terminal's \r removed. */
async function startInTerminal(env: Record<string, string>) {
  const dataDir = await makeTempDir('soul-reset-logs-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const { PATH, HOME, TMPDIR, LANG, TZ } = process.env;
  const child: ChildProcess = spawn(
    'script',
    ['-qfec', `${process.execPath} --import tsx ${entry}`, '/dev/null'],
    {
      env: Object.fromEntries(
        Object.entries({
          PATH,
          HOME,
          TMPDIR,
          LANG,
          TZ,
          HOST: '127.0.0.1',
          PORT: '0',
          DATA_DIR: dataDir,
          AUTH_SECRET: 'logs-secret-logs-secret-logs-secret-logs',
          LOG_LEVEL: 'info',
          DRAIN_SECONDS: '0',
          ...env,
        }).filter(([, value]) => value !== undefined),
      ),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group: the stop reaches the server under `script`.
      detached: true,
    },
  );
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  });
  const text = () => output.replace(/\r/g, '');
  const url = await until(() => /^\s*Site:\s+(http:\/\/\S+?)\/?$/m.exec(text())?.[1], 90_000);
  return { url, text };
}

async function until<T>(value: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = value();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('writes one readable line per request, and readable messages, in a terminal outside production', async () => {
  const { url, text } = await startInTerminal({ NODE_ENV: 'development' });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const refused = await fetch(`${url}/api/forms/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(refused.status).toBe(400);
  await until(() => (/POST \/api\/forms\/contact 400/.test(text()) ? true : undefined), 10_000);
  const lines = text().split('\n');
  expect(lines.filter((line) => line.includes('/healthz'))).toEqual([
    expect.stringMatching(/^\d\d:\d\d:\d\d GET \/healthz 200 \d+\.\d ms$/),
  ]);
  expect(lines.filter((line) => line.includes('/api/forms/contact'))).toEqual([
    expect.stringMatching(/^\d\d:\d\d:\d\d POST \/api\/forms\/contact 400 \d+\.\d ms$/),
  ]);
  expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
  expect(text()).not.toContain('incoming request');
}, 120_000);

it('writes JSON lines under NODE_ENV=production, in a terminal too', async () => {
  const { url, text } = await startInTerminal({ NODE_ENV: 'production' });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const entries = () =>
    text()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } });
  const completed = await until(
    () => entries().find((e) => e.msg === 'request completed') ?? undefined,
    10_000,
  );
  expect(completed).toBeDefined();
  expect(entries().find((e) => e.msg === 'incoming request')?.req?.url).toBe('/healthz');
  expect(text()).not.toMatch(/^\d\d:\d\d:\d\d GET \/healthz/m);
}, 120_000);
