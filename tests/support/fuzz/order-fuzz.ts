import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { RESEND_LINK_PATH, resendLinkSchema } from '../../../src/shared/orders/order-api';
import { freshIp } from '../sign-in';
import { signedEvent, stripeEvent } from '../stripe-events';
import { entriesOf, extraEntries, hostileBody, parsedJson, type FuzzBody } from './fuzz-body';
import { validEmail } from './form-fuzz';
import { answerProblem } from './fuzz-route';
import { hostileString, hostileValue } from './hostile-values';

const orValid = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: hostileValue(300) });

const sessionId = fc.stringMatching(/^cs_test_[A-Za-z0-9]{8,24}$/);
const paymentIntent = fc.stringMatching(/^pi_test_[A-Za-z0-9]{8,24}$/);

/** Checkout sessions as Stripe would send them, and with any field hostile. */
const sessionObject = fc.record(
  {
    id: orValid(sessionId),
    object: fc.constant('checkout.session'),
    payment_status: orValid(fc.constantFrom('paid', 'unpaid', 'no_payment_required')),
    amount_total: orValid(fc.constantFrom(2700, 100, 0, 999_999_999)),
    currency: orValid(fc.constantFrom('usd', 'eur', 'USD', 'jpy')),
    payment_intent: orValid(
      fc.oneof(
        paymentIntent,
        paymentIntent.map((id) => ({ id })),
      ),
    ),
    customer_email: orValid(validEmail),
    customer_details: orValid(
      fc.record({ email: orValid(validEmail), name: orValid(fc.string({ maxLength: 40 })) }),
    ),
  },
  { requiredKeys: [] },
);

/** A session that pays for the product, so the valid path (fulfilment) runs too. */
const paidSession = fc.record({
  id: sessionId,
  object: fc.constant('checkout.session'),
  payment_status: fc.constant('paid'),
  amount_total: fc.constant(2700),
  currency: fc.constant('usd'),
  payment_intent: paymentIntent,
  customer_details: fc.record({ email: validEmail, name: fc.string({ maxLength: 40 }) }),
});

const chargeObject = fc.record(
  {
    payment_intent: orValid(paymentIntent),
    amount: orValid(fc.constantFrom(2700, 500)),
    amount_refunded: orValid(fc.constantFrom(2700, 100, 0)),
  },
  { requiredKeys: [] },
);

const eventTypes = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'charge.refunded',
  'charge.dispute.created',
] as const;

export type WebhookInput =
  | { signed: true; type: string; object: unknown; eventId: unknown }
  | { signed: false; body: FuzzBody; signature: string | undefined };

/** Validly signed events with hostile contents, and unsigned or badly signed bodies. */
export const webhookInputs: fc.Arbitrary<WebhookInput> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      signed: fc.constant(true as const),
      type: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...eventTypes) },
        { weight: 1, arbitrary: hostileString(100) },
      ),
      object: fc.oneof(paidSession, sessionObject, chargeObject, hostileValue(300)),
      eventId: fc.oneof(
        { weight: 4, arbitrary: fc.stringMatching(/^evt_[A-Za-z0-9]{8,24}$/) },
        { weight: 1, arbitrary: hostileValue(300) },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      signed: fc.constant(false as const),
      body: hostileBody(
        entriesOf({ id: hostileValue(100), type: hostileValue(100) }, extraEntries),
      ),
      signature: fc.option(hostileString(200), { nil: undefined }),
    }),
  },
);

export function sendWebhook(app: FastifyInstance, input: WebhookInput) {
  if (input.signed) {
    const event = { ...stripeEvent(input.type, input.object), id: input.eventId };
    const { payload, headers } = signedEvent(event);
    return app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload, headers });
  }
  const headers: Record<string, string> = {};
  if (input.body.contentType !== undefined) headers['content-type'] = input.body.contentType;
  if (input.signature !== undefined) headers['stripe-signature'] = input.signature;
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers,
    payload: input.body.payload,
  });
}

/** Never a 5xx; an unsigned body is always refused; a signed event is taken or refused clearly. */
export function checkWebhook(input: WebhookInput, response: LightMyRequestResponse) {
  const problem = answerProblem(response, 'api');
  if (problem) return problem;
  if (!input.signed && response.statusCode < 400) {
    return `accepted (${response.statusCode}) a body Stripe did not sign`;
  }
  return null;
}

export const resendBodies: fc.Arbitrary<FuzzBody> = hostileBody(
  entriesOf({ email: orValid(validEmail) }, extraEntries),
);

export function sendResend(app: FastifyInstance, body: FuzzBody) {
  return app.inject({
    method: 'POST',
    url: RESEND_LINK_PATH,
    remoteAddress: freshIp(),
    headers: body.contentType === undefined ? {} : { 'content-type': body.contentType },
    payload: body.payload,
  });
}

/** The same 202 for every valid address; a clear 4xx otherwise. */
export function checkResend(body: FuzzBody, response: LightMyRequestResponse) {
  const problem = answerProblem(response, 'api');
  if (problem) return problem;
  const parsed = parsedJson(body);
  const valid = parsed !== undefined && resendLinkSchema.safeParse(parsed.value).success;
  if (response.statusCode === 202) {
    if (!valid) return 'accepted a body the schema refuses';
    if (response.body !== '{"status":"accepted"}') return `answered ${response.body}`;
  }
  return null;
}

/** Path segments: session ids and tokens, real-looking and hostile, URL-encoded. */
export const pathSegments: fc.Arbitrary<string> = fc.oneof(
  sessionId,
  fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
  hostileString(3000),
);

export function sendPath(app: FastifyInstance, prefix: string, segment: string) {
  return app.inject({
    method: 'GET',
    // Every byte percent-encoded: a lone surrogate arrives as the bytes UTF-8 gives it.
    url: `${prefix}${[...Buffer.from(segment)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')}`,
    remoteAddress: freshIp(),
  });
}

/** Session status: always `{ status }` for a route it reaches; downloads: a redirect or a file. */
export function checkPath(_segment: string, response: LightMyRequestResponse) {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}: ${response.body.slice(0, 200)}`;
  if (
    status === 302 &&
    !/^\/#\/download-link\?reason=(expired|used|revoked|invalid)$/.test(
      String(response.headers.location),
    )
  ) {
    return `redirected to ${String(response.headers.location)}`;
  }
  if (status >= 400) return answerProblem(response, 'api');
  return null;
}
