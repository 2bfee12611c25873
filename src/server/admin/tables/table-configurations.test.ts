import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { testConfig } from '../../../../tests/support/test-config';
import type { TableConfig } from '../../../shared/admin/table-config';
import { tableNames } from '../../../shared/tables';
import { tableConfigurationsDir } from '../../app';
import { startServer } from '../../server';
import { describeStartupError } from '../../startup-errors';
import { checkConfiguredColumns } from './check-configured-columns';
import { loadTableConfigurations, TableConfigurationError } from './table-configurations';

const idField = { db_name: 'id', ui_name: 'ID', type: 'id', required: false };
const nameField = { db_name: 'name', ui_name: 'Name', type: 'text', required: true };

async function folderWith(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'table-configurations-'));
  for (const [file, content] of Object.entries(files)) {
    await writeFile(
      path.join(dir, file),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  }
  return dir;
}

const table = (name: string, fields: unknown[] = [idField, nameField]) => ({
  db_table_name: name,
  ui_table_name: `The ${name}`,
  field_list: fields,
});

async function loadError(dir: string): Promise<TableConfigurationError> {
  const error = await loadTableConfigurations(dir).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TableConfigurationError);
  return error as TableConfigurationError;
}

describe('loadTableConfigurations', () => {
  it('loads the six configurations of the repository, in file-name order', async () => {
    const tables = await loadTableConfigurations(tableConfigurationsDir);
    expect(tables.map((config) => config.db_table_name)).toEqual([
      'contact_us_submissions',
      'form_submissions',
      'free_product_gift_submissions',
      'refund_inquiries',
      'soul_reset_submissions',
      'terms_of_service_feedback',
    ]);
    expect(new Set(tables.map((config) => config.db_table_name))).toEqual(new Set(tableNames));
    expect(tables[1]!.ui_table_name).toBe('Form Submissions');
  });

  it('reads only .json files, and accepts a folder with none', async () => {
    const dir = await folderWith({ 'b.json': table('b_table'), 'a.json': table('a_table') });
    await writeFile(path.join(dir, 'README.md'), 'not a configuration');
    expect((await loadTableConfigurations(dir)).map((config) => config.db_table_name)).toEqual([
      'a_table',
      'b_table',
    ]);
    expect(await loadTableConfigurations(await folderWith({}))).toEqual([]);
  });

  it('stops on a file that is not JSON, naming the file', async () => {
    const dir = await folderWith({ 'ok.json': table('ok_table'), 'broken.json': '{ "db_table' });
    const error = await loadError(dir);
    expect(error.message).toMatch(
      new RegExp(`^the table configuration .*broken\\.json is invalid: it is not valid JSON \\(`),
    );
  });

  it('stops on a configuration the shared schema refuses, naming the file and the field', async () => {
    const dir = await folderWith({
      'bad.json': table('bad_table', [idField, { ...nameField, db_name: 'name; drop table x' }]),
    });
    expect((await loadError(dir)).message).toMatch(
      /^the table configuration .*bad\.json is invalid: field_list\.1\.db_name: .+\.$/,
    );
    const noFields = await folderWith({ 'empty.json': table('empty_table', []) });
    expect((await loadError(noFields)).message).toMatch(/empty\.json is invalid: field_list: /);
  });

  it('stops on a configuration without an id field, or with a field listed twice', async () => {
    const noId = await folderWith({ 'no-id.json': table('no_id', [nameField]) });
    expect((await loadError(noId)).message).toMatch(
      /no-id\.json is invalid: it has no "id" field\.$/,
    );
    const twice = await folderWith({
      'twice.json': table('twice', [idField, nameField, nameField]),
    });
    expect((await loadError(twice)).message).toMatch(
      /twice\.json is invalid: the field "name" is listed twice\.$/,
    );
  });

  it('stops when two files configure the same table', async () => {
    const dir = await folderWith({ 'one.json': table('same'), 'two.json': table('same') });
    expect((await loadError(dir)).message).toMatch(
      /two\.json is invalid: one\.json already configures the table "same"\.$/,
    );
  });

  it('stops when the folder cannot be read', async () => {
    const dir = path.join(await folderWith({}), 'missing');
    expect((await loadError(dir)).message).toMatch(
      /^the table configurations folder .*missing cannot be read \(ENOENT/,
    );
  });

  it('is reported at start as one line', async () => {
    const dir = await folderWith({ 'broken.json': '[' });
    const line = describeStartupError(await loadError(dir), undefined);
    expect(line).toMatch(/^Cannot start: the table configuration .*broken\.json is invalid: /);
    expect(line).not.toContain('\n');
  });
});

describeEachDatabase('checkConfiguredColumns', (use) => {
  it('finds every configured table and column after the migrations', async () => {
    const tables = await loadTableConfigurations(tableConfigurationsDir);
    await expect(checkConfiguredColumns(use().db, tables)).resolves.toBeUndefined();
  });

  it('names each missing table and column in one error', async () => {
    const tables: TableConfig[] = [
      table('form_submissions', [
        idField,
        nameField,
        { ...nameField, db_name: 'nickname' },
      ]) as TableConfig,
      table('no_such_table') as TableConfig,
    ];
    await expect(checkConfiguredColumns(use().db, tables)).rejects.toThrow(
      new TableConfigurationError(
        'the admin table configurations name what the database does not have: ' +
          'column "nickname" of table "form_submissions", table "no_such_table".',
      ),
    );
  });
});

describe('startServer with a configuration the database does not match', () => {
  it('refuses to start, with the message of the check, and releases the data dir', async () => {
    const config = await testConfig({ PORT: '0' });
    const tables = [table('no_such_table') as TableConfig];
    const error = await startServer(config, { tables }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(describeStartupError(error, config)).toBe(
      'Cannot start: the admin table configurations name what the database does not have: table "no_such_table".',
    );
    const server = await startServer(config);
    await server.close();
  }, 60_000);
});
