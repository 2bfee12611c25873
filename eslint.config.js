import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Imports flow one way: client -> shared, server -> shared. The browser bundle must never
// pull in server code (secrets, database drivers), and shared code must stay runtime-neutral.
const serverImports = {
  regex: String.raw`^(\.{1,2}/)+(.*/)?server(/|$)`,
  message: 'Server code must never be imported outside src/server (it would reach the browser).',
};
// The home page's JS budget left no room for react-router: src/client/routing/router.tsx has the
// same names (Link, Navigate, Outlet, useLocation, useNavigate).
const routerImports = {
  group: ['react-router', 'react-router-dom', 'react-router/*'],
  message: "Use the app's own hash router: import { Link, ... } from 'src/client/routing/router'.",
};
// The client's floors, bottom up: routing, lib, components and analytics; then features (one
// capability each); then pages (one screen each, composing features); then app/, the
// composition root that only the two entries (main.tsx, entry-prerender.tsx) import. Imports
// only go down, and a feature never imports another feature.
const appImports = {
  regex: String.raw`^(\.{1,2}/)+app(/|$)`,
  message: 'app/ is the composition root: only main.tsx and entry-prerender.tsx import it.',
};
const upperFloorImports = {
  regex: String.raw`^(\.\./)+(features|pages)(/|$)`,
  message:
    'routing, lib, components and analytics sit below features and pages: never import them.',
};
const pageImports = {
  regex: String.raw`^(\.\./)+pages(/|$)`,
  message: 'Features never import pages: a page composes features.',
};
const otherFeatureImports = {
  // From features/<name>/: '../<other>/…', or a path through features/ again.
  regex: String.raw`^(\.\./[^./][^/]*/|(\.\./)+features/)`,
  message:
    'A feature never imports another feature: move what both need down to components/ or lib/, or compose them in a page.',
};
const clientImports = {
  regex: String.raw`^(\.{1,2}/)+(.*/)?client(/|$)`,
  message: 'Client code is only importable from src/client.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'data',
      'coverage',
      'test-results',
      'playwright-report',
      'bench/results',
      'harden/results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [serverImports, routerImports, appImports] }],
    },
  },
  {
    files: ['src/client/{routing,lib,components,analytics}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [serverImports, routerImports, appImports, upperFloorImports] },
      ],
    },
  },
  {
    files: ['src/client/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [serverImports, routerImports, appImports, pageImports, otherFeatureImports] },
      ],
    },
  },
  {
    files: [
      'src/client/app/**/*.{ts,tsx}',
      'src/client/main.tsx',
      'src/client/entry-prerender.tsx',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [serverImports, routerImports] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [serverImports, clientImports] }] },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [clientImports] }] },
  },
);
