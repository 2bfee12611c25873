import autocannon from 'autocannon';
import os from 'node:os';
import path from 'node:path';
import { instance, type Instance } from '../../harden/lib/instance';
import { findNginx, nginxConfigSource, startNginx } from '../../harden/lib/nginx';
import { freePort } from '../../tests/support/free-port';
import { createScratchDatabase } from '../lib/postgres';
import { startSinkProcess } from '../lib/smtp-sink-process';
import { sizes } from '../lib/sizes';
import { median } from '../lib/stats';
import { CONNECTIONS, loadResult, ORDER_ROUTE, type LoadResult } from './submit';

/**
 * Seconds of each load, and alternating rounds: a machine getting busier or quieter favours no
 * setup. Other work on shared cores halves a round now and then, so the best round is kept
 * beside the median.
 */
const SIZES = { full: { loadS: 5, rounds: 4 }, quick: { loadS: 1, rounds: 1 } };

type Setup = 'direct' | 'nginx_1' | 'nginx_3';
const SETUPS: Setup[] = ['direct', 'nginx_1', 'nginx_3'];
type Route = 'home' | 'submit';

export type BalancerResults =
  | { skipped: string }
  | {
      cpus: number;
      template: string;
      /** Per route and setup: the median of the rounds, every round's req/s and the best. */
      routes: Record<Route, Record<Setup, LoadResult & { rounds_rps: number[]; best_rps: number }>>;
      /** nginx over one instance vs the instance alone; three instances vs one behind nginx. */
      ratios: Record<Route, { nginx_1_to_direct: number; nginx_3_to_nginx_1: number }>;
    };

let sequence = 0;

function run(url: string, route: Route): Promise<LoadResult> {
  const request =
    route === 'home'
      ? { method: 'GET' as const, path: '/' }
      : {
          method: 'POST' as const,
          path: ORDER_ROUTE,
          setupRequest: (request: autocannon.Request) => {
            sequence += 1;
            return {
              ...request,
              headers: { ...request.headers, 'content-type': 'application/json' },
              body: JSON.stringify({
                name: 'Bench Visitor',
                email: `balancer-${process.pid}-${sequence}@example.com`,
                message: 'I would like to know more about the bundle.',
              }),
            };
          },
        };
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: sizes(SIZES).loadS,
    requests: [request],
  }).then(loadResult);
}

/**
 * Requests per second on the home page and the order form's submit, 50 connections: one
 * instance on its own, nginx (the deploy/ template) in front of it, and nginx in front of
 * three instances on one PostgreSQL database, in alternating rounds. On a machine with
 * few cores the three instances share the same cores, so the ratio shows what the balancer
 * costs, not how the site scales.
 */
export async function benchBalancer(
  root: string,
  scratchDir: string,
  postgresAdminUrl?: string,
): Promise<BalancerResults> {
  if (!postgresAdminUrl)
    return { skipped: 'three instances share one PostgreSQL: set TEST_DATABASE_URL' };
  const binary = findNginx();
  if (!binary) return { skipped: 'no nginx (apt-get install -y nginx)' };
  const database = await createScratchDatabase(postgresAdminUrl);
  const sink = await startSinkProcess(root);
  const ports = [await freePort(), await freePort(), await freePort()];
  const nginxPorts = { nginx_1: await freePort(), nginx_3: await freePort() };
  const instances: Instance[] = ports.map((port, i) =>
    instance(root, port, {
      DATABASE_URL: database.url,
      DATA_DIR: path.join(scratchDir, `balancer-${i}`),
      SMTP_URL: sink.url,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
      FORM_RATE_LIMIT: '1000000000',
      TRUST_PROXY: 'loopback',
      // The form's Origin check: autocannon sends none, so any public URL will do.
      PUBLIC_URL: `http://127.0.0.1:${nginxPorts.nginx_3}`,
    }),
  );
  const started: { stop(): Promise<void> }[] = [];
  try {
    await instances[0]!.start();
    await Promise.all(instances.slice(1).map((one) => one.start()));
    const nginx1 = await startNginx(binary, root, nginxPorts.nginx_1, [instances[0]!.address]);
    started.push(nginx1);
    const nginx3 = await startNginx(
      binary,
      root,
      nginxPorts.nginx_3,
      instances.map((one) => one.address),
    );
    started.push(nginx3);
    const urls: Record<Setup, string> = {
      direct: instances[0]!.current()!.url,
      nginx_1: nginx1.url,
      nginx_3: nginx3.url,
    };
    // Warm-up: JIT, pools and nginx's upstream connections on every instance.
    for (const setup of SETUPS) await run(urls[setup], 'home');
    const rounds: Record<Route, Record<Setup, LoadResult[]>> = {
      home: { direct: [], nginx_1: [], nginx_3: [] },
      submit: { direct: [], nginx_1: [], nginx_3: [] },
    };
    for (let round = 0; round < sizes(SIZES).rounds; round += 1) {
      const order = round % 2 === 0 ? SETUPS : [...SETUPS].reverse();
      for (const route of ['home', 'submit'] as const) {
        for (const setup of order) rounds[route][setup].push(await run(urls[setup], route));
      }
    }
    const summary = (list: LoadResult[]) => {
      const middle = [...list].sort((a, b) => a.rps - b.rps)[Math.floor((list.length - 1) / 2)]!;
      return {
        ...middle,
        rps: median(list.map((r) => r.rps)),
        rounds_rps: list.map((r) => r.rps),
        best_rps: Math.max(...list.map((r) => r.rps)),
      };
    };
    const routes = Object.fromEntries(
      (['home', 'submit'] as const).map((route) => [
        route,
        Object.fromEntries(SETUPS.map((setup) => [setup, summary(rounds[route][setup])])),
      ]),
    ) as Record<Route, Record<Setup, LoadResult & { rounds_rps: number[]; best_rps: number }>>;
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    return {
      cpus: os.cpus().length,
      template: nginxConfigSource(root),
      routes,
      ratios: Object.fromEntries(
        (['home', 'submit'] as const).map((route) => [
          route,
          {
            nginx_1_to_direct: ratio(routes[route].nginx_1.rps, routes[route].direct.rps),
            nginx_3_to_nginx_1: ratio(routes[route].nginx_3.rps, routes[route].nginx_1.rps),
          },
        ]),
      ) as Record<Route, { nginx_1_to_direct: number; nginx_3_to_nginx_1: number }>,
    };
  } finally {
    for (const one of started) await one.stop();
    for (const one of instances) await one.stop();
    await sink.close();
    await database.drop();
  }
}
