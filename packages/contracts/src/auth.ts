import { z } from 'zod';
import { defineContract } from './contract.ts';
import { ErrorBody } from './errors.ts';
import { text } from './text.ts';

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
  summary:
    'Development mailbox: sign-in emails and SMS, newest first (loopback callers only; not available in production)',
  tags: ['dev'],
  auth: false,
  query: z.object({ to: text().max(320).optional() }),
  response: z.array(DevMailboxMessage).meta({ id: 'DevMailbox' }),
  responses: { 404: ErrorBody.describe('The caller is not on this machine (loopback only)') },
});

export const EmailVerificationMode = z
  .enum(['off', 'optional', 'required'])
  .describe('off: no st-ev claim; optional: verification offered; required: unverified emails are stopped')
  .meta({ id: 'EmailVerificationMode' });
export type EmailVerificationMode = z.infer<typeof EmailVerificationMode>;

export const PublicAuthConfig = z
  .object({ emailVerification: EmailVerificationMode })
  .meta({ id: 'PublicAuthConfig' });
export type PublicAuthConfig = z.infer<typeof PublicAuthConfig>;

/** Sign-in settings the web app needs before it initialises the SDK (the rest comes from `/auth/loginmethods`). */
export const authConfigContract = defineContract({
  method: 'GET',
  path: '/api/auth/config',
  summary: "The sign-in layer's public settings: the email verification mode",
  tags: ['auth'],
  auth: false,
  response: PublicAuthConfig,
});
