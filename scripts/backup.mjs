// npm run db:backup | db:restore | db:copy: build if needed, then run the command and exit.
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './ensure-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await ensureBuild(root);
await import('../dist/server/backup-cli.js');
