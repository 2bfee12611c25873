import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const clientRoot = fileURLToPath(new URL('./src/client', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/client', import.meta.url));
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  root: clientRoot,
  plugins: [react(), tailwindcss()],
  build: {
    outDir,
    emptyOutDir: true,
    // Images stay files with hashed names (cached for good) instead of inflating the JS.
    assetsInlineLimit: 0,
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/healthz': apiTarget,
      '/readyz': apiTarget,
    },
  },
  test: {
    root: repoRoot,
    environment: 'node',
    projects: [
      {
        root: repoRoot,
        test: {
          name: 'server',
          include: [
            'src/server/**/*.test.ts',
            'src/shared/**/*.test.ts',
            'tests/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          environment: 'node',
          globalSetup: ['tests/setup/global-setup.ts'],
        },
      },
      {
        extends: true,
        root: repoRoot,
        test: {
          name: 'client',
          include: ['src/client/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/support/client/setup-tests.ts'],
        },
      },
    ],
  },
});
