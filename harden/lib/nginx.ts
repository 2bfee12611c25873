import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The first of `candidates` that is an executable file. */
export function firstExecutable(candidates: (string | undefined)[]): string | undefined {
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there: the next one.
    }
  }
  return undefined;
}

/** Debian's nginx, or NGINX_PATH. */
export function findNginx(): string | undefined {
  return firstExecutable([process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/bin/nginx']);
}

/**
 * A balancer in the foreground: what it prints, kept; `stop` sends `stopSignal` (its graceful
 * stop), SIGKILL after 10 s, then removes `prefix`.
 */
export function foreground(
  binary: string,
  args: string[],
  stopSignal: NodeJS.Signals,
  prefix: string,
) {
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(stopSignal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await rm(prefix, { recursive: true, force: true });
  };
  return { child, output: () => output, stop };
}

const DEPLOY_RENDERER = 'deploy/render-nginx-conf.mjs';
const DEPLOY_TEMPLATE = 'deploy/nginx/soul-reset.conf.template';
const OWN_TEMPLATE = 'harden/lib/nginx.conf.template';

/** Which balancer config the harness runs: the project's deploy/ one when present. */
export function nginxConfigSource(root: string): string {
  return existsSync(path.join(root, DEPLOY_RENDERER)) ? DEPLOY_TEMPLATE : OWN_TEMPLATE;
}

/**
 * The whole nginx.conf for `upstreams` on `listen`: deploy/'s site config as its renderer
 * makes it (only its `listen` lines replaced, for a free port on loopback), its upstream's
 * servers in `upstreamsFile` (written by startNginx: the file deploy/rolling-restart edits),
 * inside a main config that keeps nginx in the foreground with its files under `prefix`;
 * without deploy/, the harness's own minimal template.
 */
export async function nginxConfig(
  root: string,
  values: { listen: string; upstreams: string[]; prefix: string },
): Promise<{ config: string; upstreamsFile?: string; upstreams?: string }> {
  if (nginxConfigSource(root) === OWN_TEMPLATE)
    return {
      config: renderNginxConfig(await readFile(path.join(root, OWN_TEMPLATE), 'utf8'), values),
    };
  const deploy = (await import(pathToFileURL(path.join(root, DEPLOY_RENDERER)).href)) as {
    renderNginxConfig(options: { serverName: string; upstreamsFile: string }): string;
    renderUpstreams(options: { instances: string[] }): string;
  };
  const upstreamsFile = path.join(values.prefix, 'upstreams.conf');
  const site = deploy
    .renderNginxConfig({ serverName: '_', upstreamsFile })
    .replace(/^\s*listen\s+[^;]*;[^\n]*$/gm, '')
    .replace(/(^\s*server_name\b)/m, `    listen ${values.listen};\n$1`);
  if (!site.includes(`listen ${values.listen};`))
    throw new Error(`No server_name in ${DEPLOY_TEMPLATE} to put the listen line before`);
  const config = [
    'worker_processes auto;',
    'daemon off;',
    `pid ${values.prefix}/nginx.pid;`,
    `error_log ${values.prefix}/error.log warn;`,
    'events { worker_connections 4096; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (dir) => `  ${dir}_temp_path ${values.prefix}/${dir};`,
    ),
    site,
    '}',
    '',
  ].join('\n');
  return {
    config,
    upstreamsFile,
    upstreams: deploy.renderUpstreams({ instances: values.upstreams }),
  };
}

/**
 * Fills the template's placeholders; refuses to leave one unfilled. `{{UPSTREAM_SERVERS}}`
 * becomes a `server host:port;` line per instance, `{{UPSTREAM_SERVERS:params}}` adds the
 * params to each (say `max_fails=1 fail_timeout=2s`).
 */
export function renderNginxConfig(
  template: string,
  values: { listen: string; upstreams: string[]; prefix: string },
): string {
  const filled: Record<string, (params: string) => string> = {
    LISTEN: () => values.listen,
    UPSTREAM_SERVERS: (params) =>
      values.upstreams
        .map((address) => `server ${[address, params].filter(Boolean).join(' ')};`)
        .join('\n    '),
    PREFIX: () => values.prefix,
  };
  return template.replace(
    /\{\{\s*([A-Z_]+)(?::([^}]*))?\s*\}\}/g,
    (match, name: string, params: string | undefined) => {
      const fill = filled[name];
      if (fill === undefined) throw new Error(`The nginx template has an unknown ${match}`);
      return fill(params?.trim() ?? '');
    },
  );
}

export type Nginx = {
  url: string;
  configFile: string;
  /** The upstream's include file (deploy/ config only): what deploy/rolling-restart edits. */
  upstreamsFile: string | undefined;
  /** nginx with the options that address this one (add `-s reload`, `-t`). */
  command: string[];
  /** Its master's pid file. */
  pidFile: string;
  /** What nginx printed and its error log (when the config writes it under the prefix). */
  log(): Promise<string>;
  stop(): Promise<void>;
};

/**
 * nginx in the foreground, balancing `upstreams` on 127.0.0.1:`port`, from the template of
 * nginxConfig(); resolves once it answers on the port.
 */
export async function startNginx(
  binary: string,
  root: string,
  port: number,
  upstreams: string[],
): Promise<Nginx> {
  // World-readable: nginx's workers run as nobody when the master is root.
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-nginx-'));
  await chmod(prefix, 0o755);
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    await mkdir(path.join(prefix, dir));
    await chmod(path.join(prefix, dir), 0o777);
  }
  const source = nginxConfigSource(root);
  const configFile = path.join(prefix, 'nginx.conf');
  const rendered = await nginxConfig(root, { listen: `127.0.0.1:${port}`, upstreams, prefix });
  await writeFile(configFile, rendered.config);
  if (rendered.upstreamsFile) await writeFile(rendered.upstreamsFile, rendered.upstreams ?? '');
  const command = [binary, '-p', prefix, '-c', configFile, '-e', 'stderr'];
  const { child, output, stop } = foreground(binary, command.slice(1), 'SIGQUIT', prefix);
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nginx exited (${source}):\n${output()}`);
    }
    const up = await fetch(`${url}/healthz`)
      .then((response) => response.status < 500)
      .catch(() => false);
    if (up) break;
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`nginx did not answer on ${url} within 10 s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const log = async () =>
    output() + (await readFile(path.join(prefix, 'error.log'), 'utf8').catch(() => ''));
  return {
    url,
    configFile,
    upstreamsFile: rendered.upstreamsFile,
    command,
    pidFile: path.join(prefix, 'nginx.pid'),
    log,
    stop,
  };
}
