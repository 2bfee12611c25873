import { SENDER_MISSING_MESSAGE, type EmailPreview } from '../../shared/broadcasts/broadcasts-api';
import type { Config } from '../config/load-config';
import { HttpError } from '../http/errors';
import { newToken } from '../http/tokens';
import type { Mailer } from '../mail/mailer';
import {
  broadcastEmail,
  senderComplete,
  type BroadcastMessage,
  type Sender,
} from './broadcast-email';

/** What a preview shows where the sender's footer is not filled in yet. */
const PLACEHOLDER_SENDER: Sender = {
  name: 'Your name',
  postalAddress: 'Your postal address',
};

/** A broadcast or sequence step as a subscriber named Alex would get it. */
export function previewEmail(
  config: Pick<Config, 'publicUrl' | 'mailFrom'>,
  sender: Sender | undefined,
  message: BroadcastMessage,
): EmailPreview {
  const email = broadcastEmail(
    config,
    message,
    senderComplete(sender) ? sender : PLACEHOLDER_SENDER,
    { email: 'alex@example.com', name: 'Alex' },
    'preview',
  );
  return { subject: email.subject, html: email.html, text: email.text };
}

/** The sender's footer, or the 409 that list mail is refused with until it is filled in. */
export function requireSender(sender: Sender | undefined): Sender {
  if (!senderComplete(sender)) throw new HttpError(409, SENDER_MISSING_MESSAGE);
  return sender;
}

/**
 * Sends a broadcast or step to the signed-in admin at once, its subject marked as a test;
 * refused like a send until the sender's footer is filled in, 502 when the server refuses it.
 */
export async function sendTestEmail(
  deps: { config: Pick<Config, 'publicUrl' | 'mailFrom'>; mailer: Mailer },
  sender: Sender | undefined,
  message: BroadcastMessage,
  to: string,
): Promise<{ sentTo: string }> {
  const email = broadcastEmail(
    deps.config,
    { ...message, subject: `[Test] ${message.subject}` },
    requireSender(sender),
    { email: to, name: '' },
    // A link that unsubscribes no one: the admin is not the list.
    newToken(),
  );
  const result = await deps.mailer.send(email);
  if (result.status !== 'sent') {
    throw new HttpError(502, `The test email could not be sent: ${result.error}`);
  }
  return { sentTo: to };
}
