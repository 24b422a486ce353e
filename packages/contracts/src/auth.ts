import { z } from 'zod';
import { defineContract } from './contract.ts';

export const DevMailboxMessage = z
  .object({
    id: z.number().int(),
    channel: z.enum(['email', 'sms']),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    code: z.string().optional(),
    link: z.string().optional(),
    sentAt: z.string(),
  })
  .meta({ id: 'DevMailboxMessage' });
export type DevMailboxMessage = z.infer<typeof DevMailboxMessage>;

/** Development only: messages the sign-in layer "sent" (absent when NODE_ENV=production or SMTP is used). */
export const devMailboxContract = defineContract({
  method: 'GET',
  path: '/api/dev/mailbox',
  summary: 'Development mailbox: sign-in emails and SMS, newest first (not available in production)',
  tags: ['dev'],
  auth: false,
  query: z.object({ to: z.string().max(320).optional() }),
  response: z.array(DevMailboxMessage).meta({ id: 'DevMailbox' }),
});
