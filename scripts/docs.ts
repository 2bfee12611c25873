/**
 * npm run docs [-- --bench FILE] [--check]
 *
 * Writes the documentation that is generated from the code: docs/configuration.md and
 * .env.example from the environment's schema, and with --bench docs/bench-results.md from the
 * JSON of a bench run (`npm run bench -- --out FILE`). --check writes nothing and exits 1 when
 * a file differs from what would be written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generatedDocs } from './generated-docs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { bench: { type: 'string' }, check: { type: 'boolean', default: false } },
});

const bench = values.bench
  ? (JSON.parse(await readFile(path.resolve(values.bench), 'utf8')) as Record<string, unknown>)
  : undefined;
let stale = 0;
for (const { file, text } of await generatedDocs(root, bench)) {
  const target = path.join(root, file);
  const current = await readFile(target, 'utf8').catch(() => undefined);
  if (current === text) continue;
  if (values.check) {
    console.error(`${file} is out of date: run npm run docs.`);
    stale += 1;
  } else {
    await writeFile(target, text);
    console.log(`Wrote ${file}`);
  }
}
if (stale > 0) process.exit(1);
