// npm start: build if needed, then run the server in this process (migrations run at start).
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './ensure-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await ensureBuild(root);
await import('../dist/server/index.js');
