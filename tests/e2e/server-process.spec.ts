// The server as a process: start-up refusals, the data directory lock and graceful shutdown.
// No browser: the base test is used so that no page is opened.
import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { homeJsSize } from '../../scripts/home-js-size.mjs';
import { makeDataDir, removeDir, runServerExpectingFailure, startServer } from './fixtures';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function expectReady(url: string) {
  const response = await fetch(new URL('readyz', url));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    status: 'ready',
    database: 'embedded-postgres',
    mail: { pending: 0, oldestPendingSeconds: 0, failedLastDay: 0, late: false },
  });
}

test('a second server on the same data directory refuses to start', async () => {
  const first = await startServer();
  try {
    const second = await runServerExpectingFailure({ DATA_DIR: first.dataDir });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /^Cannot start: The data directory .+ is in use by another process \(pid \d+\)\./m,
    );
    expect(second.stderr).toContain(`(pid ${first.process.pid})`);
    expect(second.stderr).not.toContain('    at ');
    await expectReady(first.url);
  } finally {
    expect(await first.stop()).toBe(0);
  }
});

for (const [name, value] of [
  ['PORT', 'abc'],
  ['DATABASE_URL', 'nonsense'],
] as const) {
  test(`${name}=${value} is refused with one clear line`, async () => {
    const result = await runServerExpectingFailure({ [name]: value });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Cannot start: Invalid configuration: ${name}\\b`));
    expect(result.stderr).not.toContain('    at ');
    expect(result.stdout).not.toMatch(/Site:/);
  });
}

type RawResponse = { status: number; headers: Record<string, string>; body: Buffer };

/** Splits a stream of HTTP/1.1 responses with Content-Length bodies. */
function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let offset = 0;
  while (offset < data.length) {
    const headerEnd = data.indexOf('\r\n\r\n', offset);
    if (headerEnd < 0) throw new Error(`Truncated response headers at byte ${offset}`);
    const [statusLine = '', ...headerLines] = data
      .subarray(offset, headerEnd)
      .toString('latin1')
      .split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
    const headers = Object.fromEntries(
      headerLines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length']);
    if (!Number.isInteger(length)) throw new Error(`No Content-Length in: ${statusLine}`);
    const bodyStart = headerEnd + 4;
    if (bodyStart + length > data.length) throw new Error(`Truncated body after: ${statusLine}`);
    responses.push({ status, headers, body: data.subarray(bodyStart, bodyStart + length) });
    offset = bodyStart + length;
  }
  return responses;
}

test('SIGTERM lets in-flight requests finish, closes cleanly, and the data survives', async () => {
  const dataDir = await makeDataDir();
  try {
    // LOG_LEVEL=info: the test follows the "incoming request" and "stopped cleanly" lines.
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    let stopped = false;
    let socket: net.Socket | undefined;
    try {
      await expectReady(server.url);
      // The largest script the home page loads (the start script in the HTML is tiny).
      const { files } = await homeJsSize(path.join(root, 'dist/client'));
      const largest = files.reduce((a, b) => (b.raw > a.raw ? b : a));
      const assetPath = `/${largest.file}`;
      const asset = Buffer.from(await (await fetch(new URL(assetPath, server.url))).arrayBuffer());
      expect(asset.length).toBeGreaterThan(0);

      // Keep requests in flight across the SIGTERM: pipeline enough downloads of the script on
      // one connection that their bytes are unlikely to fit in socket buffers (twice the most
      // the kernel lets both ends buffer), and read none of them until the signal has been
      // sent. The server has to finish every one of them before it exits.
      const count = Math.ceil((2 * (await maxSocketBufferBytes())) / asset.length);
      const { hostname, port } = new URL(server.url);
      const connection = net.connect(Number(port), hostname);
      socket = connection;
      // Paused before any 'data' listener: nothing is read until resume().
      connection.pause();
      await new Promise<void>((resolve, reject) => {
        connection.once('connect', resolve).once('error', reject);
      });
      const received: Buffer[] = [];
      const closed = new Promise<void>((resolve, reject) => {
        connection.on('data', (chunk: Buffer) => received.push(chunk));
        connection.once('end', resolve).once('error', reject);
      });
      // Pino logs each request's client port: count only this connection's requests.
      const fromThisConnection = `"remotePort":${connection.localPort}`;
      const incoming = () =>
        server
          .stdout()
          .split('\n')
          .filter(
            (line) => line.includes('"incoming request"') && line.includes(fromThisConnection),
          ).length;
      connection.write(
        `GET ${assetPath} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`.repeat(count - 1) +
          `GET ${assetPath} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`,
      );
      await expect.poll(incoming, { message: 'all requests reached the server' }).toBe(count);

      server.process.kill('SIGTERM');
      await expect
        .poll(() => server.stdout(), { message: 'the server logged the signal' })
        .toContain('SIGTERM');
      // Whether the server is still writing or the kernel already holds every byte, each
      // request in flight must get its whole response.
      connection.resume();
      await closed;
      const responses = parseResponses(Buffer.concat(received));
      expect(responses).toHaveLength(count);
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.body.equals(asset)).toBe(true);
      }

      expect(await server.exited).toBe(0);
      stopped = true;
      const logLines = server
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg?: string });
      expect(logLines.map((line) => line.msg)).toContain('stopped cleanly');
      expect(server.stderr()).toBe('');
      expect(existsSync(path.join(dataDir, 'app.lock'))).toBe(false);
    } finally {
      socket?.destroy();
      if (!stopped) await server.stop();
    }

    const before = await readdir(dataDir);
    const again = await startServer({ DATA_DIR: dataDir });
    try {
      await expectReady(again.url);
      expect(await readdir(dataDir)).toEqual(expect.arrayContaining(before));
    } finally {
      expect(await again.stop()).toBe(0);
    }
    expect(existsSync(path.join(dataDir, 'app.lock'))).toBe(false);
  } finally {
    await removeDir(dataDir);
  }
});

/** The most a loopback connection can buffer: receive plus send buffer limits (Linux). */
async function maxSocketBufferBytes(): Promise<number> {
  const limit = async (file: string) => {
    const text = await readFile(file, 'utf8').catch(() => '');
    return Number(text.trim().split(/\s+/)[2]) || 16 * 1024 * 1024;
  };
  return (
    (await limit('/proc/sys/net/ipv4/tcp_rmem')) + (await limit('/proc/sys/net/ipv4/tcp_wmem'))
  );
}
