import type { RoleId } from './roles.ts';

/**
 * The back-office side menu (back-office spec §2 "Side menu and role visibility").
 * The web app renders it; the server's guard reads the same roles for the screens' API calls.
 */
export interface MenuItem {
  label: string;
  to: string;
  roles: readonly RoleId[];
  /** Other routes the item covers (tabs of one screen). */
  also?: readonly string[];
}
export interface MenuSection {
  label: string;
  roles: readonly RoleId[];
  items: readonly MenuItem[];
}

export const ADMIN_MENU: readonly MenuSection[] = [
  { label: 'Dashboard', roles: [1], items: [{ label: 'Dashboard', to: '/admin', roles: [1] }] },
  {
    label: 'Transactions',
    roles: [1, 2],
    items: [
      {
        label: 'Trades',
        to: '/admin/trades/all',
        roles: [1, 2],
        also: ['/admin/trades/open', '/admin/trades/closed', '/admin/trades/pending'],
      },
      // Beyond the spec's table: the risk desk's live list of wallets by margin level.
      { label: 'Accounts at Risk', to: '/admin/risk/accounts', roles: [1, 2] },
      // Beyond the spec's table: the dealer's live exposure per instrument and the limits on it (issue 27).
      { label: 'Exposure Desk', to: '/admin/risk', roles: [1, 2] },
      { label: 'Risk Limits', to: '/admin/risk/limits', roles: [1] },
      // Beyond the spec's table: four-eyes requests waiting for a second staff member (issue 27).
      { label: 'Approvals', to: '/admin/approvals', roles: [1, 2] },
      { label: 'Deposits', to: '/admin/deposits', roles: [1, 2] },
      { label: 'Automatic Gateways', to: '/admin/gateways', roles: [1] },
      { label: 'External Payments', to: '/admin/externalPayments', roles: [1] },
      { label: 'Manual Gateways', to: '/admin/gateways/manual', roles: [1] },
      { label: 'Pending Withdraws', to: '/admin/withdraws/pending', roles: [1, 2] },
      { label: 'Withdraw History', to: '/admin/withdraws/history', roles: [1, 2] },
      { label: 'Withdraw Settings', to: '/admin/withdraws/settings', roles: [1] },
    ],
  },
  {
    label: 'User Management',
    roles: [1, 2],
    items: [
      { label: 'Customers', to: '/admin/customers/all', roles: [1, 2], also: ['/admin/customers/inactive'] },
      { label: 'Admin & Staffs', to: '/admin/users', roles: [1] },
      { label: 'Mail Outbox', to: '/admin/mail', roles: [1] },
    ],
  },
  {
    label: 'Leads Management',
    roles: [1, 4, 2, 5, 6],
    items: [
      { label: 'Leads', to: '/affiliate', roles: [4] },
      { label: 'Clients', to: '/admin/crm/clients', roles: [1, 2] },
      {
        label: 'Sales',
        to: '/admin/crm/sales/all',
        roles: [1, 2, 5],
        also: ['/admin/crm/sales/manual', '/admin/crm/sales/live'],
      },
      { label: 'Retention', to: '/admin/crm/retention', roles: [1, 2, 6] },
      // Beyond the spec's table: call-backs and tasks of whoever works leads (their team's for managers, all for admins).
      { label: 'My Tasks', to: '/admin/tasks', roles: [1, 2, 5, 6] },
      { label: 'Live Leads', to: '/admin/leads/live', roles: [1, 2] },
      { label: 'Manual Leads', to: '/admin/leads/manual', roles: [1, 2] },
      { label: 'Affiliate Leads', to: '/admin/leads/all', roles: [1, 2] },
      { label: 'Archived', to: '/admin/crm/archived', roles: [1, 2] },
      { label: 'KYC', to: '/admin/kyc', roles: [1] },
      { label: 'Sales Statuses', to: '/admin/crm-config/sales-statuses', roles: [1, 2] },
      { label: 'Promo Code', to: '/admin/promo-code', roles: [1, 2, 4, 5, 6] },
      { label: 'Teams', to: '/admin/crm-config/teams', roles: [1] },
      { label: 'API Key', to: '/affiliate/api', roles: [4] },
      // Beyond the spec's table: introducing-broker commissions (issue 24).
      { label: 'Partner Portal', to: '/affiliate/partner', roles: [4] },
      { label: 'Partners', to: '/admin/partners', roles: [1] },
    ],
  },
  {
    label: 'Trade Management',
    roles: [1],
    items: [
      {
        label: 'Instruments',
        to: '/admin/instruments/forex',
        roles: [1],
        also: [
          '/admin/instruments/commodity',
          '/admin/instruments/index',
          '/admin/instruments/crypto',
          '/admin/instruments/stock',
        ],
      },
      { label: 'Spread Settings', to: '/admin/spreads', roles: [1] },
      { label: 'Swap Settings', to: '/admin/swaps', roles: [1] },
      { label: 'Lot Settings', to: '/admin/lots', roles: [1] },
      { label: 'APIs', to: '/admin/apis', roles: [1] },
      { label: 'Pricing Plan', to: '/admin/pricing', roles: [1] },
    ],
  },
  {
    label: 'Site Management',
    roles: [1],
    items: [
      { label: 'Site Settings', to: '/admin/settings', roles: [1] },
      { label: 'Languages Settings', to: '/admin/languages', roles: [1] },
    ],
  },
  {
    label: 'Server Management',
    roles: [1],
    items: [
      { label: 'API Status', to: '/admin/status/api', roles: [1] },
      { label: 'Server Info', to: '/admin/status/server', roles: [1] },
      // Beyond the spec's table: every staff action, for admins.
      { label: 'Audit Log', to: '/admin/audit', roles: [1] },
      // Beyond the spec's table: the records' hash chains checked, and their daily checkpoints (issue 27).
      { label: 'Records', to: '/admin/records', roles: [1] },
    ],
  },
];

/** The menu a role sees: sections and items filtered by role, empty sections dropped. */
export function menuForRole(roleId: number): MenuSection[] {
  return ADMIN_MENU.filter((s) => s.roles.includes(roleId as RoleId))
    .map((s) => ({ ...s, items: s.items.filter((i) => i.roles.includes(roleId as RoleId)) }))
    .filter((s) => s.items.length > 0);
}

/**
 * Roles that may open a back-office screen path, from the menu: the items naming it (their route or a listed
 * alternative) when there are any, so an admin-only screen under a wider one (/admin/risk/limits under /admin/risk)
 * keeps its own roles; else the items it is a sub-page of.
 */
export function rolesForScreen(path: string): readonly RoleId[] {
  const exact = new Set<RoleId>();
  const under = new Set<RoleId>();
  for (const s of ADMIN_MENU)
    for (const i of s.items) {
      if (i.to === path || i.also?.includes(path)) for (const r of i.roles) exact.add(r);
      else if (i.to !== '/admin' && path.startsWith(`${i.to}/`)) for (const r of i.roles) under.add(r);
    }
  return [...(exact.size > 0 ? exact : under)];
}
