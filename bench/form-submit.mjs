// Submit latency of the order form: the built server (outbox mail transport) under autocannon,
// each request a new visitor, so every one runs the whole flow (duplicate check, insert, mail
// to DATA_DIR/outbox, update). Bounded in time, loopback only.
//
//   npm run build
//   node bench/form-submit.mjs                 # PGlite, and PostgreSQL when TEST_DATABASE_URL is set
//   node bench/form-submit.mjs pglite|postgres
//   BENCH_CONNECTIONS=10 BENCH_SECONDS=10 node bench/form-submit.mjs
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const kinds = process.argv[2] ? [process.argv[2]] : adminUrl ? ['pglite', 'postgres'] : ['pglite'];

async function withAdmin(run) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function startServer(env) {
  const child = spawn(process.execPath, [path.join(root, 'dist/server/index.js')], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No start banner:\n${output}`)), 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const match = /^\s*Site:\s+(\S+)/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`Server exited (${code}):\n${output}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

function run(url) {
  let visitor = 0;
  return autocannon({
    url: new URL('api/forms/order', url).toString(),
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            name: 'Bench Visitor',
            email: `bench-${process.pid}-${++visitor}@example.com`,
            message: 'Can I pay by card? I would like the bundle for my sister.',
          }),
        }),
      },
    ],
  });
}

for (const kind of kinds) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-bench-'));
  const env = { DATA_DIR: dataDir, FORM_RATE_LIMIT: '100000000' };
  let database;
  if (kind === 'postgres') {
    if (!adminUrl) throw new Error('postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
    database = `soul_reset_bench_${process.pid}`;
    await withAdmin((client) => client.query(`create database "${database}"`));
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
  }
  const server = await startServer(env);
  try {
    // Warm up (JIT, connection pool, first outbox write) before measuring.
    await autocannon({ url: new URL('healthz', server.url).toString(), amount: 200 });
    const result = await run(server.url);
    const ok = result['2xx'];
    console.log(
      `${kind.padEnd(8)} ${connections} connections, ${seconds} s: ` +
        `${ok} submissions (${result.non2xx} non-2xx, ${result.errors} errors), ` +
        `${result.requests.average.toFixed(0)} req/s, latency p50 ${result.latency.p50} ms, ` +
        `p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    );
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (database) {
      await withAdmin((client) =>
        client.query(`drop database if exists "${database}" with (force)`),
      );
    }
  }
}
