import type { Logger } from '../../logger.ts';
import type { Mailer, MailMessage } from './mailer.ts';

export interface MailboxEntry extends MailMessage {
  id: number;
  /** `email` or `sms`. */
  channel: 'email' | 'sms';
  sentAt: string;
}

/**
 * The development mailbox: messages (email and SMS) are logged and kept in memory, newest first, and
 * read at `GET /api/dev/mailbox` outside production. In production the log line carries no code or link.
 */
export class DevMailbox implements Mailer {
  readonly kind = 'dev' as const;
  private entries: MailboxEntry[] = [];
  private nextId = 1;

  constructor(
    private readonly log: Logger,
    private readonly options: { logSecrets: boolean; capacity?: number },
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.record('email', message);
  }

  record(channel: 'email' | 'sms', message: MailMessage): void {
    const entry: MailboxEntry = { ...message, id: this.nextId++, channel, sentAt: new Date().toISOString() };
    this.entries.unshift(entry);
    this.entries.length = Math.min(this.entries.length, this.options.capacity ?? 200);
    const details = this.options.logSecrets ? { code: message.code, link: message.link } : {};
    this.log.info(
      { to: message.to, subject: message.subject, channel, ...details },
      `dev mailbox: ${message.subject}`,
    );
  }

  list(filter: { to?: string } = {}): MailboxEntry[] {
    const to = filter.to?.toLowerCase();
    return to ? this.entries.filter((e) => e.to.toLowerCase() === to) : [...this.entries];
  }
}
