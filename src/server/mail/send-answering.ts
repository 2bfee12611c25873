import type { MailMessage, SendResult } from './mail-message';
import type { Mailer } from './mailer';

/**
 * A send for a request someone waits on. `answer` is its result, or `undefined` once `answerMs`
 * have passed with the whole message handed over and the server's reply still awaited: that
 * reply may take much longer (replyWaitFor), so the request answers without it while `result`
 * goes on to the end.
 */
export function sendAnswering(
  mailer: Mailer,
  message: MailMessage,
  answerMs: number,
): { answer: Promise<SendResult | undefined>; result: Promise<SendResult> } {
  let handedOver = false;
  const result = mailer.send(message, () => (handedOver = true));
  let timer: NodeJS.Timeout | undefined;
  const replyPending = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => handedOver && resolve(undefined), answerMs);
  });
  const answer = Promise.race([result, replyPending]).finally(() => clearTimeout(timer));
  return { answer, result };
}
