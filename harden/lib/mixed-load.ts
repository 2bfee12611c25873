import { formKinds, type FormKind } from '../../src/shared/forms/form-fields';
import { WEBHOOK_PATH } from '../../src/server/orders/order-routes';
import { checkoutSession, signedEvent, stripeEvent } from '../../tests/support/stripe-events';
import { uniqueEmail } from './form-client';

/** One request of the load and how it ended (status 0: no HTTP answer, see `error`). */
export type LoadRequest = {
  kind: 'page' | 'form' | 'webhook';
  /** The form, or the checkout session's id. */
  detail: string;
  /** The visitor's or buyer's email. */
  email?: string;
  /** Milliseconds since the epoch. */
  startedAt: number;
  endedAt: number;
  status: number;
  error?: string;
  /** The start of the body of a 5xx answer: whose answer it was (nginx's page or the app's). */
  body?: string;
  /** A form answered 200 with status success (the visitor was told it is stored). */
  acknowledged?: boolean;
  /** The webhook's body and signature, to deliver it again as Stripe retries. */
  webhook?: { payload: string; headers: Record<string, string> };
  /**
   * Sent again because the balancer closed the kept-alive connection before any answer (a
   * balancer's idle timeout or an nginx reload racing the request): browsers send such a
   * request again by themselves, and so does the load. The first error is kept here.
   */
  resentAfter?: string;
};

export type MixedLoad = {
  requests: LoadRequest[];
  /** Resolves when every loop has finished its last request. */
  stop(): Promise<void>;
};

const REQUEST_TIMEOUT_MS = 30_000;

/** undici's codes for a connection that ended before any answer: closed, reset, or written after its close. */
const resendable = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * `connections` loops, each making one request after the other until stopped: of every ten,
 * five page loads, three form submissions (the five forms in turn, a new email each) and two
 * signed checkout.session.completed deliveries (a new paid session each).
 */
export function startMixedLoad(url: string, connections: number, label: string): MixedLoad {
  const requests: LoadRequest[] = [];
  let running = true;
  let formTurn = 0;
  const loops = Array.from({ length: connections }, async (_, loop) => {
    for (let n = loop; running; n += 1) {
      const slot = n % 10;
      if (slot < 5) requests.push(await page(url));
      else if (slot < 8) {
        formTurn += 1;
        const form = formKinds[formTurn % formKinds.length]!;
        requests.push(await submit(url, form, uniqueEmail(`${label}-${form}`)));
      } else requests.push(await webhook(url, uniqueEmail(`${label}-buyer`)));
    }
  });
  return {
    requests,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function timed(
  base: Omit<LoadRequest, 'startedAt' | 'endedAt' | 'status'>,
  send: () => Promise<Response>,
  read?: (status: number, text: string) => Partial<LoadRequest>,
): Promise<LoadRequest> {
  const startedAt = Date.now();
  const once = async (): Promise<LoadRequest> => {
    try {
      const response = await send();
      const text = await response.text();
      return {
        ...base,
        startedAt,
        endedAt: Date.now(),
        status: response.status,
        ...(response.status >= 500 && { body: text.replace(/\s+/g, ' ').slice(0, 100) }),
        ...read?.(response.status, text),
      };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return {
        ...base,
        startedAt,
        endedAt: Date.now(),
        status: 0,
        error: cause?.code ?? cause?.message ?? String(error),
      };
    }
  };
  // The connection closed or was reset under the request with no answer: sent again, at most
  // twice, as Chromium does for a reused connection (ShouldResendRequest on
  // ERR_CONNECTION_CLOSED or ERR_CONNECTION_RESET, kMaxRetryAttempts). An nginx reload closes
  // its old workers' idle kept-alive connections, and a request written as that happens meets
  // a reset rather than a close. The checks then find whether a copy was stored twice.
  const first = await once();
  let last = first;
  for (let resend = 0; resend < 2 && last.status === 0 && resendable.has(last.error!); resend++)
    last = { ...(await once()), resentAfter: first.error };
  return last;
}

export function page(url: string): Promise<LoadRequest> {
  return timed({ kind: 'page', detail: '/' }, () =>
    fetch(`${url}/`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  );
}

export function submit(url: string, form: FormKind, email: string): Promise<LoadRequest> {
  return timed(
    { kind: 'form', detail: form, email },
    () =>
      fetch(`${url}/api/forms/${form}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ name: 'Harden Visitor', email, message: 'Checking the form.' }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }),
    (status, text) => {
      let body: { status?: string } | undefined;
      try {
        body = JSON.parse(text) as { status?: string };
      } catch {
        body = undefined;
      }
      return { acknowledged: status === 200 && body?.status === 'success' };
    },
  );
}

export function webhook(url: string, email: string): Promise<LoadRequest> {
  const session = checkoutSession({ customer_details: { email, name: 'Harden Buyer' } });
  const signed = signedEvent(stripeEvent('checkout.session.completed', session));
  return deliverWebhook(url, session.id, email, signed);
}

/** One delivery of a signed event (again, for a retry: Stripe resends the same body). */
export function deliverWebhook(
  url: string,
  sessionId: string,
  email: string | undefined,
  signed: { payload: string; headers: Record<string, string> },
): Promise<LoadRequest> {
  return timed({ kind: 'webhook', detail: sessionId, email, webhook: signed }, () =>
    fetch(`${url}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: signed.headers,
      body: signed.payload,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }),
  );
}
