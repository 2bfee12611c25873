import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function importErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports');
}

describe('import boundaries (eslint)', () => {
  // Loading the config and its plugins takes seconds on a busy machine; each case then lints fast.
  beforeAll(() => eslint.lintText('export {};\n', { filePath: 'src/client/probe.tsx' }), 30_000);

  it.each([
    ['src/client/pages/probe.tsx', "import { buildApp } from '../../server/app';"],
    ['src/client/probe.ts', "import { migrate } from '../server/db/migrate';"],
    ['src/shared/probe.ts', "import { loadConfig } from '../server/config/load-config';"],
    ['src/shared/probe.ts', "import { AppRoutes } from '../client/app/app-routes';"],
    ['src/server/probe.ts', "import { AppRoutes } from '../client/app/app-routes';"],
  ])('forbids %s to import %s', async (filePath, code) => {
    const errors = await importErrors(filePath, `${code}\nexport {};\n`);
    expect(errors).toHaveLength(1);
  });

  it.each([
    ['src/client/probe.ts', "import { paths } from '../shared/paths';"],
    ['src/server/probe.ts', "import { paths } from '../shared/paths';"],
    ['src/client/probe.tsx', "import { renderToString } from 'react-dom/server';"],
  ])('allows %s to import %s', async (filePath, code) => {
    expect(await importErrors(filePath, `${code}\nexport {};\n`)).toEqual([]);
  });
});
