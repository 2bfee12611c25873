import { cleanup } from '@testing-library/react';
import type * as TestingLibrary from '@testing-library/react';
import type { RenderOptions } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { resetFakeApi } from './fake-api';

let consoleErrors: unknown[][] = [];

// A React warning (hydration mismatch, missing key, act()) is a defect: fail the test on it.
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});

// Testing Library only unmounts on its own when test globals are enabled; they are not here.
afterEach(() => {
  cleanup();
  resetFakeApi();
  vi.restoreAllMocks();
  expect(consoleErrors, 'console.error was called').toEqual([]);
});

// The app always renders inside the settings the page embeds (main.tsx); a screen rendered
// alone in a test gets the ones the site was built with, unless the test gives its own.
vi.mock('@testing-library/react', async (importOriginal) => {
  const library = await importOriginal<typeof TestingLibrary>();
  const { createElement } = await import('react');
  const { PublicConfigProvider } = await import('../../../src/client/routing/public-config');
  const { publicConfigDefaults } = await import('../../../src/shared/public-config-defaults');
  const withConfig = ({ children }: { children: ReactNode }) =>
    createElement(PublicConfigProvider, { value: publicConfigDefaults }, children);
  return {
    ...library,
    render: (ui: Parameters<typeof library.render>[0], options?: RenderOptions) =>
      library.render(ui, { wrapper: withConfig, ...options }),
  };
});
