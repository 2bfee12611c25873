import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Every folder of TypeScript the project runs or tests. */
const FOLDERS = ['src', 'bench', 'harden', 'scripts', 'tests', 'deploy'];
const SOURCE = /\.(ts|tsx|mts)$/;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
      return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
    }),
  );
  return nested.flat();
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** A relative specifier as the bundler resolves it (TypeScript files without extensions). */
async function resolveRelative(from: string, specifier: string): Promise<string | undefined> {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    base.replace(/\.m?js$/, '.ts'),
    path.join(base, 'index.ts'),
  ];
  for (const candidate of candidates) if (await isFile(candidate)) return candidate;
  return undefined;
}

/**
 * Every import of a file, type-only ones included (a circle through types is still a circle
 * for the reader), static, re-exports and dynamic `import()` alike.
 */
function specifiersOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The import graph of the project's own modules. */
export async function importGraph(): Promise<Map<string, string[]>> {
  const files = (await Promise.all(FOLDERS.map((dir) => sourceFiles(path.join(root, dir))))).flat();
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    const targets = await Promise.all(
      specifiersOf(file, text).map((specifier) => resolveRelative(file, specifier)),
    );
    graph.set(
      path.relative(root, file),
      targets.filter((target) => target !== undefined).map((target) => path.relative(root, target)),
    );
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one module. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) circles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return circles;
}

/**
 * The floors of src/server, as docs/architecture.md ("Layers of the server") lists them: a
 * module imports only from its own folder or a lower floor. A new folder gets its floor here
 * and there.
 */
const SERVER_FLOORS: Record<string, number> = {
  '(entry points)': 100,
  orders: 90,
  people: 90,
  backup: 90,
  web: 90,
  health: 90,
  codes: 85,
  stripe: 84,
  forms: 80,
  sequence: 78,
  broadcasts: 77,
  list: 75,
  store: 70,
  insights: 70,
  admin: 60,
  periodic: 50,
  auth: 40,
  mail: 30,
  'admin/audit': 20,
  http: 10,
  db: 10,
  config: 5,
};

/** The folder of a server module as the floors name it; undefined outside src/server. */
function serverFolder(file: string): string | undefined {
  const match = /^src\/server\/(.*)$/.exec(file);
  if (!match) return undefined;
  const parts = match[1]!.split('/');
  if (parts.length === 1) return '(entry points)';
  if (parts[0] === 'admin' && parts[1] === 'audit') return 'admin/audit';
  return parts[0];
}

/** Every import from a lower floor of src/server to a higher one (or to an unknown folder). */
export function upwardImports(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const source = serverFolder(from);
    if (source === undefined || /\.test\.tsx?$/.test(from)) continue;
    for (const to of targets) {
      const target = serverFolder(to);
      if (target === undefined || target === source) continue;
      const [a, b] = [SERVER_FLOORS[source], SERVER_FLOORS[target]];
      if (a === undefined || b === undefined) {
        found.push(`${from} -> ${to}: give ${a === undefined ? source : target} a floor`);
      } else if (a <= b) {
        found.push(`${from} -> ${to}`);
      }
    }
  }
  return found;
}

describe('import circles', () => {
  it('finds a circle, through types too', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(
      specifiersOf('x.ts', "import type { A } from './a';\nconst b = await import('./b');"),
    ).toEqual(['./a', './b']);
  });

  it('no module of the project imports itself through others, and the server imports only down', async () => {
    const graph = await importGraph();
    expect(graph.get('src/server/app.ts')).toContain('src/server/config/load-config.ts');
    expect(importCircles(graph)).toEqual([]);
    expect(upwardImports(graph)).toEqual([]);
  }, 30_000);

  it('finds an import from a lower floor of the server to a higher one', () => {
    const graph = new Map([
      ['src/server/db/database.ts', ['src/server/backup/import-pglite.ts']],
      ['src/server/backup/import-pglite.ts', ['src/server/db/migrate.ts']],
      ['src/server/newcomer/thing.ts', ['src/server/db/schema.ts']],
      ['src/server/db/database.test.ts', ['src/server/app.ts']],
    ]);
    expect(upwardImports(graph)).toEqual([
      'src/server/db/database.ts -> src/server/backup/import-pglite.ts',
      'src/server/newcomer/thing.ts -> src/server/db/schema.ts: give newcomer a floor',
    ]);
  });
});
