import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StripeApiServer = {
  /** http://127.0.0.1:<port>, for STRIPE_API_URL. */
  url: string;
  /** Sessions the server knows, by id. */
  sessions: Map<string, unknown>;
  /** Requests received: method, path, the Authorization and Idempotency-Key headers. */
  requests: {
    method: string;
    path: string;
    authorization: string | undefined;
    idempotencyKey?: string | undefined;
    fields?: Record<string, string>;
  }[];
  /** Coupons created, by id, as Stripe answers them. */
  coupons: Map<string, StripeCoupon>;
  /** Promotion codes created, by id, as Stripe answers them. */
  promotionCodes: Map<string, StripePromotionCode>;
  /** The form fields of each Checkout Session created, as Stripe's API receives them. */
  created: Record<string, string>[];
  /** While true, creating a session answers Stripe's 500 api_error. */
  failing: boolean;
  close(): Promise<void>;
};

export type StripeCoupon = {
  id: string;
  object: 'coupon';
  name: string | null;
  duration: string;
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  valid: boolean;
  metadata: Record<string, string>;
};

export type StripePromotionCode = {
  id: string;
  object: 'promotion_code';
  code: string;
  active: boolean;
  promotion: { type: 'coupon'; coupon: string };
  max_redemptions: number | null;
  expires_at: number | null;
  times_redeemed: number;
  metadata: Record<string, string>;
};

type Fields = Record<string, string>;

/** The keys of a bracketed form prefix: metadata[a]=1 → { a: '1' }. */
function nested(fields: Fields, prefix: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([key, value]) => {
      const name = new RegExp(`^${prefix}\\[(.+)\\]$`).exec(key)?.[1];
      return name ? [[name, value]] : [];
    }),
  );
}

const invalid = (message: string, param?: string) => ({
  status: 400,
  body: { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } },
});

/**
 * A local server speaking the part of Stripe's API the store uses, with Stripe's answers and
 * error shapes: Checkout Sessions (created with a price, `discounts` or
 * `allow_promotion_codes`, and the amounts Stripe reports: `amount_subtotal`, `amount_total`,
 * `total_details`), coupons and promotion codes (created, switched on and off), and
 * Idempotency-Key replays. Stripe itself cannot run here.
 */
export async function startStripeApiServer(): Promise<StripeApiServer> {
  const sessions = new Map<string, unknown>();
  const coupons = new Map<string, StripeCoupon>();
  const promotionCodes = new Map<string, StripePromotionCode>();
  const requests: StripeApiServer['requests'] = [];
  const created: StripeApiServer['created'] = [];
  /** Answers given per Idempotency-Key, with the fields they were given for. */
  const replays = new Map<string, { fields: string; status: number; body: unknown }>();
  let sequence = 0;

  function createSession(fields: Fields): { status: number; body: unknown } {
    if (
      fields.allow_promotion_codes &&
      Object.keys(fields).some((key) => key.startsWith('discounts['))
    ) {
      return invalid(
        'You may only specify one of these parameters: allow_promotion_codes, discounts.',
      );
    }
    const subtotal = Number(fields['line_items[0][price_data][unit_amount]']);
    let discount = 0;
    const discounts: { coupon: string; promotion_code: string | null }[] = [];
    const promotionId = fields['discounts[0][promotion_code]'];
    if (promotionId) {
      const promotion = promotionCodes.get(promotionId);
      if (!promotion) return invalid(`No such promotion code: '${promotionId}'`, 'discounts');
      const expired =
        promotion.expires_at !== null && promotion.expires_at <= Math.floor(Date.now() / 1000);
      const used =
        promotion.max_redemptions !== null && promotion.times_redeemed >= promotion.max_redemptions;
      if (!promotion.active || expired || used) {
        return invalid(
          'This promotion code cannot be redeemed because it is inactive.',
          'discounts',
        );
      }
      const coupon = coupons.get(promotion.promotion.coupon)!;
      discount =
        coupon.percent_off !== null
          ? Math.round((subtotal * coupon.percent_off) / 100)
          : Math.min(coupon.amount_off ?? 0, subtotal);
      discounts.push({ coupon: coupon.id, promotion_code: promotion.id });
    }
    created.push(fields);
    sequence += 1;
    const id = `cs_test_created${sequence}`;
    return {
      status: 200,
      body: {
        id,
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        created: Math.floor(Date.now() / 1000),
        amount_subtotal: subtotal,
        amount_total: subtotal - discount,
        total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: 0 },
        allow_promotion_codes: fields.allow_promotion_codes === 'true' ? true : null,
        discounts,
        currency: fields['line_items[0][price_data][currency]'],
        // Stripe keeps every metadata key the session was created with.
        metadata: nested(fields, 'metadata'),
        success_url: fields.success_url,
        url: `https://checkout.stripe.test/c/pay/${id}`,
      },
    };
  }

  function createCoupon(fields: Fields): { status: number; body: unknown } {
    const percent = fields.percent_off;
    const amount = fields.amount_off;
    if ((percent === undefined) === (amount === undefined)) {
      return invalid('You must pass exactly one of percent_off or amount_off.');
    }
    if (amount !== undefined && !fields.currency) {
      return invalid('You must pass currency when passing amount_off.', 'currency');
    }
    sequence += 1;
    const coupon: StripeCoupon = {
      id: fields.id ?? `coupon_test${sequence}`,
      object: 'coupon',
      name: fields.name ?? null,
      duration: fields.duration ?? 'once',
      percent_off: percent === undefined ? null : Number(percent),
      amount_off: amount === undefined ? null : Number(amount),
      currency: fields.currency ?? null,
      valid: true,
      metadata: nested(fields, 'metadata'),
    };
    coupons.set(coupon.id, coupon);
    return { status: 200, body: coupon };
  }

  function createPromotionCode(fields: Fields): { status: number; body: unknown } {
    const couponId = fields['promotion[coupon]'];
    if (fields['promotion[type]'] !== 'coupon' || !couponId) {
      return invalid('Missing required param: promotion.', 'promotion');
    }
    if (!coupons.has(couponId))
      return invalid(`No such coupon: '${couponId}'`, 'promotion[coupon]');
    const code = fields.code ?? `AUTO${sequence}`;
    const active = fields.active !== 'false';
    const taken = [...promotionCodes.values()].some(
      (other) => other.active && other.code.toUpperCase() === code.toUpperCase(),
    );
    if (active && taken) {
      return invalid(`An active promotion code with \`code: ${code}\` already exists.`, 'code');
    }
    const expires = fields.expires_at === undefined ? null : Number(fields.expires_at);
    if (expires !== null && expires <= Math.floor(Date.now() / 1000)) {
      return invalid('Promotion code expiration must be in the future.', 'expires_at');
    }
    sequence += 1;
    const promotion: StripePromotionCode = {
      id: `promo_test${sequence}`,
      object: 'promotion_code',
      code,
      active,
      promotion: { type: 'coupon', coupon: couponId },
      max_redemptions: fields.max_redemptions === undefined ? null : Number(fields.max_redemptions),
      expires_at: expires,
      times_redeemed: 0,
      metadata: nested(fields, 'metadata'),
    };
    promotionCodes.set(promotion.id, promotion);
    return { status: 200, body: promotion };
  }

  function updatePromotionCode(id: string, fields: Fields): { status: number; body: unknown } {
    const promotion = promotionCodes.get(id);
    if (!promotion) return missing('promotion_code', id);
    const unknown = Object.keys(fields).find(
      (key) => key !== 'active' && !key.startsWith('metadata[') && !key.startsWith('restrictions['),
    );
    if (unknown) return invalid(`Received unknown parameter: ${unknown}`, unknown);
    if (fields.active === 'true' && !promotion.active) {
      const taken = [...promotionCodes.values()].some(
        (other) => other.active && other.code.toUpperCase() === promotion.code.toUpperCase(),
      );
      if (taken) {
        return invalid(
          `An active promotion code with \`code: ${promotion.code}\` already exists.`,
          'active',
        );
      }
    }
    if (fields.active !== undefined) promotion.active = fields.active === 'true';
    Object.assign(promotion.metadata, nested(fields, 'metadata'));
    return { status: 200, body: promotion };
  }

  function missing(kind: string, id: string) {
    return {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such ${kind}: '${id}'`,
          param: 'id',
        },
      },
    };
  }

  function route(method: string, path: string, fields: Fields): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (api.failing) {
        return {
          status: 500,
          body: { error: { type: 'api_error', message: 'Something went wrong' } },
        };
      }
      const answer = createSession(fields);
      const session = answer.body as { id?: string };
      if (answer.status === 200 && session.id) sessions.set(session.id, session);
      return answer;
    }
    if (method === 'POST' && path === '/v1/coupons') return createCoupon(fields);
    if (method === 'POST' && path === '/v1/promotion_codes') {
      if (api.failing) {
        return {
          status: 500,
          body: { error: { type: 'api_error', message: 'Something went wrong' } },
        };
      }
      return createPromotionCode(fields);
    }
    const promotion = /^\/v1\/promotion_codes\/([^/]+)$/.exec(path);
    if (promotion && method === 'POST') {
      return updatePromotionCode(decodeURIComponent(promotion[1]!), fields);
    }
    const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    const session =
      match && method === 'GET' ? sessions.get(decodeURIComponent(match[1]!)) : undefined;
    if (!session) {
      return {
        status: 404,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such checkout.session: '${match?.[1] ?? path}'`,
            param: 'session',
          },
        },
      };
    }
    return { status: 200, body: session };
  }

  const server = createServer(async (request, response) => {
    const path = (request.url ?? '').split('?')[0]!;
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const fields = Object.fromEntries(new URLSearchParams(body));
    const idempotencyKey = request.headers['idempotency-key'];
    const key = typeof idempotencyKey === 'string' ? idempotencyKey : undefined;
    requests.push({
      method: request.method ?? '',
      path,
      authorization: request.headers.authorization,
      ...(key ? { idempotencyKey: key } : {}),
      ...(body ? { fields } : {}),
    });
    const send = (status: number, answer: unknown, replayed = false) => {
      response.writeHead(status, {
        'content-type': 'application/json',
        'request-id': 'req_test',
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      response.end(JSON.stringify(answer));
    };
    if (!request.headers.authorization?.startsWith('Bearer sk_')) {
      return send(401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
    }
    // Stripe answers a repeated key with the first answer, and refuses other parameters.
    const replay = key && request.method === 'POST' ? replays.get(`${path} ${key}`) : undefined;
    if (replay) {
      if (replay.fields !== body) {
        return send(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        });
      }
      return send(replay.status, replay.body, true);
    }
    const answer = route(request.method ?? '', path, fields);
    // Stripe keeps the answer of a key unless it was a server error, which may be tried again.
    if (key && request.method === 'POST' && answer.status < 500) {
      replays.set(`${path} ${key}`, { fields: body, status: answer.status, body: answer.body });
    }
    return send(answer.status, answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const api: StripeApiServer = {
    url: `http://127.0.0.1:${port}`,
    sessions,
    requests,
    created,
    coupons,
    promotionCodes,
    failing: false,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return api;
}
