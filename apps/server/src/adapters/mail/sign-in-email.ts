/** The sign-in email: the code and the magic link, in HTML and text. */

const PRODUCT = 'Lumina';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function signInEmail(input: { to: string; code?: string; link?: string; minutes: number }) {
  const subject = input.code ? `Your ${PRODUCT} sign-in code: ${input.code}` : `Sign in to ${PRODUCT}`;
  const lines = [
    `Hello,`,
    '',
    ...(input.code ? [`Your ${PRODUCT} sign-in code is ${input.code}.`, ''] : []),
    ...(input.link ? [`Or open this link to sign in:`, input.link, ''] : []),
    `It expires in ${input.minutes} minutes. If you did not ask to sign in, you can ignore this email.`,
    '',
    `— ${PRODUCT}`,
  ];
  const html = [
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">`,
    `<h1 style="font-size:20px">Sign in to ${PRODUCT}</h1>`,
    input.code
      ? `<p>Your sign-in code is</p><p style="font-size:28px;font-weight:700;letter-spacing:4px">${escapeHtml(input.code)}</p>`
      : '',
    input.link
      ? `<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 16px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">Sign in to ${PRODUCT}</a></p>`
      : '',
    `<p style="color:#555">It expires in ${input.minutes} minutes. If you did not ask to sign in, you can ignore this email.</p>`,
    `</body></html>`,
  ].join('');
  return { to: input.to, subject, text: lines.join('\n'), html, code: input.code, link: input.link };
}
