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

  it('no module of the project imports itself through others', async () => {
    const graph = await importGraph();
    expect(graph.get('src/server/app.ts')).toContain('src/server/config/load-config.ts');
    expect(importCircles(graph)).toEqual([]);
  }, 30_000);
});
