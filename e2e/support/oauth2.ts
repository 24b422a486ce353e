/**
 * The "Sign in with Lumina" client of the e2e server (OAUTH_CLIENTS_JSON in playwright.config.ts). Its
 * redirect URIs name a port nothing listens on (PORT_BASE + 7): the browser test catches the navigation
 * there with `page.route`, as the relying party's own callback page would receive it.
 */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3100);
const RP_ORIGIN = `http://127.0.0.1:${PORT_BASE + 7}`;

export const E2E_OAUTH_CLIENT = {
  client_id: 'lumina-e2e-studio',
  client_secret: 'lumina-e2e-studio-secret-0123456789abcdef',
  name: 'Lumina Studio E2E',
  logo_uri: `http://127.0.0.1:${PORT_BASE}/favicon.svg`,
  client_uri: `${RP_ORIGIN}/`,
  redirect_uris: [`${RP_ORIGIN}/callback`],
  post_logout_redirect_uris: [`${RP_ORIGIN}/signed-out`],
  first_party: true,
} as const;

export const E2E_RP_ORIGIN = RP_ORIGIN;
