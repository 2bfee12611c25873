import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Markdown without fenced code blocks and inline code, where a link is only text. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchor GitHub gives a heading (github-slugger): lower case, punctuation dropped. */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/<[^>]+>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a Markdown file: its headings' slugs (repeats numbered) and explicit ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const lines = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').split('\n');
  for (const line of lines) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = headingSlug(heading[1]!);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const id of line.matchAll(/\b(?:id|name)="([^"]+)"/g)) anchors.add(id[1]!);
  }
  return anchors;
}

/** Every link and image target of a Markdown file: `[text](target)` and HTML src/href. */
export function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1]!,
  );
  for (const match of text.matchAll(/\b(?:src|href)="([^"]+)"/g)) targets.push(match[1]!);
  return targets;
}

async function markdownFiles(): Promise<string[]> {
  const docs = await readdir(path.join(root, 'docs'), { recursive: true });
  return [
    'README.md',
    ...docs.filter((file) => file.endsWith('.md')).map((file) => path.join('docs', file)),
  ];
}

const isFile = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** Each broken relative link of `file`, as "file: target (why)". */
async function brokenLinks(file: string): Promise<string[]> {
  const markdown = await readFile(path.join(root, file), 'utf8');
  const broken: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto: and the like
    const [pathPart, anchor] = target.split('#') as [string, string | undefined];
    const resolved = pathPart
      ? path.resolve(path.dirname(path.join(root, file)), decodeURIComponent(pathPart))
      : path.join(root, file);
    if (!(await isFile(resolved))) {
      broken.push(`${file}: ${target} (no such file)`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md')) {
      const anchors = anchorsOf(await readFile(resolved, 'utf8'));
      if (!anchors.has(decodeURIComponent(anchor))) {
        broken.push(`${file}: ${target} (no heading "#${anchor}")`);
      }
    }
  }
  return broken;
}

describe('documentation links', () => {
  it('slugs headings as GitHub does', () => {
    expect(headingSlug('How an instance stops')).toBe('how-an-instance-stops');
    expect(headingSlug('`npm run bench -- --quick`: a smoke run')).toBe(
      'npm-run-bench------quick-a-smoke-run',
    );
    expect(headingSlug("The offer's price (in €, 100%)")).toBe('the-offers-price-in--100');
    expect(headingSlug('admin_audit_log and **People**')).toBe('admin_audit_log-and-people');
    expect([...anchorsOf('# A\n## Notes\n## Notes\n```\n# not a heading\n```\n')]).toEqual([
      'a',
      'notes',
      'notes-1',
    ]);
  });

  it('finds the links of a page, not those in code', () => {
    expect(
      linkTargets(
        '[a](docs/a.md#x) `[b](b.md)`\n```\n[c](c.md)\n```\n<img src="i.png"> [d](https://e.com)',
      ),
    ).toEqual(['docs/a.md#x', 'https://e.com', 'i.png']);
  });

  it('every relative link and anchor in README.md and docs/ leads somewhere', async () => {
    const files = await markdownFiles();
    expect(files).toContain('docs/configuration.md');
    const broken = (await Promise.all(files.map(brokenLinks))).flat();
    expect(broken).toEqual([]);
  });
});
