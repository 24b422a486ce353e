import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { sessionStore } from '@/lib/auth';
import { createQueryClient, dropUserDataOnSignOut } from '@/lib/query-client';
import { i18n as appI18n } from '@/lib/i18n';
import { FullPageSpinner } from '@/components/ui/spinner';

export function AppProvider({
  children,
  i18n = appI18n,
  queryClient,
}: {
  children: ReactNode;
  i18n?: I18n;
  queryClient?: QueryClient;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  useEffect(() => dropUserDataOnSignOut(client, sessionStore), [client]);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <Suspense fallback={<FullPageSpinner />}>{children}</Suspense>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
