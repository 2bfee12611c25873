// npm run db:migrate: build if needed, then apply pending migrations and exit.
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './ensure-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await ensureBuild(root);
await import('../dist/server/migrate-cli.js');
