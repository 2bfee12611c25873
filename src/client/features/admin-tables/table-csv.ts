import { csvFileName, tableToCsv as toCsv } from '../../../shared/admin/csv-cells';
import type { TableConfig, TableRow } from '../../../shared/admin/table-config';
import { richTextToPlain } from './rich-text-plain';

export { csvFileName };

/** SPEC.md §3 "CSV export" of the rows on screen, with the shared cell rules. */
export function tableToCsv(config: TableConfig, rows: TableRow[]): string {
  return toCsv(config, rows, richTextToPlain);
}
