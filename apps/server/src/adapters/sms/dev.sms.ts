import type { DevMailbox } from '../mail/dev-mailbox.mailer.ts';
import type { SmsMessage, SmsSender } from './sms.ts';

/** Development SMS: recorded in the development mailbox (channel `sms`). */
export class DevSmsSender implements SmsSender {
  readonly kind = 'dev' as const;
  constructor(private readonly mailbox: DevMailbox) {}

  async send(message: SmsMessage): Promise<void> {
    this.mailbox.record('sms', {
      to: message.to,
      subject: 'SMS',
      text: message.text,
      html: '',
      code: message.code,
      link: message.link,
    });
  }
}
