#!/usr/bin/env node
// Renders deploy/nginx/soul-reset.conf.template and the upstream's include file for a list of
// instances:
//   node deploy/render-nginx-conf.mjs --server-name shop.example.com \
//     --upstreams /etc/nginx/soul-reset-upstreams.conf \
//     127.0.0.1:3001 127.0.0.1:3002 127.0.0.1:3003 > /etc/nginx/sites-available/soul-reset
// The site configuration goes to stdout; the instances (one `server` line each) are written to
// the --upstreams file, which deploy/rolling-restart edits to take an instance out.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const template = fileURLToPath(new URL('./nginx/soul-reset.conf.template', import.meta.url));
const INSTANCE = /^(\[[0-9a-f:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;
const SERVER_NAME = /^[A-Za-z0-9.*_-]+( [A-Za-z0-9.*_-]+)*$/;
const FILE = /^\/[A-Za-z0-9._/-]+$/;

/** Where the site configuration includes the upstream's servers from, unless told. */
export const DEFAULT_UPSTREAMS_FILE = '/etc/nginx/soul-reset-upstreams.conf';

/**
 * The nginx site configuration answering for `serverName`, its upstream's servers included
 * from `upstreamsFile` (see renderUpstreams).
 * @param {{ serverName: string, upstreamsFile?: string }} options
 * @returns {string}
 */
export function renderNginxConfig({ serverName, upstreamsFile = DEFAULT_UPSTREAMS_FILE }) {
  if (!SERVER_NAME.test(serverName)) throw new Error(`Not a server name: ${serverName}`);
  if (!FILE.test(upstreamsFile)) throw new Error(`Not an absolute file path: ${upstreamsFile}`);
  return readFileSync(template, 'utf8')
    .replace('{{UPSTREAMS_FILE}}', upstreamsFile)
    .replace('{{SERVER_NAME}}', serverName);
}

/**
 * The upstream's include file: a `server` line for each of `instances` ("host:port" each),
 * with nginx's passive health check. deploy/rolling-restart adds and removes ` down` on a line.
 * @param {{ instances: string[], maxFails?: number, failTimeout?: string }} options
 * @returns {string}
 */
export function renderUpstreams({ instances, maxFails = 2, failTimeout = '5s' }) {
  if (instances.length === 0) throw new Error('Give at least one instance (host:port).');
  for (const instance of instances) {
    if (!INSTANCE.test(instance)) throw new Error(`Not a host:port: ${JSON.stringify(instance)}`);
  }
  return [
    '# The instances behind nginx (deploy/render-nginx-conf.mjs wrote this file). One line per',
    '# instance; deploy/rolling-restart adds " down" to a line to take that instance out while',
    '# it restarts, then removes it.',
    ...instances.map(
      (instance) => `server ${instance} max_fails=${maxFails} fail_timeout=${failTimeout};`,
    ),
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let serverName = '_';
  let upstreamsFile = DEFAULT_UPSTREAMS_FILE;
  const instances = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--server-name') serverName = args[++i] ?? '';
    else if (args[i] === '--upstreams') upstreamsFile = args[++i] ?? '';
    else instances.push(args[i]);
  }
  try {
    const site = renderNginxConfig({ serverName, upstreamsFile });
    writeFileSync(upstreamsFile, renderUpstreams({ instances }));
    process.stdout.write(site);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    console.error(
      'Usage: node deploy/render-nginx-conf.mjs [--server-name NAME] [--upstreams FILE] HOST:PORT [HOST:PORT...]',
    );
    process.exit(1);
  }
}
