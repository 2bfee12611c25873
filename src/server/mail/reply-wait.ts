/**
 * How long a send that handed the server the whole message waits for its reply. Given up
 * sooner, a message the server took is recorded as not sent and sent again (RFC 1047), so this
 * is much longer than MAIL_TIMEOUT_MS, as RFC 5321 §4.5.3.2 asks; yet short enough that a
 * message a server swallowed without a word is retried within minutes.
 */
export function replyWaitFor(mailTimeoutMs: number): number {
  return mailTimeoutMs * 10;
}
