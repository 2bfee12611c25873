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
    // The client's floors: app/ is the composition root, imported only by the two entries.
    ['src/client/pages/probe.tsx', "import { AppRoutes } from '../app/app-routes';"],
    ['src/client/pages/admin/probe.tsx', "import { adminPageFor } from '../../app/admin-pages';"],
    ['src/client/features/orders/probe.tsx', "import { mountApp } from '../../app/mount-app';"],
    ['src/client/components/probe.tsx', "import { AppRoutes } from '../app/app-routes';"],
    ['src/client/probe.tsx', "import { AppRoutes } from './app/app-routes';"],
    // A feature never imports another feature, however the path is spelled.
    ['src/client/features/orders/probe.tsx', "import { session } from '../auth/session-store';"],
    ['src/client/features/backup/probe.ts', "import { session } from '../auth/session-store';"],
    [
      'src/client/features/orders/probe.tsx',
      "import { ContactForm } from '../../features/forms/contact-form';",
    ],
    // Features never import pages; routing, lib, components and analytics import neither.
    ['src/client/features/orders/probe.tsx', "import { HomePage } from '../../pages/home-page';"],
    ['src/client/lib/probe.ts', "import { session } from '../features/auth/session-store';"],
    ['src/client/components/probe.tsx', "import { HomePage } from '../pages/home-page';"],
    [
      'src/client/routing/probe.tsx',
      "import { tableApi } from '../features/admin-tables/table-api-client';",
    ],
    ['src/client/analytics/probe.ts', "import { LoginPage } from '../pages/login-page';"],
  ])('forbids %s to import %s', async (filePath, code) => {
    const errors = await importErrors(filePath, `${code}\nexport {};\n`);
    expect(errors).toHaveLength(1);
  });

  it.each([
    ['src/client/probe.ts', "import { paths } from '../shared/paths';"],
    ['src/server/probe.ts', "import { paths } from '../shared/paths';"],
    ['src/client/probe.tsx', "import { renderToString } from 'react-dom/server';"],
    ['src/client/main.tsx', "import { mountApp } from './app/mount-app';"],
    ['src/client/entry-prerender.tsx', "import { AppRoutes } from './app/app-routes';"],
    ['src/client/app/probe.tsx', "import { HomePage } from '../pages/home-page';"],
    ['src/client/pages/probe.tsx', "import { ContactForm } from '../features/forms/contact-form';"],
    ['src/client/features/orders/probe.tsx', "import { orderAdmin } from './order-admin-client';"],
    ['src/client/features/orders/probe.tsx', "import { api } from '../../lib/api-client';"],
    [
      'src/client/features/orders/probe.tsx',
      "import { Field } from '../../components/form-parts';",
    ],
    ['src/client/features/orders/probe.tsx', "import { Link } from '../../routing/router';"],
    ['src/client/components/probe.tsx', "import { Link } from '../routing/router';"],
    ['src/client/lib/probe.ts', "import { paths } from '../../shared/paths';"],
  ])('allows %s to import %s', async (filePath, code) => {
    expect(await importErrors(filePath, `${code}\nexport {};\n`)).toEqual([]);
  });
});
