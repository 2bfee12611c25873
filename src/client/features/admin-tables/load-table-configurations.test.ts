import { describe, expect, it } from 'vitest';
import { loadTableConfigurations } from './load-table-configurations';

const config = (name: string) => ({
  db_table_name: name,
  ui_table_name: name.toUpperCase(),
  field_list: [{ db_name: 'id', ui_name: 'ID', type: 'id', required: false }],
});

describe('loadTableConfigurations', () => {
  it('loads the six bundled configurations in file-name order', async () => {
    const configs = await loadTableConfigurations();
    expect(configs.map((entry) => entry.db_table_name)).toEqual([
      'contact_us_submissions',
      'form_submissions',
      'free_product_gift_submissions',
      'refund_inquiries',
      'soul_reset_submissions',
      'terms_of_service_feedback',
    ]);
  });

  it('sorts by file name, not by folder or load order', async () => {
    const configs = await loadTableConfigurations({
      '/b/alpha.json': async () => config('alpha'),
      '/a/gamma.json': async () => config('gamma'),
      '/c/beta.json': async () => config('beta'),
    });
    expect(configs.map((entry) => entry.db_table_name)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('rejects a configuration that does not match the schema, naming the file', async () => {
    await expect(
      loadTableConfigurations({
        '/x/good.json': async () => config('good'),
        '/x/bad.json': async () => ({ ...config('bad'), db_table_name: 'Robert; DROP TABLE' }),
      }),
    ).rejects.toThrow('Invalid table configuration bad.json');
  });

  it('rejects when a file cannot be read', async () => {
    await expect(
      loadTableConfigurations({ '/x/gone.json': () => Promise.reject(new Error('404')) }),
    ).rejects.toThrow('404');
  });
});
