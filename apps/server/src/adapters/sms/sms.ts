/** Outgoing SMS, behind one interface: a webhook when configured, the development mailbox otherwise. */
export interface SmsMessage {
  to: string;
  text: string;
  code?: string;
  link?: string;
}

export interface SmsSender {
  readonly kind: 'webhook' | 'dev';
  send(message: SmsMessage): Promise<void>;
}
