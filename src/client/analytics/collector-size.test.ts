// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

/** The module bundled with everything it imports, minified as the site's build does, gzipped. */
async function gzipBytes(relativePath: string): Promise<number> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(relativePath, import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild wrote nothing for ${relativePath}`);
  return gzipSync(output.contents, { level: 9 }).length;
}

// DESIGN.md "Insights": the collector adds under 1 KB gzip to every public page.
it('the collector, with what it imports, is under 1 KB gzip', async () => {
  const bytes = await gzipBytes('./collector.ts');
  console.info(`[size] collector.ts bundled and minified: ${bytes} B gzip`);
  expect(bytes).toBeLessThan(1024);
});

it('the analytics module with its insight table and the collector stays under 1 KB gzip', async () => {
  const bytes = await gzipBytes('./analytics.ts');
  console.info(`[size] analytics.ts + collector bundled and minified: ${bytes} B gzip`);
  expect(bytes).toBeLessThan(1024);
});
