// deploy/: the nginx configuration rendered for three local instances passes `nginx -t`, and
// the service unit gives a stopping instance the time its drain needs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { renderNginxConfig } from '../../deploy/render-nginx-conf.mjs';
import { ROW_BODY_LIMIT } from '../../src/server/admin/tables/table-routes';
import { loadConfig } from '../../src/server/config/load-config';
import { stopDeadlineMs } from '../../src/server/stop-signals';
import { makeTempDir } from '../support/temp-dir';

const NGINX = '/usr/sbin/nginx';
const root = fileURLToPath(new URL('../..', import.meta.url));
const instances = ['127.0.0.1:3001', '127.0.0.1:3002', '127.0.0.1:3003'];
const rendered = renderNginxConfig({ serverName: 'shop.example.com', instances });

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
    await writeFile(path.join(dir, 'soul-reset.conf'), rendered);
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

  it('lists every instance with passive health, keeps connections alive, and forwards the client', () => {
    for (const instance of instances) {
      expect(rendered).toContain(`server ${instance} max_fails=2 fail_timeout=5s;`);
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

  it('refuses a list without instances or with a malformed one', () => {
    expect(() => renderNginxConfig({ serverName: 'x', instances: [] })).toThrow(/at least one/);
    expect(() => renderNginxConfig({ serverName: 'x', instances: ['host'] })).toThrow(/host:port/);
    expect(() => renderNginxConfig({ serverName: 'x; include /etc/passwd', instances })).toThrow(
      /server name/,
    );
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
