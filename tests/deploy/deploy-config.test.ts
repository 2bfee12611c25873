// deploy/: the nginx configuration rendered for three local instances passes `nginx -t`, the
// rolling restart takes an instance out of a real nginx before restarting it, the HAProxy
// configuration passes `haproxy -c`, and the service unit gives a stopping instance the time
// its drain needs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { findNginx, startNginx } from '../../harden/lib/nginx';
import { renderNginxConfig, renderUpstreams } from '../../deploy/render-nginx-conf.mjs';
import { ROW_BODY_LIMIT } from '../../src/server/admin/tables/table-routes';
import { loadConfig } from '../../src/server/config/load-config';
import { stopDeadlineMs } from '../../src/server/stop-signals';
import { freePort } from '../support/free-port';
import { makeTempDir } from '../support/temp-dir';

const NGINX = '/usr/sbin/nginx';
const HAPROXY = '/usr/sbin/haproxy';
const root = fileURLToPath(new URL('../..', import.meta.url));
const instances = ['127.0.0.1:3001', '127.0.0.1:3002', '127.0.0.1:3003'];
const UPSTREAMS_FILE = '/etc/nginx/soul-reset-upstreams.conf';
const rendered = renderNginxConfig({ serverName: 'shop.example.com' });
const upstreams = renderUpstreams({ instances });

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('deploy/nginx', () => {
  it('passes nginx -t rendered for three local instances', async () => {
    expect(
      existsSync(NGINX),
      `nginx -t needs ${NGINX} (apt-get install -y nginx; .ci/run installs it)`,
    ).toBe(true);
    const dir = await makeTempDir('soul-reset-nginx-');
    dirs.push(dir);
    for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
      await mkdir(path.join(dir, temp));
    }
    await writeFile(
      path.join(dir, 'soul-reset.conf'),
      renderNginxConfig({
        serverName: 'shop.example.com',
        upstreamsFile: path.join(dir, 'upstreams.conf'),
      }),
    );
    // One instance marked down, as deploy/rolling-restart leaves it while restarting it.
    await writeFile(
      path.join(dir, 'upstreams.conf'),
      upstreams.replace(
        '127.0.0.1:3002 max_fails=2 fail_timeout=5s;',
        '127.0.0.1:3002 max_fails=2 fail_timeout=5s down;',
      ),
    );
    // The main file Debian's nginx.conf would be, with everything it writes in the folder.
    await writeFile(
      path.join(dir, 'nginx.conf'),
      [
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log;`,
        'events {}',
        'http {',
        `  access_log ${dir}/access.log;`,
        `  client_body_temp_path ${dir}/body;`,
        `  proxy_temp_path ${dir}/proxy;`,
        `  fastcgi_temp_path ${dir}/fastcgi;`,
        `  uwsgi_temp_path ${dir}/uwsgi;`,
        `  scgi_temp_path ${dir}/scgi;`,
        `  include ${dir}/soul-reset.conf;`,
        '}',
        '',
      ].join('\n'),
    );
    const result = spawnSync(
      NGINX,
      ['-t', '-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`],
      { encoding: 'utf8' },
    );
    expect(result.stderr).toContain('syntax is ok');
    expect(result.stderr).toContain('test is successful');
    expect(result.status).toBe(0);
  });

  it('lists every instance with passive health in the include file, keeps connections alive, and forwards the client', () => {
    expect(rendered).toMatch(new RegExp(`^\\s*include ${UPSTREAMS_FILE};`, 'm'));
    for (const instance of instances) {
      expect(upstreams).toMatch(
        new RegExp(`^server ${instance.replace(/\./g, '\\.')} max_fails=2 fail_timeout=5s;$`, 'm'),
      );
    }
    expect(rendered).toMatch(/^\s*keepalive \d+;/m);
    expect(rendered).toMatch(/^\s*proxy_http_version 1\.1;/m);
    expect(rendered).toMatch(/^\s*proxy_set_header Connection "";/m);
    expect(rendered).toMatch(/^\s*proxy_set_header X-Forwarded-For \$remote_addr;/m);
    expect(rendered).toMatch(/^\s*proxy_set_header X-Forwarded-Proto \$scheme;/m);
    expect(rendered).not.toMatch(/\{\{|\}\}/);
  });

  it("closes idle connections well inside an instance's drain, so none is open when it stops listening", () => {
    const seconds = Number(/^\s*keepalive_timeout (\d+)s;/m.exec(rendered)?.[1]);
    const production = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) });
    expect(seconds).toBeGreaterThan(0);
    expect(seconds * 1000).toBeLessThan(production.drainMs / 2);
  });

  it('never passes a POST that reached an instance to another one', () => {
    const nextUpstream = /^\s*proxy_next_upstream ([^;]+);/m.exec(rendered)?.[1];
    expect(nextUpstream?.split(/\s+/)).toEqual([
      'error',
      'timeout',
      'http_502',
      'http_503',
      'http_504',
    ]);
    expect(rendered).not.toMatch(/^\s*[^#\s].*non_idempotent/m);
  });

  it("accepts the app's largest body and no larger", () => {
    const size = /^\s*client_max_body_size (\d+)m;/m.exec(rendered)?.[1];
    expect(Number(size) * 1024 * 1024).toBe(ROW_BODY_LIMIT);
  });

  it('refuses a list without instances or with a malformed one, and a malformed name or file', () => {
    expect(() => renderUpstreams({ instances: [] })).toThrow(/at least one/);
    expect(() => renderUpstreams({ instances: ['host'] })).toThrow(/host:port/);
    expect(() => renderNginxConfig({ serverName: 'x; include /etc/passwd' })).toThrow(
      /server name/,
    );
    expect(() =>
      renderNginxConfig({ serverName: 'x', upstreamsFile: 'relative; include /etc/passwd' }),
    ).toThrow(/file path/);
  });
});

/** A stand-in instance: answers its name; /slow is held until released; /readyz 200. */
async function fakeInstance(name: string) {
  const held: (() => void)[] = [];
  const seen = { fromNginx: 0, inFlight: 0 };
  const server = http.createServer((request, response) => {
    if (request.url === '/readyz') return void response.end('ready');
    if (request.headers['x-request-id']) seen.fromNginx += 1;
    seen.inFlight += 1;
    const answer = () => {
      seen.inFlight -= 1;
      response.end(name);
    };
    if (request.url === '/slow') held.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const connections = () =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
    );
  const release = () => held.splice(0).forEach((answer) => answer());
  const close = () => {
    release();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { name, address, seen, held, connections, release, close };
}

describe('deploy/rolling-restart', () => {
  it('takes each instance out of a real nginx, waits for its request in flight, restarts it, and brings it back once ready', async () => {
    const binary = findNginx();
    expect(binary, 'nginx must be installed (.ci/run installs it)').toBeDefined();
    const fakes = [await fakeInstance('a'), await fakeInstance('b')];
    const [a, b] = fakes as [(typeof fakes)[0], (typeof fakes)[0]];
    const nginx = await startNginx(binary!, root, await freePort(), [a.address, b.address]);
    type Restart = { port: string; upstreams: string; connections: number; answers: string[] };
    const restarts: Restart[] = [];
    // The restart command the script runs (instead of systemctl): records what it finds.
    const control = http.createServer((request, response) => {
      const port = new URL(request.url!, 'http://x').searchParams.get('port')!;
      const fake = fakes.find((one) => one.address.endsWith(`:${port}`))!;
      void (async () => {
        const answers: string[] = [];
        for (let i = 0; i < 6; i += 1) answers.push(await (await fetch(nginx.url)).text());
        restarts.push({
          port,
          upstreams: await readFile(nginx.upstreamsFile!, 'utf8'),
          connections: await fake.connections(),
          answers,
        });
        response.end('restarted');
      })();
    });
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', () => resolve()));
    const controlPort = (control.address() as AddressInfo).port;
    try {
      // Both instances in nginx before the script runs.
      const before = new Set<string>();
      for (let i = 0; i < 6; i += 1) before.add(await (await fetch(nginx.url)).text());
      expect([...before].sort()).toEqual(['a', 'b']);
      // A request held in flight at a (b's /slow answered at once).
      const slow: Promise<string>[] = [];
      while (a.held.length === 0) {
        slow.push(fetch(`${nginx.url}/slow`).then((response) => response.text()));
        await new Promise((resolve) => setTimeout(resolve, 50));
        b.release();
      }

      let output = '';
      const script = spawn(path.join(root, 'deploy/rolling-restart'), [], {
        env: {
          ...process.env,
          UPSTREAMS_FILE: nginx.upstreamsFile!,
          NGINX_COMMAND: nginx.command.join(' '),
          NGINX_PID_FILE: nginx.pidFile,
          RESTART_COMMAND: `curl -fsS -o /dev/null "http://127.0.0.1:${controlPort}/restart?port=$PORT"`,
          IDLE_TIMEOUT: '20',
          READY_TIMEOUT: '10',
        },
      });
      script.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      script.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => script.once('close', resolve));

      // a is out of nginx at once, but not restarted while its request is in flight.
      await vi.waitFor(
        async () => expect(await readFile(nginx.upstreamsFile!, 'utf8')).toMatch(/ down;/),
        { timeout: 5_000 },
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(restarts).toEqual([]);
      expect(a.seen.inFlight).toBe(1);
      a.release();
      expect(await Promise.all(slow)).toContain('a');

      expect(await exited, output).toBe(0);
      expect(restarts.map((one) => one.port)).toEqual(
        [a, b].map((one) => one.address.split(':')[1]),
      );
      for (const [i, restart] of restarts.entries()) {
        const [out, other] = i === 0 ? [a, b] : [b, a];
        // Restarted only with its line marked down, the other's not, and nothing open to it.
        const line = (fake: typeof a) =>
          restart.upstreams.split('\n').find((text) => text.includes(fake.address));
        expect(line(out)).toMatch(/ down;$/);
        expect(line(other)).not.toMatch(/down/);
        expect(restart.connections).toBe(0);
        expect(restart.answers).toEqual(Array(6).fill(other.name));
      }
      // Both back in nginx, and the file as it was.
      expect(await readFile(nginx.upstreamsFile!, 'utf8')).toBe(
        renderUpstreams({ instances: [a.address, b.address] }),
      );
      // (once nginx's last reload has taken effect: `nginx -s reload` does not wait for it)
      await vi.waitFor(
        async () => {
          const after = new Set<string>();
          for (let i = 0; i < 6; i += 1) after.add(await (await fetch(nginx.url)).text());
          expect([...after].sort()).toEqual(['a', 'b']);
        },
        { timeout: 5_000 },
      );
    } finally {
      await nginx.stop();
      await new Promise((resolve) => control.close(resolve));
      for (const fake of fakes) await fake.close();
    }
  }, 60_000);
});

describe('deploy/haproxy/haproxy.cfg', () => {
  const file = path.join(root, 'deploy/haproxy/haproxy.cfg');

  it('passes haproxy -c', () => {
    expect(
      existsSync(HAPROXY),
      `haproxy -c needs ${HAPROXY} (apt-get install -y haproxy; .ci/run installs it)`,
    ).toBe(true);
    const result = spawnSync(HAPROXY, ['-c', '-f', file], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toContain('Configuration file is valid');
    expect(result.status).toBe(0);
  });

  it('checks /readyz every second, two failures out and two successes back, and never repeats a request that reached an instance', async () => {
    const config = await readFile(file, 'utf8');
    expect(config).toMatch(/^\s*option httpchk$/m);
    expect(config).toMatch(/^\s*http-check send meth GET uri \/readyz$/m);
    expect(config).toMatch(/^\s*http-check expect status 200$/m);
    expect(config).toMatch(/^\s*default-server check inter 1s fall 2 rise 2$/m);
    expect(config).not.toMatch(/^\s*retry-on\b/m);
    // Inside the production drain: out before the instance stops listening.
    const production = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) });
    expect(2 * 1000).toBeLessThan(production.drainMs);
  });
});

describe('deploy/systemd/soul-reset@.service', () => {
  it('runs one instance per port, restarts on failure, and outwaits the longest drain', async () => {
    const unit = await readFile(path.join(root, 'deploy/systemd/soul-reset@.service'), 'utf8');
    const setting = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(unit)?.[1];
    expect(setting('Environment')).toContain('PORT=%i');
    expect(setting('Restart')).toBe('on-failure');
    expect(setting('KillSignal')).toBe('SIGTERM');
    expect(setting('ExecStart')).toBe('/usr/bin/node dist/server/index.js');
    const production = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) });
    const timeout = Number(/^(\d+)s$/.exec(setting('TimeoutStopSec') ?? '')?.[1]);
    expect(timeout * 1000).toBeGreaterThan(stopDeadlineMs(production.drainMs));
  });
});
