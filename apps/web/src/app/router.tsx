import { createBrowserRouter, type RouteObject } from 'react-router';
import { AdminRoutes } from '../features/admin/routes.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { SignupPage } from '../features/auth/SignupPage.tsx';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage.tsx';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage.tsx';
import { VerifyEmailPage } from '../features/auth/VerifyEmailPage.tsx';
import { DashboardPage } from '../features/trading/DashboardPage.tsx';
import { MobileChartPage } from '../features/trading/MobileChartPage.tsx';
import { StatementsPage } from '../features/statements/StatementsPage.tsx';
import { ProfilePage } from '../features/account/ProfilePage.tsx';
import { SecurityPage } from '../features/account/SecurityPage.tsx';
import { DepositsPage } from '../features/money/deposits/DepositsPage.tsx';
import { BankDepositPage } from '../features/money/deposits/BankDepositPage.tsx';
import { CryptoDepositPage } from '../features/money/deposits/CryptoDepositPage.tsx';
import { WithdrawsPage } from '../features/money/withdraws/WithdrawsPage.tsx';
import { KycPage } from '../features/money/kyc/KycPage.tsx';
import { PricingPage } from '../features/money/pricing/PricingPage.tsx';
import { SandboxPaymentPage } from '../features/money/payments/SandboxPaymentPage.tsx';
import { PaymentReturnPage, PaypalCapturePage, PaypalPaymentPage } from '../features/money/payments/PaymentReturnPages.tsx';
import { NotFoundPage } from '../features/placeholder/NotFoundPage.tsx';
import { AuthLayout } from './layouts/AuthLayout.tsx';
import { RequireUser } from './layouts/RequireUser.tsx';
import { ClientLayout } from './layouts/ClientLayout.tsx';
import { AccountLayout } from './layouts/AccountLayout.tsx';

/** Screens of the client-area spec (§2); the back office mounts its own routes and shell. */
export const routes: RouteObject[] = [
  {
    element: <AuthLayout />,
    children: [
      { path: '/', element: <LoginPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/verify-email', element: <VerifyEmailPage /> },
    ],
  },
  {
    element: <RequireUser />,
    children: [
      { path: '/chart/:symbol', element: <MobileChartPage /> },
      {
        element: <ClientLayout />,
        children: [
          { path: '/dashboard', element: <DashboardPage /> },
          { path: '/payments/sandbox/:txRef', element: <SandboxPaymentPage /> },
          { path: '/payments/paypal/capture/:orderID', element: <PaypalCapturePage /> },
          { path: '/payments/paypal/:txRef', element: <PaypalPaymentPage /> },
          { path: '/payments/return/:txRef', element: <PaymentReturnPage /> },
          {
            element: <AccountLayout />,
            children: [
              { path: '/profile', element: <ProfilePage /> },
              { path: '/security', element: <SecurityPage /> },
              { path: '/deposits', element: <DepositsPage /> },
              { path: '/deposits/bank/:id', element: <BankDepositPage /> },
              { path: '/deposits/crypto/:id', element: <CryptoDepositPage /> },
              { path: '/withdraws', element: <WithdrawsPage /> },
              { path: '/kyc', element: <KycPage /> },
              { path: '/pricing', element: <PricingPage /> },
              { path: '/statements', element: <StatementsPage /> },
            ],
          },
        ],
      },
    ],
  },
  { path: '/admin/*', element: <AdminRoutes /> },
  { path: '/affiliate/*', element: <AdminRoutes /> },
  { path: '*', element: <NotFoundPage /> },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
