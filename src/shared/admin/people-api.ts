/**
 * A person's data (DESIGN.md "Admin tools"), behind the admin guard:
 *
 * - GET  peoplePath(email)        → 200 PersonRecords: every stored record of the address
 * - POST peopleErasePath() {email} → 200 PersonErased: the address erased everywhere
 *
 * An address is matched without regard to case. 400 for anything that is not an address.
 */
export function peoplePath(email: string): string {
  return `/api/admin/people?email=${encodeURIComponent(email)}`;
}

export function peopleErasePath(): string {
  return '/api/admin/people/erase';
}

export type PersonTable = {
  table: string;
  /** What the rows are, for people. */
  label: string;
  rows: Record<string, unknown>[];
};

export type PersonRecords = { email: string; tables: PersonTable[] };

export type PersonErased = {
  /** Per place: rows deleted, and rows kept with the address taken out. */
  erased: { table: string; deleted: number; scrubbed: number }[];
};

/** What the admin types to confirm an erase: the address itself. */
export function eraseConfirmationMatches(email: string, typed: string): boolean {
  return typed.trim().toLowerCase() === email.trim().toLowerCase() && typed.trim() !== '';
}

/** The longest address accepted (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;
