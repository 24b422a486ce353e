import { z } from 'zod';
import { defineContract } from './contract.ts';

const WebhookAck = z.object({ received: z.literal(true) }).meta({ id: 'WebhookAck' });

/** Provider completion webhooks: verified against the raw body, then handled asynchronously. */
export const falWebhookContract = defineContract({
  method: 'POST',
  path: '/api/webhooks/fal',
  summary: 'fal.ai queue webhook (ED25519-signed); a faster alternative to polling',
  tags: ['webhooks'],
  auth: false,
  response: WebhookAck,
});

export const replicateWebhookContract = defineContract({
  method: 'POST',
  path: '/api/webhooks/replicate',
  summary: 'Replicate prediction webhook (Standard Webhooks HMAC); a faster alternative to polling',
  tags: ['webhooks'],
  auth: false,
  response: WebhookAck,
});
