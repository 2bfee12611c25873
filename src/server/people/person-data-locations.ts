import { tableNames } from '../../shared/tables';

/**
 * Every place the database keeps a person's address: the one list the People tool reads and
 * erases from. A table that stores an address gets an entry here (people-erase.test.ts walks
 * every text and JSON column of every schema and fails while any place is missing).
 *
 * - `owner`: the column saying whose record a row is; rows of the address are deleted, or,
 *   with `anonymise`, kept with those columns replaced (orders stay for accounting).
 * - `mentions`: text columns that may name the address inside other rows: it is replaced.
 * - `rowArrays`: jsonb arrays of whole rows (the audit log): a row naming the address becomes
 *   `{ id, erased: true }`.
 *
 * A place whose table (or owner column) the database does not have yet is skipped, so tables
 * other features add later (mail_deliveries, orders) are covered from the moment they exist;
 * `mentions: 'text'` means every text column of the table but the owner's.
 */
export type PersonDataLocation = {
  table: string;
  label: string;
  owner?: { column: string; match: 'equals' | 'contains' };
  anonymise?: Record<string, string>;
  mentions?: string[] | 'text';
  rowArrays?: string[];
};

const formTables: PersonDataLocation[] = tableNames.map((table) => ({
  table,
  label: table.replaceAll('_', ' '),
  owner: { column: 'email', match: 'equals' },
  mentions: ['name', 'notes', ...(table === 'free_product_gift_submissions' ? [] : ['message'])],
}));

export const personDataLocations: PersonDataLocation[] = [
  ...formTables,
  // Deleting the user deletes its sessions and accounts (foreign keys on delete cascade).
  {
    table: 'auth_user',
    label: 'sign-in account',
    owner: { column: 'email', match: 'equals' },
    mentions: ['name'],
  },
  // Sign-in codes: the identifier is "<type>-otp-<address>".
  {
    table: 'auth_verification',
    label: 'sign-in codes',
    owner: { column: 'identifier', match: 'contains' },
  },
  // Code email counters: "email:<address>".
  {
    table: 'auth_send_throttle',
    label: 'sign-in email counters',
    owner: { column: 'key', match: 'contains' },
  },
  // DESIGN.md "Mail delivery": the person's emails go; another record's email that names
  // them (an owner notification) keeps all but the address.
  {
    table: 'mail_deliveries',
    label: 'emails',
    owner: { column: 'recipient', match: 'equals' },
    mentions: 'text',
  },
  // DESIGN.md "Selling for real": orders stay for accounting, without the person.
  {
    table: 'orders',
    label: 'orders',
    owner: { column: 'email', match: 'equals' },
    anonymise: { email: '[erased]', name: '[erased]' },
    mentions: 'text',
  },
  {
    table: 'admin_audit_log',
    label: 'admin activity',
    mentions: ['admin_email', 'restored_by'],
    rowArrays: ['before', 'after'],
  },
  // DESIGN.md "The offer, edited by the owner": who published a version or saved the draft
  // (an admin's address, as in the activity log). The content is the owner's published page,
  // kept as published; it holds no visitor's record.
  { table: 'store_versions', label: 'store versions', mentions: ['published_by'] },
  { table: 'store_draft', label: 'store draft', mentions: ['updated_by'] },
  // DESIGN.md "The mailing list": the subscriber goes (its tokens with it); its consent events
  // stay without it, beside an erased-marker (list/list-erase.ts).
  {
    table: 'list_subscribers',
    label: 'mailing list',
    owner: { column: 'email', match: 'equals' },
    mentions: ['name'],
  },
  // The admin who uploaded a file; a file's own name may name someone too.
  { table: 'store_files', label: 'uploaded files', mentions: ['created_by', 'name'] },
];
