import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { useState, type ComponentType } from 'react';
import { paths } from '@/config/paths';
import { RouteErrorFallback } from '@/components/errors/route-error-fallback';
import { FullPageSpinner } from '@/components/ui/spinner';
import { loadSuperTokens } from '@/lib/auth';
import { RequireSession } from '@/features/auth/components/require-session';
import RootLayout from './routes/root';

type RouteModule = { default: ComponentType };
const page = (load: () => Promise<RouteModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

const child = (path: string) => path.slice(1);

export const routes: RouteObject[] = [
  {
    path: paths.home,
    Component: RootLayout,
    errorElement: <RouteErrorFallback />,
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      { index: true, ...page(() => import('./routes/landing')) },
      { path: child(paths.terms), ...page(() => import('./routes/terms')) },
      { path: child(paths.privacy), ...page(() => import('./routes/privacy')) },
      // Public examples: signed-out visitors browse them too.
      { path: child(paths.examples), ...page(() => import('./routes/examples')) },
      // Public products: signed-out visitors browse them and sign in to buy.
      { path: child(paths.products), ...page(() => import('./routes/products')) },
      // Referrals: signed-out visitors see what the programme offers and sign up from there.
      { path: child(paths.referrals), ...page(() => import('./routes/referrals')) },
      // The prebuilt sign-in UI: its module and the SDK load only here.
      {
        path: `${child(paths.auth)}/*`,
        lazy: async () => {
          const [module] = await Promise.all([import('./routes/auth'), loadSuperTokens()]);
          return { Component: module.default };
        },
      },
      // Pages that need a session: without one they go to /auth and come back afterwards.
      {
        Component: RequireSession,
        children: [
          { path: child(paths.generate), ...page(() => import('./routes/generate')) },
          { path: child(paths.studio), ...page(() => import('./routes/studio')) },
          { path: child(paths.gallery), ...page(() => import('./routes/gallery')) },
          { path: child(paths.credits), ...page(() => import('./routes/credits')) },
          { path: `${child(paths.credits)}/success`, ...page(() => import('./routes/credits-success')) },
          { path: `${child(paths.credits)}/cancel`, ...page(() => import('./routes/credits-cancel')) },
          {
            path: `${child(paths.credits)}/dev-checkout`,
            ...page(() => import('./routes/credits-dev-checkout')),
          },
          { path: child(paths.training), ...page(() => import('./routes/training')) },
          { path: child(paths.models), ...page(() => import('./routes/models')) },
          { path: child(paths.onboarding), ...page(() => import('./routes/onboarding')) },
          { path: child(paths.myProducts), ...page(() => import('./routes/my-products')) },
          { path: child(paths.account), ...page(() => import('./routes/account')) },
          // Operators only (the server refuses anyone else with 403; the page shows that refusal).
          { path: child(paths.operatorVendors), ...page(() => import('./routes/operator-vendors')) },
        ],
      },
      { path: '*', ...page(() => import('./routes/not-found')) },
    ],
  },
];

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
