import type { FastifyInstance, FastifyReply } from 'fastify';
import { PREVIEW_DRAFT_FIELD } from '../../shared/broadcasts/broadcasts-api';
import { HttpError } from '../http/errors';

/**
 * The policy of an email preview document: the email's inline styles and its images, nothing
 * else (no scripts, no requests, no forms), framed by the site's own pages only.
 */
export const EMAIL_PREVIEW_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; frame-ancestors 'self'; form-action 'none'; base-uri 'none'";

/**
 * Reads urlencoded form bodies in the scope it is called in: the preview frames are navigated
 * by a form posted from the admin page, which a fetch could not do.
 */
export function acceptPreviewForms(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
}

/** The draft a preview form carries as JSON in its one field, for the shared schema to check. */
export function previewFormDraft(body: unknown): unknown {
  const json = body instanceof URLSearchParams ? body.get(PREVIEW_DRAFT_FIELD) : null;
  if (json === null) throw new HttpError(400, 'The preview form carries no draft.');
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw new HttpError(400, 'The preview form carries no draft.');
  }
}

/**
 * Answers with the server's sanitised rendering of an email as a document of its own: its own
 * policy replaces the site's, which would refuse the email's inline styles.
 */
export function sendPreviewDocument(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', EMAIL_PREVIEW_CSP)
    .header('x-frame-options', 'SAMEORIGIN')
    .header('x-robots-tag', 'noindex')
    .send(html);
}
