import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AuthLayout } from './layouts/AuthLayout.tsx';
import { RequireUser } from './layouts/RequireUser.tsx';
import { LoadingScreen } from '../ui/shell/LoadingScreen.tsx';

/**
 * A screen loaded on first visit: the sign-in page ships only what it needs (and a signed-in reload of the dashboard
 * does not load the sign-in form), and the chart library, the money screens and the back office come as their own
 * files when a route asks for them.
 */
function page<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
): NonNullable<RouteObject['lazy']> {
  return async () => ({ Component: (await load())[name] as ComponentType });
}

/** Screens of the client-area spec (§2); the back office mounts its own routes and shell. */
export const routes: RouteObject[] = [
  {
    element: <AuthLayout />,
    children: [
      { path: '/', lazy: page(() => import('../features/auth/LoginPage.tsx'), 'LoginPage') },
      { path: '/signup', lazy: page(() => import('../features/auth/SignupPage.tsx'), 'SignupPage') },
      {
        path: '/forgot-password',
        lazy: page(() => import('../features/auth/ForgotPasswordPage.tsx'), 'ForgotPasswordPage'),
      },
      {
        path: '/reset-password',
        lazy: page(() => import('../features/auth/ResetPasswordPage.tsx'), 'ResetPasswordPage'),
      },
      { path: '/verify-email', lazy: page(() => import('../features/auth/VerifyEmailPage.tsx'), 'VerifyEmailPage') },
    ],
  },
  {
    element: <RequireUser />,
    children: [
      {
        path: '/chart/:symbol',
        lazy: page(() => import('../features/trading/MobileChartPage.tsx'), 'MobileChartPage'),
      },
      {
        lazy: page(() => import('./layouts/ClientLayout.tsx'), 'ClientLayout'),
        children: [
          { path: '/dashboard', lazy: page(() => import('../features/trading/DashboardPage.tsx'), 'DashboardPage') },
          {
            path: '/payments/sandbox/:txRef',
            lazy: page(() => import('../features/money/payments/SandboxPaymentPage.tsx'), 'SandboxPaymentPage'),
          },
          {
            path: '/payments/paypal/capture/:orderID',
            lazy: page(() => import('../features/money/payments/PaymentReturnPages.tsx'), 'PaypalCapturePage'),
          },
          {
            path: '/payments/paypal/:txRef',
            lazy: page(() => import('../features/money/payments/PaymentReturnPages.tsx'), 'PaypalPaymentPage'),
          },
          {
            path: '/payments/return/:txRef',
            lazy: page(() => import('../features/money/payments/PaymentReturnPages.tsx'), 'PaymentReturnPage'),
          },
          {
            lazy: page(() => import('./layouts/AccountLayout.tsx'), 'AccountLayout'),
            children: [
              { path: '/profile', lazy: page(() => import('../features/account/ProfilePage.tsx'), 'ProfilePage') },
              { path: '/security', lazy: page(() => import('../features/account/SecurityPage.tsx'), 'SecurityPage') },
              {
                path: '/deposits',
                lazy: page(() => import('../features/money/deposits/DepositsPage.tsx'), 'DepositsPage'),
              },
              {
                path: '/deposits/bank/:id',
                lazy: page(() => import('../features/money/deposits/BankDepositPage.tsx'), 'BankDepositPage'),
              },
              {
                path: '/deposits/crypto/:id',
                lazy: page(() => import('../features/money/deposits/CryptoDepositPage.tsx'), 'CryptoDepositPage'),
              },
              {
                path: '/withdraws',
                lazy: page(() => import('../features/money/withdraws/WithdrawsPage.tsx'), 'WithdrawsPage'),
              },
              { path: '/kyc', lazy: page(() => import('../features/money/kyc/KycPage.tsx'), 'KycPage') },
              {
                path: '/pricing',
                lazy: page(() => import('../features/money/pricing/PricingPage.tsx'), 'PricingPage'),
              },
              {
                path: '/statements',
                lazy: page(() => import('../features/statements/StatementsPage.tsx'), 'StatementsPage'),
              },
            ],
          },
        ],
      },
    ],
  },
  { path: '/admin/*', lazy: page(() => import('../features/admin/routes.tsx'), 'AdminRoutes') },
  { path: '/affiliate/*', lazy: page(() => import('../features/admin/routes.tsx'), 'AdminRoutes') },
  { path: '*', lazy: page(() => import('../features/placeholder/NotFoundPage.tsx'), 'NotFoundPage') },
];

/**
 * The screens under one root that shows the loading screen while the first page's code arrives: a lazy route has
 * nothing to render until then, and without a HydrateFallback React Router warns on every first load.
 */
export function createAppRouter() {
  return createBrowserRouter([{ hydrateFallbackElement: <LoadingScreen />, children: routes }]);
}
