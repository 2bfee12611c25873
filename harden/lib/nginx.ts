import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Debian's nginx, or NGINX_PATH. */
export function findNginx(): string | undefined {
  for (const candidate of [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/bin/nginx']) {
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

/** The project's balancer template when deploy/ has one, else the harness's own. */
export async function nginxTemplate(root: string): Promise<{ file: string; text: string }> {
  for (const file of [
    path.join(root, 'deploy/nginx.conf.template'),
    path.join(root, 'harden/lib/nginx.conf.template'),
  ]) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) return { file, text };
  }
  throw new Error('No nginx template found');
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
  /** What nginx printed and its error log (when the config writes it under the prefix). */
  log(): Promise<string>;
  stop(): Promise<void>;
};

/**
 * nginx in the foreground, balancing `upstreams` on 127.0.0.1:`port`, from the template of
 * nginxTemplate(); resolves once it answers on the port.
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
  const template = await nginxTemplate(root);
  const configFile = path.join(prefix, 'nginx.conf');
  await writeFile(
    configFile,
    renderNginxConfig(template.text, { listen: `127.0.0.1:${port}`, upstreams, prefix }),
  );
  const child: ChildProcess = spawn(binary, ['-p', prefix, '-c', configFile, '-e', 'stderr'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await rm(prefix, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nginx exited (${template.file}):\n${output}`);
    }
    const up = await fetch(`${url}/healthz`)
      .then((response) => response.status < 500)
      .catch(() => false);
    if (up) break;
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`nginx did not answer on ${url} within 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const log = async () =>
    output + (await readFile(path.join(prefix, 'error.log'), 'utf8').catch(() => ''));
  return { url, configFile, log, stop };
}
