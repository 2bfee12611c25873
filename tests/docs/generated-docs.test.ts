import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { generatedDocs } from '../../scripts/generated-docs';
import {
  configurationMarkdown,
  envExample,
  settingEntries,
} from '../../src/server/config/configuration-reference';
import { envSchema, type Setting } from '../../src/server/config/env';

const root = fileURLToPath(new URL('../..', import.meta.url));

// A setting declared without its meaning does not type-check (npm run typecheck fails).
// @ts-expect-error the plain schema lacks setting()'s documentation
export const undocumented = { EXTRA: z.string() } satisfies Record<string, Setting>;

describe('generated documentation', () => {
  it('docs/configuration.md and .env.example are what npm run docs writes', async () => {
    for (const { file, text } of await generatedDocs(root)) {
      const committed = await readFile(path.join(root, file), 'utf8');
      expect(committed, `${file} is out of date: run npm run docs`).toBe(text);
    }
  });

  it('lists every setting of the schema with its meaning, default and allowed values', () => {
    const entries = settingEntries();
    expect(entries.map((entry) => entry.name)).toEqual(Object.keys(envSchema.shape));
    const reference = configurationMarkdown(entries);
    const example = envExample(entries);
    for (const entry of entries) {
      expect(entry.meaning.length, entry.name).toBeGreaterThan(10);
      expect(reference).toContain(`| \`${entry.name}\` |`);
      expect(example).toMatch(new RegExp(`^# ${entry.name}=`, 'm'));
    }
    const byName = Object.fromEntries(entries.map((entry) => [entry.name, entry]));
    expect(byName.PORT).toMatchObject({
      defaultValue: '3000',
      accepts: 'a whole number between 0 and 65535',
    });
    expect(byName.MAIL_RETRY_DELAYS?.defaultValue).toBe('30,120,600,3600,21600,86400');
    expect(byName.LOG_LEVEL?.accepts).toBe(
      'one of `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`',
    );
    expect(byName.DATABASE_URL).toMatchObject({
      defaultValue: undefined,
      unset: 'the embedded PostgreSQL in DATA_DIR/postgres',
    });
    expect(example).toContain('# PORT=3000\n');
  });

  it('the allowed values are what the error message says', () => {
    const result = envSchema.safeParse({ PORT: 'eighty', DOWNLOAD_LINK_HOURS: '0' });
    const messages = result.success ? [] : result.error.issues.map((issue) => issue.message);
    const byName = Object.fromEntries(settingEntries().map((entry) => [entry.name, entry]));
    expect(messages).toEqual([
      `must be ${byName.PORT!.accepts}`,
      `must be ${byName.DOWNLOAD_LINK_HOURS!.accepts}`,
    ]);
  });

  it('refuses a setting without its meaning', () => {
    expect(() => settingEntries(z.object({ EXTRA: z.string() }))).toThrow(
      /EXTRA has no meaning: declare it with setting\('what it means', schema\)/,
    );
  });
});
