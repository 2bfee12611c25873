import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The admin's pages are chunks of their own, loaded only by the admin area (DESIGN.md "Quality
// bars"): no module a visitor's page loads may import one, and only the admin page list
// names them, with a dynamic import(). The Insights page's modules are its screen in pages/admin
// and the whole features/insights folder (the public pages' collector lives in analytics/).
const clientDir = fileURLToPath(new URL('../../src/client/', import.meta.url));
const entry = path.join(clientDir, 'main.tsx');
const adminPagesFile = path.join(clientDir, 'app/admin-pages.ts');
const insightsDir = path.join(clientDir, 'features/insights/');
const insightsPage = path.join(clientDir, 'pages/admin/insights-page.tsx');

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:[^;]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const files = sourceFiles(clientDir);

/** The source file an import specifier in `from` names (extension left out, as written). */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`].find((candidate) => files.includes(candidate));
}

function imports(file: string, pattern: RegExp): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(pattern)]
    .map((match) => resolve(file, match[1]!))
    .filter((found): found is string => found !== undefined);
}

/** Every module the entry loads before anything lazy: its static imports, transitively. */
function staticClosure(start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...imports(file, STATIC_IMPORT));
  }
  return seen;
}

const relative = (file: string) => path.relative(clientDir, file);

describe('admin chunks', () => {
  it('finds the modules the entry loads (the scanner works)', () => {
    const loaded = [...staticClosure(entry)].map(relative);
    expect(loaded).toContain('app/app-routes.tsx');
    expect(loaded).toContain('app/admin-pages.ts');
    expect(loaded).toContain('pages/home-page.tsx');
  });

  it('keeps the Insights page and every admin page out of what the entry loads', () => {
    const loaded = staticClosure(entry);
    const pageModules = files.filter(
      (file) => file === insightsPage || file.startsWith(insightsDir),
    );
    expect(pageModules.map(relative)).toEqual(
      expect.arrayContaining([
        'pages/admin/insights-page.tsx',
        'features/insights/daily-chart.tsx',
        'features/insights/funnel-bars.tsx',
        'features/insights/range-picker.tsx',
      ]),
    );
    expect(pageModules.filter((file) => loaded.has(file)).map(relative)).toEqual([]);
    expect([...loaded].map(relative).filter((file) => file.startsWith('pages/admin/'))).toEqual([]);
  });

  it('loads the Insights page only lazily, from the admin pages', () => {
    const pageModules = files.filter(
      (file) => file === insightsPage || file.startsWith(insightsDir),
    );
    const importers = files
      .filter((file) => !pageModules.includes(file))
      .filter((file) => imports(file, STATIC_IMPORT).some((to) => pageModules.includes(to)))
      .map(relative);
    expect(importers).toEqual([]);
    const lazyImporters = files
      .filter((file) => imports(file, DYNAMIC_IMPORT).some((to) => pageModules.includes(to)))
      .map(relative);
    expect(lazyImporters).toEqual([relative(adminPagesFile)]);
    expect(imports(adminPagesFile, DYNAMIC_IMPORT).map(relative)).toContain(
      'pages/admin/insights-page.tsx',
    );
  });
});
