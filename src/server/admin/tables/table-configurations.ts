import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type * as z from 'zod/mini';
import { tableConfigSchema, type TableConfig } from '../../../shared/admin/table-config';

/** A configuration the server cannot use: the start stops with this one-line message. */
export class TableConfigurationError extends Error {
  override name = 'TableConfigurationError';
}

function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ` : '') + issue.message)
    .join('; ');
}

function parseFile(text: string): TableConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`it is not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = tableConfigSchema.safeParse(json);
  if (!parsed.success) throw new Error(describeIssues(parsed.error));
  const config = parsed.data;
  const names = config.field_list.map((field) => field.db_name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new Error(`the field "${repeated}" is listed twice`);
  // Rows are ordered, updated and deleted by id.
  if (!names.includes('id')) throw new Error('it has no "id" field');
  return config;
}

/**
 * Every `*.json` in `dir`, in file-name order, each checked against the shared schema. Any
 * problem throws a TableConfigurationError naming the file.
 */
export async function loadTableConfigurations(dir: string): Promise<TableConfig[]> {
  const shown = path.relative(process.cwd(), dir) || dir;
  let files: string[];
  try {
    files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
  } catch (error) {
    throw new TableConfigurationError(
      `the table configurations folder ${shown} cannot be read (${(error as Error).message}).`,
    );
  }
  const configs: TableConfig[] = [];
  const fileOfTable = new Map<string, string>();
  for (const file of files) {
    const where = path.join(shown, file);
    let config: TableConfig;
    try {
      config = parseFile(await readFile(path.join(dir, file), 'utf8'));
    } catch (error) {
      throw new TableConfigurationError(
        `the table configuration ${where} is invalid: ${(error as Error).message}.`,
      );
    }
    const earlier = fileOfTable.get(config.db_table_name);
    if (earlier) {
      throw new TableConfigurationError(
        `the table configuration ${where} is invalid: ${earlier} already configures the table "${config.db_table_name}".`,
      );
    }
    fileOfTable.set(config.db_table_name, file);
    configs.push(config);
  }
  return configs;
}
