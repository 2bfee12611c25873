import { format, resolveConfig } from 'prettier';
import path from 'node:path';
import { benchResultsPage } from '../bench/lib/results-page';
import { configurationMarkdown, envExample } from '../src/server/config/configuration-reference';

export type GeneratedFile = { file: string; text: string };

/** Markdown as Prettier writes it, so that `npm run lint` accepts the generated pages. */
async function prettyMarkdown(root: string, file: string, text: string): Promise<string> {
  const filepath = path.join(root, file);
  return format(text, { ...(await resolveConfig(filepath)), filepath });
}

/**
 * Every generated file, relative to the repository root: the configuration reference and
 * .env.example always, the bench results page when a bench run's JSON is given.
 */
export async function generatedDocs(
  root: string,
  bench?: Record<string, unknown>,
): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [
    {
      file: 'docs/configuration.md',
      text: await prettyMarkdown(root, 'docs/configuration.md', configurationMarkdown()),
    },
    { file: '.env.example', text: envExample() },
  ];
  if (bench) {
    files.push({
      file: 'docs/bench-results.md',
      text: await prettyMarkdown(root, 'docs/bench-results.md', benchResultsPage(bench)),
    });
  }
  return files;
}
