import { cleanup } from '@testing-library/react';
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
