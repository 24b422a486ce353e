import type { SmsMessage, SmsSender } from './sms.ts';

/**
 * SMS through an HTTP hook (`SMS_WEBHOOK_URL`): POST `{ to, text }` as JSON, so any gateway (Twilio
 * Functions, a small relay) can deliver it. A non-2xx answer is an error.
 */
export class WebhookSmsSender implements SmsSender {
  readonly kind = 'webhook' as const;
  constructor(private readonly url: string) {}

  async send(message: SmsMessage): Promise<void> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: message.to, text: message.text }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`SMS webhook answered ${response.status}`);
  }
}
