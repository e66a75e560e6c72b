import { lazy, Suspense } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { AdminLayout } from './AdminLayout.tsx';
import { MailOutboxPage } from './mail/MailOutboxPage.tsx';
import { PageNotFound } from './StatusViews.tsx';
import { StaffUsersPage } from './users/StaffUsersPage.tsx';
import { TradeApisPage } from './trade-management/TradeApisPage.tsx';
import { ApiStatusPage } from './trade-management/ApiStatusPage.tsx';
import { SpreadsPage } from './trade-management/SpreadsPage.tsx';
import { SwapsPage } from './trade-management/SwapsPage.tsx';
import { LotsPage } from './trade-management/LotsPage.tsx';
import { InstrumentsPage } from './trade-management/InstrumentsPage.tsx';
import { DepositsPage } from './money/deposits/DepositsPage.tsx';
import { PendingWithdrawsPage } from './money/withdraws/PendingWithdrawsPage.tsx';
import { WithdrawHistoryPage } from './money/withdraws/WithdrawHistoryPage.tsx';
import { WithdrawSettingsPage } from './money/withdraws/WithdrawSettingsPage.tsx';
import { GatewaysPage } from './money/gateways/GatewaysPage.tsx';
import { ExternalPaymentsPage } from './money/external-payments/ExternalPaymentsPage.tsx';
import { KycPage } from './money/kyc/KycPage.tsx';
import { PricingPlansPage } from './money/pricing/PricingPlansPage.tsx';
import { ServerInfoPage } from './operations/ServerInfoPage.tsx';
import { TradesPage } from './trades/TradesPage.tsx';
import { RiskAccountsPage } from './risk/RiskAccountsPage.tsx';
import { RiskDeskPage } from './risk/RiskDeskPage.tsx';
import { RiskLimitsPage } from './risk/RiskLimitsPage.tsx';
import { SiteSettingsPage } from './site/SiteSettingsPage.tsx';
import { LanguagesPage } from './languages/LanguagesPage.tsx';
import { TranslationsPage } from './languages/TranslationsPage.tsx';
import { AuditLogPage } from './operations/AuditLogPage.tsx';
import { RecordsPage } from './operations/RecordsPage.tsx';
import { CustomersPage } from './customers/CustomersPage.tsx';
import { EditCustomerPage } from './customers/EditCustomerPage.tsx';
import { LeadsPage } from './crm/LeadsPage.tsx';
import { SalesStatusesPage } from './crm/SalesStatusesPage.tsx';
import { ApiKeyPage } from './affiliate/ApiKeyPage.tsx';
import { TeamsPage } from './crm/TeamsPage.tsx';
import { PromoCodePage } from './crm/PromoCodePage.tsx';
import { TasksPage } from './crm/TasksPage.tsx';
import { ApprovalsPage } from './approvals/ApprovalsPage.tsx';
import { PartnersAdminPage } from './partners/PartnersAdminPage.tsx';

// The dashboard's charts (recharts) load with it, not with every back-office screen.
const PartnerPortalPage = lazy(() =>
  import('../partners/PartnerPortalPage.tsx').then((m) => ({ default: m.PartnerPortalPage })),
);
const DashboardPage = lazy(() => import('./dashboard/DashboardPage.tsx').then((m) => ({ default: m.DashboardPage })));

/**
 * The back office, mounted by the app router at /admin/* and /affiliate/*. Paths inside are
 * relative to whichever of the two matched; the shell itself checks the role against the full path.
 */
export function AdminRoutes() {
  const { pathname } = useLocation();
  const underAffiliate = pathname === '/affiliate' || pathname.startsWith('/affiliate/');
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        {underAffiliate ? (
          <>
            <Route index element={<LeadsPage key="affiliate" screen={{ kind: 'affiliate' }} />} />
            <Route path="api" element={<ApiKeyPage />} />
            <Route
              path="partner"
              element={
                <Suspense fallback={null}>
                  <PartnerPortalPage />
                </Suspense>
              }
            />
            <Route path="*" element={<PageNotFound />} />
          </>
        ) : (
          <>
            <Route
              index
              element={
                <Suspense fallback={null}>
                  <DashboardPage />
                </Suspense>
              }
            />
            <Route path="users" element={<StaffUsersPage />} />
            <Route path="mail" element={<MailOutboxPage />} />
            <Route path="apis" element={<TradeApisPage />} />
            <Route path="status/api" element={<ApiStatusPage />} />
            <Route path="spreads" element={<SpreadsPage />} />
            <Route path="swaps" element={<SwapsPage />} />
            <Route path="lots" element={<LotsPage />} />
            <Route path="instruments/:type" element={<InstrumentsPage />} />
            <Route path="deposits" element={<DepositsPage />} />
            <Route path="withdraws/pending" element={<PendingWithdrawsPage />} />
            <Route path="withdraws/history" element={<WithdrawHistoryPage />} />
            <Route path="withdraws/settings" element={<WithdrawSettingsPage />} />
            <Route path="gateways" element={<GatewaysPage key="automatic" group="automatic" />} />
            <Route path="gateways/manual" element={<GatewaysPage key="manual" group="manual" />} />
            <Route path="externalPayments" element={<ExternalPaymentsPage />} />
            <Route path="kyc" element={<KycPage />} />
            <Route path="pricing" element={<PricingPlansPage />} />
            <Route path="status/server" element={<ServerInfoPage />} />
            <Route path="trades/:type" element={<TradesPage />} />
            <Route path="risk/accounts" element={<RiskAccountsPage />} />
            <Route path="risk" element={<RiskDeskPage />} />
            <Route path="risk/limits" element={<RiskLimitsPage />} />
            <Route path="approvals" element={<ApprovalsPage />} />
            <Route path="settings" element={<SiteSettingsPage />} />
            <Route path="languages" element={<LanguagesPage />} />
            <Route path="languages/:code" element={<TranslationsPage />} />
            <Route path="audit" element={<AuditLogPage />} />
            <Route path="records" element={<RecordsPage />} />
            <Route path="customers/all" element={<CustomersPage key="all" type="all" />} />
            <Route path="customers/inactive" element={<CustomersPage key="inactive" type="inactive" />} />
            <Route path="customers/edit/:id" element={<EditCustomerPage />} />
            <Route
              path="crm/sales/all"
              element={<LeadsPage key="sales-all" screen={{ kind: 'sales', type: 'all' }} />}
            />
            <Route
              path="crm/sales/manual"
              element={<LeadsPage key="sales-manual" screen={{ kind: 'sales', type: 'manual' }} />}
            />
            <Route
              path="crm/sales/live"
              element={<LeadsPage key="sales-live" screen={{ kind: 'sales', type: 'live' }} />}
            />
            <Route path="crm/clients" element={<LeadsPage key="clients" screen={{ kind: 'clients' }} />} />
            <Route path="crm/retention" element={<LeadsPage key="retention" screen={{ kind: 'retentions' }} />} />
            <Route path="crm/archived" element={<LeadsPage key="archived" screen={{ kind: 'archived' }} />} />
            <Route path="leads/live" element={<LeadsPage key="leads-live" screen={{ kind: 'new', type: 'live' }} />} />
            <Route
              path="leads/manual"
              element={<LeadsPage key="leads-manual" screen={{ kind: 'new', type: 'manual' }} />}
            />
            <Route path="leads/all" element={<LeadsPage key="leads-all" screen={{ kind: 'affiliate' }} />} />
            <Route path="crm-config/sales-statuses" element={<SalesStatusesPage />} />
            <Route path="crm-config/teams" element={<TeamsPage />} />
            <Route path="promo-code" element={<PromoCodePage />} />
            <Route path="partners" element={<PartnersAdminPage />} />
            <Route path="tasks" element={<TasksPage />} />
            <Route path="*" element={<PageNotFound />} />
          </>
        )}
      </Route>
    </Routes>
  );
}
