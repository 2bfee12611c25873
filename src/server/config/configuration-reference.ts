import * as z from 'zod/mini';
import { acceptedValues, envSchema, settingDocs, type SettingDoc } from './env';

/** One setting as the reference lists it. */
export type SettingEntry = {
  name: string;
  meaning: string;
  /** The default as the environment would spell it, or what happens when unset. */
  defaultValue: string | undefined;
  unset: string | undefined;
  accepts: string;
  example: string | undefined;
};

type Node = { _zod: { def: Record<string, unknown> & { type: string } } };

/** The allowed values a schema's own parts registered, looking through defaults and pipes. */
function acceptsOf(schema: Node): string | undefined {
  const registered = acceptedValues.get(schema as unknown as z.ZodMiniType)?.accepts;
  if (registered) return registered;
  const def = schema._zod.def;
  if (def.type === 'enum') {
    return `one of ${Object.values(def.entries as Record<string, string>)
      .map((value) => `\`${value}\``)
      .join(', ')}`;
  }
  const inner = [def.innerType, def.out, def.in].filter(Boolean) as Node[];
  for (const next of inner) {
    const found = acceptsOf(next);
    if (found) return found;
  }
  return undefined;
}

/** A default as one would write it in the environment (lists comma-separated). */
function spelled(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** Every setting of envSchema in its order; throws for one without its documentation. */
export function settingEntries(schema: z.ZodMiniObject = envSchema): SettingEntry[] {
  return Object.entries(schema.shape).map(([name, setting]) => {
    const doc: SettingDoc | undefined = settingDocs.get(setting);
    if (!doc?.meaning) {
      throw new Error(`${name} has no meaning: declare it with setting('what it means', schema).`);
    }
    const accepts = acceptsOf(setting as unknown as Node);
    if (!accepts) {
      throw new Error(`${name} does not say what it accepts: build it from env.ts's helpers.`);
    }
    const parsed = z.safeParse(setting, undefined);
    const defaultValue =
      parsed.success && parsed.data !== undefined ? spelled(parsed.data) : undefined;
    return {
      name,
      meaning: doc.meaning,
      defaultValue,
      unset: doc.unset,
      accepts,
      example: doc.example,
    };
  });
}

const GENERATED =
  'Written by `npm run docs` from `src/server/config/env.ts`; change the schema there, not this file.';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const code = (text: string) => `\`${text}\``;

/** docs/configuration.md: one row per setting, in the schema's order. */
export function configurationMarkdown(entries = settingEntries()): string {
  const rows = entries.map((entry) =>
    [
      code(entry.name),
      entry.defaultValue === undefined
        ? entry.unset
          ? `unset: ${entry.unset}`
          : 'unset'
        : code(entry.defaultValue) || '(empty)',
      entry.accepts,
      entry.meaning,
    ]
      .map(cell)
      .join(' | '),
  );
  return [
    '# Configuration reference',
    '',
    'For operators: every environment variable the server reads, with its default, the values',
    'it accepts and what it does. All are optional for a first run. They are checked at start:',
    'a bad value stops the server with one line naming the variable and what it must be.',
    '[Production on one machine](production.md) says which to set first.',
    '',
    `<!-- ${GENERATED} -->`,
    '',
    '| name | default | allowed values | meaning |',
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
    '',
    '`.env.example` at the root of the repository lists the same settings, ready to copy.',
    '',
  ].join('\n');
}

/** Wraps `text` into comment lines of at most `width` characters. */
function commentLines(text: string, width = 96): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > width && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** .env.example: every setting with its meaning, each line commented out. */
export function envExample(entries = settingEntries()): string {
  const blocks = entries.map((entry) => {
    const unset = entry.defaultValue === undefined && entry.unset ? ` Unset: ${entry.unset}.` : '';
    const value = entry.defaultValue ?? entry.example ?? '';
    return [
      ...commentLines(`${entry.meaning} Allowed: ${entry.accepts}.${unset}`),
      `# ${entry.name}=${value}`,
    ].join('\n');
  });
  return [
    '# Every setting the server reads, with its default (docs/configuration.md lists them too).',
    '# Every one is optional for a first run: `npm start` works with none of them. The app reads',
    "# the process environment (e.g. `PORT=8080 npm start`, or a service manager's environment",
    '# file): copy the lines you need there.',
    `# ${GENERATED}`,
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}
