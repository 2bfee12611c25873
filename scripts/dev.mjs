// npm run dev: the API server with reload (tsx watch) and Vite's dev server with hot reload.
// Open the Vite address it prints; it forwards /api, /healthz and /readyz to the server.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = (file) => fileURLToPath(new URL(`../node_modules/${file}`, import.meta.url));
const apiPort = process.env.API_PORT ?? '3001';
const children = [
  spawn(
    process.execPath,
    [bin('tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'src/server/index.ts'],
    {
      stdio: 'inherit',
      env: { ...process.env, PORT: apiPort },
    },
  ),
  spawn(process.execPath, [bin('vite/bin/vite.js'), '--host', process.env.HOST ?? '127.0.0.1'], {
    stdio: 'inherit',
    env: { ...process.env, API_PORT: apiPort },
  }),
];

let exiting = false;
function stopAll(code = 0) {
  if (exiting) return;
  exiting = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
for (const child of children) child.on('exit', (code) => stopAll(code ?? 0));
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
