/**
 * Runs the Stripe fake as its own process for the browser tests (playwright.config.ts):
 * `node --import tsx apps/server/test/fakes/stripe-server.cli.ts --port 3105 --secret-key sk_test_x
 *  --webhook-secret whsec_x --webhook-url http://127.0.0.1:3104/api/webhooks/stripe`.
 * A session's `url` is a hosted checkout page (`/checkout/{id}`) whose Pay button sends
 * `checkout.session.completed` to the webhook URL; `POST /_test/refund {"payment_intent": …}` refunds in
 * full and sends `charge.refunded`; `GET /_test/sessions` lists the sessions.
 */
import { parseArgs } from 'node:util';
import { startStripeFake } from './stripe-server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3105' },
    'secret-key': { type: 'string', default: 'sk_test_lumina_e2e' },
    'webhook-secret': { type: 'string', default: 'whsec_lumina_e2e' },
    'webhook-url': { type: 'string' },
  },
});

const fake = await startStripeFake({
  port: Number(values.port),
  secretKey: values['secret-key'],
  webhookSecret: values['webhook-secret'],
  webhookUrl: values['webhook-url'],
});
console.log(`fake Stripe at ${fake.url}, events to ${values['webhook-url'] ?? '(nowhere)'}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
