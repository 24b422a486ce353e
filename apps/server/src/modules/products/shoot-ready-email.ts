import { escapeHtml } from '../../adapters/mail/sign-in-email.ts';
import type { MailMessage } from '../../adapters/mail/mailer.ts';

/** The "your photo shoot is ready" email: what was delivered and where to see it, in HTML and text. */
export function shootReadyEmail(input: {
  to: string;
  productName: string;
  images: number;
  link: string;
}): MailMessage {
  const subject = `Your photo shoot is ready: ${input.productName}`;
  const count = `${input.images} ${input.images === 1 ? 'image' : 'images'}`;
  const text = [
    'Hello,',
    '',
    `Your ${input.productName} photo shoot is ready: ${count} are waiting for you.`,
    '',
    'See and download them here:',
    input.link,
    '',
    '— Lumina',
  ].join('\n');
  const html = [
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">`,
    `<h1 style="font-size:20px">Your photo shoot is ready</h1>`,
    `<p>Your ${escapeHtml(input.productName)} photo shoot is ready: ${count} are waiting for you.</p>`,
    `<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 16px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">See my photos</a></p>`,
    `</body></html>`,
  ].join('');
  return { to: input.to, subject, text, html, link: input.link };
}
