// SIGTERM as a service manager sends it: the real entry point (src/server/index.ts) in a
// process of its own on the embedded PostgreSQL, drained while requests are in flight.
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { startBenchServer, type BenchServer } from '../../bench/lib/processes';
import { startSmtpSink } from '../../tests/support/smtp-sink';
import {
  checkoutSession,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
} from '../../tests/support/stripe-events';
import { makeTempDir } from '../../tests/support/temp-dir';
import { authApi } from '../shared/auth';
import { CLUSTER_DIR } from './db/embedded-postgres';
import { WEBHOOK_PATH } from './orders/order-routes';

const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function start(env: Record<string, string>) {
  const dataDir = await makeTempDir('soul-reset-drain-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const sink = await startSmtpSink();
  cleanups.push(() => sink.close());
  const server = await startBenchServer(['--import', 'tsx', entry], {
    NODE_ENV: 'test',
    AUTH_SECRET: 'drain-secret-drain-secret-drain-secret',
    DATA_DIR: dataDir,
    SMTP_URL: sink.url,
    MAIL_TIMEOUT_MS: '8000',
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    // The product file from the sources: the built site may not be there.
    BUNDLE_FILE: fileURLToPath(
      new URL('../client/public/downloads/soul-reset-bundle-sample.pdf', import.meta.url),
    ),
    ...env,
  });
  cleanups.push(() => server.stop());
  const exited = new Promise<number | null>((resolve) => {
    if (server.child.exitCode !== null) resolve(server.child.exitCode);
    server.child.once('exit', (code) => resolve(code));
  });
  return { server, sink, dataDir, exited };
}

/**
 * One request on a connection of its own; the answer's status, headers and JSON body. `body`
 * is sent as JSON, or as it is with `headers` (a signed webhook's exact bytes).
 */
function request(
  server: BenchServer,
  method: string,
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload =
      body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request(
      new URL(url, server.url),
      {
        method,
        agent: new http.Agent({ keepAlive: true }),
        headers: headers ?? (payload ? { 'content-type': 'application/json' } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The PostgreSQL processes (postmaster and children) serving `dataDir`. */
function postgresProcessesOf(dataDir: string): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes(`postgres -D ${path.join(dataDir, CLUSTER_DIR)}`));
}

async function until(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('drains on SIGTERM: readyz 503 at once, every other request served as before with its connection closed, the request in flight completes, exit 0, no PostgreSQL left', async () => {
  const { server, sink, dataDir, exited } = await start({ DRAIN_SECONDS: '1.5' });
  expect(postgresProcessesOf(dataDir).length).toBeGreaterThan(0);
  const before = await request(server, 'GET', '/readyz');
  expect(before.status).toBe(200);
  expect(before.headers.connection).toBe('keep-alive');
  const sessionBefore = await request(server, 'GET', authApi.session);
  expect(sessionBefore.status).toBe(200);

  // A slow request in flight: the free guide's email is sent before it answers, and the mail
  // server holds it.
  const release = sink.hold(() => true);
  cleanups.push(async () => release());
  const slow = request(server, 'POST', '/api/forms/free-guide', {
    name: 'Ada',
    email: 'ada-drain@example.com',
  });
  await until(() => sink.held() === 1, 10_000);

  const signalled = performance.now();
  server.child.kill('SIGTERM');
  // Right after the signal the balancer is told to stop sending here...
  let ready = await request(server, 'GET', '/readyz');
  while (ready.status === 200 && performance.now() - signalled < 1_000) {
    ready = await request(server, 'GET', '/readyz');
  }
  expect(performance.now() - signalled).toBeLessThan(1_000);
  expect(ready).toMatchObject({
    status: 503,
    body: { status: 'draining', database: 'embedded-postgres' },
  });
  expect(ready.headers.connection).toBe('close');
  // ...while everything else that still arrives is served exactly as before (a balancer that
  // has not noticed yet passes no error on to a visitor), each answer closing its connection.
  const health = await request(server, 'GET', '/healthz');
  expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
  expect(health.headers.connection).toBe('close');
  const session = await request(server, 'GET', authApi.session);
  expect(session.status).toBe(200);
  expect(session.body).toEqual(sessionBefore.body);
  expect(session.headers['retry-after']).toBeUndefined();
  expect(session.headers.connection).toBe('close');
  const contact = await request(server, 'POST', '/api/forms/contact', {
    name: 'Bea',
    email: 'bea-drain@example.com',
    message: 'Sent while draining',
  });
  expect(contact).toMatchObject({ status: 200, body: { status: 'success' } });
  expect(contact.headers.connection).toBe('close');
  const order = checkoutSession({
    customer_details: { email: 'cy-drain@example.com', name: 'Cy' },
  });
  const signed = signedEvent(stripeEvent('checkout.session.completed', order));
  const webhook = await request(server, 'POST', WEBHOOK_PATH, signed.payload, signed.headers);
  expect(webhook).toMatchObject({ status: 200, body: { received: true } });
  expect(webhook.headers.connection).toBe('close');
  expect(performance.now() - signalled).toBeLessThan(1_500);

  // After the drain it stops accepting but finishes the request in flight.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(server.child.exitCode).toBeNull();
  release();
  const answer = await slow;
  expect(answer).toMatchObject({ status: 200, body: { status: 'success', emailSent: true } });
  expect(answer.headers.connection).toBe('close');

  expect(await exited).toBe(0);
  expect(server.output()).not.toMatch(/error/i);
  expect(postgresProcessesOf(dataDir)).toEqual([]);
}, 90_000);

it('stops at once on a second signal during the drain, and leaves no PostgreSQL behind', async () => {
  const { server, dataDir, exited } = await start({ DRAIN_SECONDS: '60' });
  server.child.kill('SIGTERM');
  const draining = await request(server, 'GET', '/readyz');
  expect(draining.status).toBe(503);
  const signalled = performance.now();
  server.child.kill('SIGINT');
  expect(await exited).toBe(1);
  expect(performance.now() - signalled).toBeLessThan(2_000);
  await until(() => postgresProcessesOf(dataDir).length === 0, 10_000);
}, 90_000);
