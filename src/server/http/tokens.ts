import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: what an emailed link carries. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What is stored of a token: its SHA-256, so a leaked database opens no link. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new unguessable token. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}
