#!/usr/bin/env node
// Renders deploy/nginx/soul-reset.conf.template for a list of instances:
//   node deploy/render-nginx-conf.mjs --server-name shop.example.com \
//     127.0.0.1:3001 127.0.0.1:3002 127.0.0.1:3003 > /etc/nginx/sites-available/soul-reset
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const template = fileURLToPath(new URL('./nginx/soul-reset.conf.template', import.meta.url));
const INSTANCE = /^(\[[0-9a-f:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;
const SERVER_NAME = /^[A-Za-z0-9.*_-]+( [A-Za-z0-9.*_-]+)*$/;

/**
 * The nginx site configuration for `instances` ("host:port" each) answering for `serverName`.
 * @param {{ serverName: string, instances: string[], maxFails?: number, failTimeout?: string }} options
 * @returns {string}
 */
export function renderNginxConfig({ serverName, instances, maxFails = 2, failTimeout = '5s' }) {
  if (instances.length === 0) throw new Error('Give at least one instance (host:port).');
  for (const instance of instances) {
    if (!INSTANCE.test(instance)) throw new Error(`Not a host:port: ${JSON.stringify(instance)}`);
  }
  if (!SERVER_NAME.test(serverName)) throw new Error(`Not a server name: ${serverName}`);
  const servers = instances
    .map((instance) => `    server ${instance} max_fails=${maxFails} fail_timeout=${failTimeout};`)
    .join('\n');
  return readFileSync(template, 'utf8')
    .replace('{{UPSTREAM_SERVERS}}', servers)
    .replace('{{SERVER_NAME}}', serverName);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let serverName = '_';
  const instances = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--server-name') serverName = args[++i] ?? '';
    else instances.push(args[i]);
  }
  try {
    process.stdout.write(renderNginxConfig({ serverName, instances }));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    console.error(
      'Usage: node deploy/render-nginx-conf.mjs [--server-name NAME] HOST:PORT [HOST:PORT...]',
    );
    process.exit(1);
  }
}
