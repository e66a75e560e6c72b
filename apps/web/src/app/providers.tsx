import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { ReauthDialog } from '../features/account/ReauthDialog.tsx';
import { i18n } from '../i18n/index.ts';
import { theme } from './theme.ts';

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/** Everything a screen needs around it; tests render screens inside the same providers. */
export function AppProviders({ queryClient, children }: AppProvidersProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="dark" forceColorScheme="dark">
          <DatesProvider settings={{ firstDayOfWeek: 1 }}>
            <Notifications position="bottom-right" zIndex={4000} limit={5} />
            <ReauthDialog />
            {children}
          </DatesProvider>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
