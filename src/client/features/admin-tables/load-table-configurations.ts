import { tableConfigSchema, type TableConfig } from '../../../shared/admin/table-config';

/** Configuration files by path, each read on demand (Vite's lazy `import.meta.glob`). */
export type ConfigurationFiles = Record<string, () => Promise<unknown>>;

const bundledFiles: ConfigurationFiles = import.meta.glob(
  '../../../shared/table-configurations/*.json',
  { import: 'default' },
);

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The admin's table configurations, validated, in file-name order. Rejects when a file cannot
 * be read or does not match the schema: a broken configuration must not go unnoticed.
 */
export async function loadTableConfigurations(
  files: ConfigurationFiles = bundledFiles,
): Promise<TableConfig[]> {
  const paths = Object.keys(files).sort((a, b) => {
    const [nameA, nameB] = [fileName(a), fileName(b)];
    return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
  });
  return Promise.all(
    paths.map(async (path) => {
      const parsed = tableConfigSchema.safeParse(await files[path]!());
      if (!parsed.success) throw new Error(`Invalid table configuration ${fileName(path)}`);
      return parsed.data;
    }),
  );
}
