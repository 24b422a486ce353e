import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the Stripe API parts Lumina uses (docs/reference/providers/stripe.md):
 * Checkout Sessions, Customers, Billing portal sessions and Refunds, speaking the SDK's form-encoded bodies,
 * honouring Idempotency-Key, answering Stripe's error shape. Tests "pay" a session and deliver signed
 * events to the app with `deliver`.
 */

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  url: string;
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  customer: string | null;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string | null;
  line_items: Array<Record<string, unknown>>;
  created: number;
  livemode: false;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  currency: string;
  payment_intent: string;
  status: 'succeeded';
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface StripeFake {
  /** Settings that point the app's SDK here. */
  env: Record<string, string>;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, FakeSession>;
  customers: Map<string, Record<string, unknown>>;
  /** Refunds made through `POST /v1/refunds`, by id. */
  refunds: Map<string, FakeRefund>;
  /** The card fingerprint of each paid PaymentIntent's charge (set by `pay`). */
  fingerprints: Map<string, string>;
  requests: Array<{ method: string; path: string; body: Record<string, unknown>; idempotencyKey?: string }>;
  /**
   * Marks a session paid (or unpaid for a delayed method) and gives it a payment intent, paid by a card
   * whose fingerprint is `options.fingerprint` (a new one unless given: the same card twice shares it).
   */
  pay(sessionId: string, paymentStatus?: 'paid' | 'unpaid', options?: { fingerprint?: string }): FakeSession;
  /** An event envelope around an object. */
  event(type: string, object: unknown, id?: string): string;
  /** Signs and POSTs an event payload to `webhookUrl`; returns the HTTP status. */
  deliver(webhookUrl: string, payload: string, options?: { secret?: string }): Promise<number>;
  close(): Promise<void>;
}

/** Expands `a[b][0][c]=v` form fields into nested objects and arrays. */
export function parseForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const container = node as Record<string, unknown>;
      if (last) {
        container[part] = value;
        return;
      }
      if (container[part] === undefined) container[part] = /^\d+$/.test(parts[i + 1]!) ? [] : {};
      node = container[part] as Record<string, unknown>;
    });
  }
  return root;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export async function startStripeFake(): Promise<StripeFake> {
  const secretKey = `sk_test_fake_${randomBytes(6).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const sessions = new Map<string, FakeSession>();
  const customers = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, FakeRefund>();
  const fingerprints = new Map<string, string>();
  const idempotent = new Map<string, { body: string; status: number; response: unknown }>();
  const requests: StripeFake['requests'] = [];
  let origin = '';

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(6).toString('hex')}`,
    });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}) =>
    send(res, status, { error: { type: 'invalid_request_error', message, ...extra } });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
    }
    const body = req.method === 'POST' ? parseForm(raw) : parseForm(url.searchParams.toString());
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({ method: req.method ?? 'GET', path: url.pathname, body, idempotencyKey });
    if (req.method === 'POST' && idempotencyKey) {
      const seen = idempotent.get(idempotencyKey);
      if (seen) {
        if (seen.body !== raw) {
          return send(res, 400, {
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          });
        }
        return send(res, seen.status, seen.response);
      }
    }
    const remember = (status: number, response: unknown) => {
      if (req.method === 'POST' && idempotencyKey)
        idempotent.set(idempotencyKey, { body: raw, status, response });
      send(res, status, response);
    };

    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (body.mode !== 'payment') return error(res, 400, 'Missing required param: mode.', { param: 'mode' });
      const items = body.line_items as Array<Record<string, unknown>> | undefined;
      if (!items?.length)
        return error(res, 400, 'Missing required param: line_items.', { param: 'line_items' });
      if (!body.success_url)
        return error(res, 400, 'Missing required param: success_url.', { param: 'success_url' });
      let total = 0;
      let currency = 'usd';
      for (const item of items) {
        const priceData = item.price_data as Record<string, unknown> | undefined;
        if (!priceData) return error(res, 400, 'This fake only supports price_data line items.');
        total += Number(priceData.unit_amount) * Number(item.quantity ?? 1);
        currency = String(priceData.currency);
      }
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const session: FakeSession = {
        id,
        object: 'checkout.session',
        mode: 'payment',
        status: 'open',
        payment_status: 'unpaid',
        url: `${origin}/checkout/${id}`,
        amount_subtotal: total,
        amount_total: total,
        currency,
        client_reference_id: (body.client_reference_id as string) ?? null,
        metadata: (body.metadata as Record<string, string>) ?? {},
        customer: (body.customer as string) ?? null,
        payment_intent: null,
        success_url: String(body.success_url),
        cancel_url: (body.cancel_url as string) ?? null,
        line_items: items,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      sessions.set(id, session);
      return remember(200, session);
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && sessionMatch) {
      const session = sessions.get(decodeURIComponent(sessionMatch[1]!));
      if (!session) return error(res, 404, 'No such checkout.session', { code: 'resource_missing' });
      return send(res, 200, session);
    }
    const intentMatch = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && intentMatch) {
      // A paid session's PaymentIntent; `expand[]=latest_charge` gives the charge with its receipt and
      // the card's fingerprint (payment_method_details.card, as Stripe shows it; no card number).
      const id = decodeURIComponent(intentMatch[1]!);
      const owner = [...sessions.values()].find((s) => s.payment_intent === id);
      if (!owner) return error(res, 404, 'No such payment_intent', { code: 'resource_missing' });
      const chargeId = `ch_${id.slice(3)}`;
      // The SDK writes arrays as expand[0]=…; accept any expand[…] form.
      const expand = [...url.searchParams].filter(([k]) => k.startsWith('expand')).map(([, v]) => v);
      const charge = {
        id: chargeId,
        object: 'charge',
        payment_intent: id,
        receipt_url: `${origin}/receipts/${chargeId}`,
        payment_method_details: {
          type: 'card',
          card: {
            brand: 'visa',
            last4: '4242',
            exp_month: 12,
            exp_year: 2034,
            fingerprint: fingerprints.get(id) ?? null,
          },
        },
      };
      return send(res, 200, {
        id,
        object: 'payment_intent',
        status: 'succeeded',
        latest_charge: expand.includes('latest_charge') ? charge : chargeId,
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      // A refund of a paid session's PaymentIntent (`payment_intent`, or its charge `ch_…`), in full
      // unless `amount` says less; more than is left is refused as Stripe does.
      const charge = body.charge as string | undefined;
      const intent =
        (body.payment_intent as string | undefined) ??
        (charge?.startsWith('ch_') ? `pi_${charge.slice(3)}` : undefined);
      if (!intent)
        return error(res, 400, 'Missing required param: payment_intent.', { param: 'payment_intent' });
      const owner = [...sessions.values()].find((s) => s.payment_intent === intent);
      if (!owner || owner.payment_status !== 'paid') {
        return error(res, 400, `No such payment_intent: '${intent}'`, {
          param: 'payment_intent',
          code: 'resource_missing',
        });
      }
      const refunded = [...refunds.values()]
        .filter((r) => r.payment_intent === intent)
        .reduce((n, r) => n + r.amount, 0);
      const left = owner.amount_total - refunded;
      const amount = body.amount === undefined ? left : Number(body.amount);
      if (left <= 0) {
        return error(res, 400, `Charge ch_${intent.slice(3)} has already been refunded.`, {
          code: 'charge_already_refunded',
        });
      }
      if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
        return error(
          res,
          400,
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
          {
            param: 'amount',
            code: 'amount_too_large',
          },
        );
      }
      const refund: FakeRefund = {
        id: `re_${randomBytes(12).toString('hex')}`,
        object: 'refund',
        amount,
        charge: `ch_${intent.slice(3)}`,
        currency: owner.currency,
        payment_intent: intent,
        status: 'succeeded',
        reason: (body.reason as string) ?? null,
        metadata: (body.metadata as Record<string, string>) ?? {},
        created: Math.floor(Date.now() / 1000),
      };
      refunds.set(refund.id, refund);
      return remember(200, refund);
    }
    if (req.method === 'POST' && url.pathname === '/v1/customers') {
      const id = `cus_${randomBytes(8).toString('hex')}`;
      const customer = { id, object: 'customer', email: body.email ?? null, metadata: body.metadata ?? {} };
      customers.set(id, customer);
      return remember(200, customer);
    }
    if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      const customer = body.customer as string | undefined;
      if (!customer || !customers.has(customer)) {
        return error(res, 400, `No such customer: '${customer}'`, {
          param: 'customer',
          code: 'resource_missing',
        });
      }
      const id = `bps_${randomBytes(8).toString('hex')}`;
      return remember(200, {
        id,
        object: 'billing_portal.session',
        url: `${origin}/portal/${id}`,
        customer,
        return_url: body.return_url ?? null,
        livemode: false,
      });
    }
    return error(res, 404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) =>
      send(res, 500, { error: { type: 'api_error', message: String(err) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: 'http',
    },
    secretKey,
    webhookSecret,
    sessions,
    customers,
    refunds,
    fingerprints,
    requests,
    pay(sessionId, paymentStatus = 'paid', options = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = paymentStatus;
      session.payment_intent ??= `pi_${randomBytes(10).toString('hex')}`;
      if (options.fingerprint || !fingerprints.has(session.payment_intent)) {
        fingerprints.set(session.payment_intent, options.fingerprint ?? randomBytes(8).toString('hex'));
      }
      return session;
    },
    event(type, object, id = `evt_${randomBytes(12).toString('hex')}`) {
      return JSON.stringify({
        id,
        object: 'event',
        type,
        api_version: null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object },
      });
    },
    async deliver(webhookUrl, payload, options = {}) {
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
      });
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      await res.arrayBuffer();
      return res.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
