import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the Stripe API parts Lumina uses (docs/reference/providers/stripe.md):
 * Checkout Sessions, Customers, Billing portal sessions and Refunds, speaking the SDK's form-encoded bodies,
 * honouring Idempotency-Key, answering Stripe's error shape. Tests "pay" a session and deliver signed
 * events to the app with `deliver`. For the browser tests (stripe-server.cli.ts) it also serves the hosted
 * checkout page at a session's `url` and a refund control; with a `webhookUrl` it sends their events itself.
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

export interface StripeFakeOptions {
  /** A fixed port (the browser tests' CLI); a free one otherwise. */
  port?: number;
  /** Fixed keys, so a separately started app can be given them; random otherwise. */
  secretKey?: string;
  webhookSecret?: string;
  /**
   * Where Stripe would send events: when set, paying on the hosted checkout page sends
   * `checkout.session.completed` and every refund sends `charge.refunded` there, signed as Stripe signs them.
   */
  webhookUrl?: string;
}

export interface StripeFake {
  /** Settings that point the app's SDK here. */
  env: Record<string, string>;
  /** Where the fake listens (`http://127.0.0.1:<port>`). */
  url: string;
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

/** The HTML page a person sees at a Checkout Session's `url`: the amount, and a Pay button. */
function checkoutPage(session: FakeSession): string {
  const escape = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const item = session.line_items[0] as { price_data?: { product_data?: { name?: string } } } | undefined;
  const name = item?.price_data?.product_data?.name ?? 'Your purchase';
  const amount = new Intl.NumberFormat('en', { style: 'currency', currency: session.currency }).format(
    session.amount_total / 100,
  );
  const open = session.status === 'open';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pay · fake Stripe Checkout</title></head>
<body>
<main>
<h1>Fake Stripe Checkout</h1>
<p data-testid="stripe-checkout-item">${escape(name)}</p>
<p data-testid="stripe-checkout-amount" data-amount="${session.amount_total}" data-currency="${escape(session.currency)}">${escape(amount)}</p>
${
  open
    ? `<form method="post" action="/checkout/${encodeURIComponent(session.id)}/pay"><button type="submit">Pay</button></form>${
        session.cancel_url ? `<p><a href="${escape(session.cancel_url)}">Cancel</a></p>` : ''
      }`
    : `<p data-testid="stripe-checkout-closed">This checkout is ${session.status}.</p>`
}
</main>
</body></html>`;
}

export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  const secretKey = options.secretKey ?? `sk_test_fake_${randomBytes(6).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
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

  /** Sends an event to the configured endpoint, if any; a refused delivery is reported, as Stripe's dashboard would. */
  const announce = async (type: string, object: unknown): Promise<number | null> => {
    if (!options.webhookUrl) return null;
    const status = await fake.deliver(options.webhookUrl, fake.event(type, object)).catch((err: unknown) => {
      console.error(`fake Stripe: delivering ${type} failed: ${String(err)}`);
      return 0;
    });
    if (status < 200 || status >= 300) console.error(`fake Stripe: ${type} was answered ${status}`);
    return status;
  };

  /** A paid session's charge as Stripe shows it, with what has been refunded of it so far. */
  const chargeOf = (session: FakeSession) => {
    const intent = session.payment_intent!;
    const id = `ch_${intent.slice(3)}`;
    const made = [...refunds.values()].filter((r) => r.payment_intent === intent);
    const amountRefunded = made.reduce((n, r) => n + r.amount, 0);
    return {
      id,
      object: 'charge',
      amount: session.amount_total,
      amount_captured: session.amount_total,
      amount_refunded: amountRefunded,
      refunded: amountRefunded >= session.amount_total,
      paid: true,
      captured: true,
      status: 'succeeded',
      currency: session.currency,
      customer: session.customer,
      payment_intent: intent,
      receipt_url: `${origin}/receipts/${id}`,
      refunds: { object: 'list', data: made, has_more: false, url: `/v1/charges/${id}/refunds` },
      created: session.created,
      livemode: false,
    };
  };
  const announceRefund = (made: FakeRefund) => {
    const owner = [...sessions.values()].find((s) => s.payment_intent === made.payment_intent)!;
    return announce('charge.refunded', chargeOf(owner));
  };

  /**
   * A refund of a paid session's PaymentIntent (`payment_intent`, or its charge `ch_…`), in full unless
   * `amount` says less; more than is left is refused as Stripe does.
   */
  const refund = (
    body: Record<string, unknown>,
  ): { refund: FakeRefund } | { error: string; extra: Record<string, string> } => {
    const charge = body.charge as string | undefined;
    const intent =
      (body.payment_intent as string | undefined) ??
      (charge?.startsWith('ch_') ? `pi_${charge.slice(3)}` : undefined);
    if (!intent)
      return { error: 'Missing required param: payment_intent.', extra: { param: 'payment_intent' } };
    const owner = [...sessions.values()].find((s) => s.payment_intent === intent);
    if (!owner || owner.payment_status !== 'paid') {
      return {
        error: `No such payment_intent: '${intent}'`,
        extra: { param: 'payment_intent', code: 'resource_missing' },
      };
    }
    const left = owner.amount_total - chargeOf(owner).amount_refunded;
    const amount = body.amount === undefined ? left : Number(body.amount);
    if (left <= 0) {
      return {
        error: `Charge ch_${intent.slice(3)} has already been refunded.`,
        extra: { code: 'charge_already_refunded' },
      };
    }
    if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
      return {
        error: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        extra: { param: 'amount', code: 'amount_too_large' },
      };
    }
    const made: FakeRefund = {
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
    refunds.set(made.id, made);
    return { refund: made };
  };

  /**
   * What a person's browser and the test reach, without the API key: the hosted checkout page at a
   * session's `url`, and `/_test/*` controls standing in for the Stripe dashboard. Undefined when the
   * path is none of these.
   */
  const handleOutsideApi = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    raw: string,
  ): Promise<true | undefined> => {
    const page = /^\/checkout\/([^/]+)(\/pay)?$/.exec(url.pathname);
    if (page) {
      const session = sessions.get(decodeURIComponent(page[1]!));
      if (!session) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('No such checkout session');
        return true;
      }
      if (req.method === 'GET' && !page[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(checkoutPage(session));
        return true;
      }
      if (req.method === 'POST' && page[2]) {
        if (session.status !== 'open') {
          res.writeHead(409, { 'content-type': 'text/html; charset=utf-8' }).end(checkoutPage(session));
          return true;
        }
        // As Stripe: the session is paid, the endpoint told, then the person goes to the success URL.
        fake.pay(session.id);
        await announce('checkout.session.completed', session);
        const back = session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
        res.writeHead(303, { location: back }).end();
        return true;
      }
    }
    if (req.method === 'GET' && url.pathname === '/_test/sessions') {
      send(res, 200, { data: [...sessions.values()] });
      return true;
    }
    if (req.method === 'POST' && url.pathname === '/_test/refund') {
      // A refund made in the dashboard: a full one unless `amount` (cents) says less; `charge.refunded` follows.
      let body: Record<string, unknown>;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        error(res, 400, 'The body is not JSON.');
        return true;
      }
      const made = refund(body);
      if ('error' in made) {
        error(res, 400, made.error, made.extra);
        return true;
      }
      const delivered = await announceRefund(made.refund);
      send(res, 200, { refund: made.refund, webhook_status: delivered });
      return true;
    }
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    if (!url.pathname.startsWith('/v1/') && (await handleOutsideApi(req, res, url, raw))) return;
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
      const made = refund(body);
      if ('error' in made) return error(res, 400, made.error, made.extra);
      remember(200, made.refund);
      // Stripe tells the webhook endpoint afterwards, not within the API call.
      setImmediate(() => void announceRefund(made.refund));
      return;
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
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  // The page and the controls above pay and send events through the same methods the tests use.
  const fake: StripeFake = {
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: 'http',
    },
    url: origin,
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
  return fake;
}
