/** Outgoing email, behind one interface: SMTP when configured, the development mailbox otherwise. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Sign-in material, kept on the dev mailbox so tests and developers can read it. Never logged in production. */
  code?: string;
  link?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'dev';
  send(message: MailMessage): Promise<void>;
}
