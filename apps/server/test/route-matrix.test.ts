import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { ALL_ROLES, type RoleId } from '@platform/domain';
import { createTestApp, ROLE_EMAIL, type TestApp } from './helpers.ts';
import type { RouteAccess } from '../src/lib/http.ts';
import type { RegisteredRoute } from '../src/app.ts';
import { users } from '../src/db/schema.ts';
import { createSession, SESSION_COOKIE } from '../src/modules/auth/sessions.ts';

/**
 * Who may call every API route. A new route fails this test until it is listed here, so each addition is a
 * deliberate decision about its access, checked below against both its declaration and its behaviour.
 */
const EXPECTED: Record<string, RouteAccess> = {
  // auth
  'POST /api/auth/signup': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/auth/user': 'user',
  'POST /api/auth/verify-email': 'public',
  'POST /api/forgot-password': 'public',
  'PUT /api/forgot-password': 'public',
  'POST /api/authManager/back-to-admin': 'user',
  'GET /api/admin/users/:id/sign-in-lock': [1],
  'DELETE /api/admin/users/:id/sign-in-lock': [1],
  'POST /api/auth/login/two-factor/setup': 'public',
  'POST /api/auth/login/two-factor': 'public',
  // two-factor sign-in: every user their own (customers too); the policy is the admins'
  'GET /api/security/two-factor': 'user',
  'POST /api/security/two-factor/setup': 'user',
  'POST /api/security/two-factor/enable': 'user',
  'POST /api/security/two-factor/disable': 'user',
  'POST /api/security/two-factor/recovery-codes': 'user',
  'GET /api/admin/security/two-factor-policy': [1],
  'PUT /api/admin/security/two-factor-policy': [1],
  'DELETE /api/admin/users/:id/two-factor': [1],
  // settings
  'GET /api/settings/branding': 'public',
  'GET /api/countries': 'public',
  // account
  'PUT /api/profile/me': 'user',
  'PUT /api/profile/name': 'user',
  'PUT /api/security/password': 'user',
  'GET /api/security/sessions': 'user',
  'DELETE /api/security/sessions/:id': 'user',
  'DELETE /api/security/sessions': 'user',
  'GET /api/security/sign-ins': 'user',
  'POST /api/auth/confirm': 'user',
  'GET /api/admin/customers/:id/sessions': [1, 2, 5, 6],
  'GET /api/admin/customers/:id/sign-ins': [1, 2, 5, 6],
  'POST /api/dashboard/switch-wallet': 'user',
  'GET /api/dashboard/orders': 'user',
  'POST /api/dashboard/orders': [3],
  'POST /api/dashboard/orders/close': [3],
  'PUT /api/dashboard/orders/:id': [3],
  'GET /api/dashboard/orders/history': 'user',
  'GET /api/dashboard/pending-orders': 'user',
  'PUT /api/dashboard/pending-orders/:id': [3],
  'DELETE /api/dashboard/pending-orders/:id': [3],
  'POST /api/dashboard/pending-orders/oco': [3],
  'GET /api/admin/pending-orders': [1, 2],
  'PUT /api/admin/pending-orders/:id': [1, 2],
  'POST /api/admin/pending-orders/:id/cancel': [1, 2],
  'GET /api/dashboard/get-favorite': 'user',
  'POST /api/dashboard/add-to-favorite': 'user',
  'POST /api/dashboard/remove-from-favorite': 'user',
  'GET /api/dashboard/rates': 'user',
  'GET /api/dashboard/lot-state/:category': 'user',
  'GET /api/statements/history': 'user',
  'GET /api/statements/export': 'user',
  'GET /api/statements/stopouts': 'user',
  'GET /api/admin/customers/:id/statement': [1, 2],
  'GET /api/admin/customers/:id/stopouts': [1, 2],
  // admin & staffs
  'GET /api/admin/users/api': [1],
  'GET /api/admin/users/:id': [1],
  'POST /api/admin/users': [1],
  'PUT /api/admin/users/:id': [1],
  'DELETE /api/admin/users/:id': [1],
  // mail outbox
  'GET /api/admin/mail/api': [1],
  'GET /api/admin/mail/:id': [1],
  'GET /api/admin/mail/delivery': [1],
  // notifications
  'GET /api/notifications': 'user',
  'POST /api/notifications/read': 'user',
  // translations
  'GET /api/translations/:lng': 'public',
  'POST /api/translations/:lng': 'public',
  // impersonation
  'POST /api/admin/customers/login-as/:id': [1, 2],
  'GET /api/admin/customers/api/:type': [1, 2],
  'POST /api/admin/customers': [1, 2],
  'PUT /api/admin/customers/:id': [1, 2],
  'DELETE /api/admin/customers/:id': [1, 2],
  // CRM
  // partners
  'GET /api/admin/partners/plans': [1],
  'POST /api/admin/partners/plans': [1],
  'PUT /api/admin/partners/plans/:id': [1],
  'DELETE /api/admin/partners/plans/:id': [1],
  'GET /api/admin/partners/tree': [1],
  'GET /api/admin/partners/report': [1],
  'GET /api/admin/partners/mirror-trades': [1],
  'PUT /api/admin/partners/clients/:customerId': [1],
  'PUT /api/admin/partners/:userId': [1],
  'GET /api/admin/partners/:userId/clients': [1],
  'GET /api/admin/partners/:userId/commissions': [1],
  'GET /api/affiliate/partner/summary': [4],
  'GET /api/affiliate/partner/clients': [4],
  'GET /api/affiliate/partner/clients/:customerId': [4],
  'GET /api/affiliate/partner/subpartners': [4],
  'POST /api/affiliate/partner/subpartners': [4],
  'GET /api/affiliate/partner/subpartners/:userId': [4],
  'GET /api/affiliate/partner/commissions': [4],
  'GET /api/affiliate/leads/api/sales/:status/:type': [1, 2, 5],
  'GET /api/affiliate/leads/api/sales/:status/:type/:startDate/:endDate': [1, 2, 5],
  'GET /api/affiliate/leads/api/new/:status/:type': [1, 2, 5, 6],
  'GET /api/affiliate/leads/api/new/:status/:type/:startDate/:endDate': [1, 2, 5, 6],
  'GET /api/affiliate/leads/api/clients/:status': [1, 2],
  'GET /api/affiliate/leads/api/clients/:status/:startDate/:endDate': [1, 2],
  'GET /api/affiliate/leads/api/archived/:status': [1, 2],
  'GET /api/affiliate/leads/api/archived/:status/:startDate/:endDate': [1, 2],
  'GET /api/affiliate/leads/api/retentions/:status': [1, 2, 6],
  'GET /api/affiliate/leads/api/retentions/:status/:startDate/:endDate': [1, 2, 6],
  'GET /api/affiliate/leads/api': [1, 2, 4],
  'POST /api/admin/leads': [1, 2, 4],
  'PUT /api/admin/leads/bulk': [1, 2, 5, 6],
  'POST /api/admin/leads/csv': [1, 2, 4],
  'GET /api/admin/leads/csv/example': [1, 2, 4],
  'GET /api/admin/leads/csv/:id': [1, 2, 4],
  'PUT /api/admin/leads/:id': [1, 2, 5, 6],
  'DELETE /api/admin/leads/:id': [1, 2],
  'DELETE /api/affiliate/leads/:id': [4],
  'GET /api/admin/leads/:id/history': [1, 2, 5, 6],
  'POST /api/admin/leads/convertLeadToUser': [1, 2, 5, 6],
  'POST /api/admin/crm/note': [1, 2, 5, 6],
  'POST /api/admin/crm/voiso/startCall': [1, 2, 5, 6],
  'GET /api/admin/crm/voiso/agents': [1, 2, 5, 6],
  'POST /api/crm/voiso/call-ended/:token': 'public',
  'PUT /api/admin/leads/:id/status': [1, 2, 5, 6],
  'GET /api/admin/leads/:id/calls': [1, 2, 5, 6],
  'GET /api/admin/crm/tasks': [1, 2, 5, 6],
  'POST /api/admin/crm/tasks': [1, 2, 5, 6],
  'POST /api/admin/crm/tasks/:id/done': [1, 2, 5, 6],
  'GET /api/admin/crm-config/sales-statuses/api': [1, 2, 4, 5, 6],
  'POST /api/admin/crm-config/sales-statuses': [1, 2],
  'PUT /api/admin/crm-config/sales-statuses/:id': [1, 2],
  'DELETE /api/admin/crm-config/sales-statuses/:id': [1, 2],
  'GET /api/admin/crm-config/teams/api': [1],
  'POST /api/admin/crm-config/teams': [1],
  'PUT /api/admin/crm-config/teams/:id': [1],
  'DELETE /api/admin/crm-config/teams/:id': [1],
  'GET /api/admin/promo-code': [1, 2, 4, 5, 6],
  'POST /api/admin/promo-code': [1, 2, 4, 5, 6],
  'GET /api/admin/share/users/:id': [1, 2, 4, 5, 6],
  'GET /api/admin/share/users/role/:roleId': [1, 2],
  'PUT /api/admin/balance/:id': [1, 2],
  // affiliate API key and lead intake
  'GET /api/affiliate/api': [4],
  'POST /api/affiliate/api': [4],
  'GET /api/affiliate/api/documentation': [4],
  'POST /api/affiliate/leads/intake': 'public',
  // market
  'GET /api/dashboard/instruments': 'user',
  'GET /api/dashboard/market-status': 'user',
  'GET /api/market/candles': 'user',
  // API status (health monitor)
  'GET /api/admin/api-status': [1],
  // trade management
  'GET /api/admin/apis': [1],
  'PUT /api/admin/apis/:key': [1],
  'GET /api/admin/spreads': [1],
  'POST /api/admin/spreads': [1],
  'GET /api/admin/swaps': [1],
  'POST /api/admin/swaps': [1],
  'POST /api/admin/rollover/run': [1],
  'GET /api/admin/risk/accounts': [1, 2],
  // the exposure desk (managers: their customers' share) and the dealer's limits (admins)
  'GET /api/admin/risk/exposure': [1, 2],
  'GET /api/admin/risk/top-clients': [1, 2],
  'GET /api/admin/risk/realised': [1, 2],
  'GET /api/admin/risk/limits': [1],
  'PUT /api/admin/risk/limits': [1],
  'GET /api/admin/records/verify': [1],
  'GET /api/admin/records/checkpoint': [1],
  'POST /api/admin/records/checkpoint/verify': [1],
  'GET /api/admin/records/checkpoints': [1],
  'GET /api/admin/records/checkpoints/:id': [1],
  // four-eyes approvals: thresholds are the admins'; requests are decided by admins, and by managers for their customers
  'GET /api/admin/approvals/settings': [1],
  'PUT /api/admin/approvals/settings': [1],
  'GET /api/admin/approvals': [1, 2],
  'POST /api/admin/approvals/:id/approve': [1, 2],
  'POST /api/admin/approvals/:id/reject': [1, 2],
  'GET /api/admin/lots': [1],
  'POST /api/admin/lots': [1],
  'POST /api/admin/lotSelector': [1],
  'GET /api/admin/instruments/api/:type': [1],
  'POST /api/admin/instruments': [1],
  'PUT /api/admin/instruments/:id': [1],
  'DELETE /api/admin/instruments/:id': [1],
  // simulated feed control
  'POST /api/admin/simulator/price': [1],
  // price alerts
  'GET /api/dashboard/alerts': [3],
  'POST /api/dashboard/alerts': [3],
  'PUT /api/dashboard/alerts/:id': [3],
  'DELETE /api/dashboard/alerts/:id': [3],
  // the trader's chart: drawings and indicators (everyone has the dashboard; each sees only their own)
  'GET /api/dashboard/chart/drawings': 'user',
  'POST /api/dashboard/chart/drawings': 'user',
  'PUT /api/dashboard/chart/drawings/:id': 'user',
  'DELETE /api/dashboard/chart/drawings/:id': 'user',
  'GET /api/dashboard/chart/settings': 'user',
  'PUT /api/dashboard/chart/settings': 'user',
  // files
  'GET /api/files/:id': 'public',
  // gateways and external payments
  'GET /api/admin/gateways': [1],
  'PUT /api/admin/gateways/:name': [1],
  'GET /api/admin/externalPayments/api': [1],
  'POST /api/admin/externalPayments': [1],
  'PUT /api/admin/externalPayments/:id': [1],
  'DELETE /api/admin/externalPayments/:id': [1],
  // deposits
  'GET /api/deposits/gateways': [3],
  'POST /api/deposits': [3],
  'GET /api/deposits/history': [3],
  'GET /api/deposits/:id': [3],
  'PUT /api/deposits/bank/:id': [3],
  'GET /api/admin/deposits/api/history': [1, 2],
  'GET /api/admin/deposits/api/history/:userId': [1, 2],
  'POST /api/admin/deposits/:id/approve': [1, 2],
  'POST /api/admin/deposits/:id/decline': [1, 2],
  // payments
  'POST /api/payments/:kind/callback': 'public',
  'GET /api/payments/sandbox/:tx_ref': [3],
  'POST /api/payments/sandbox/:tx_ref/:decision': [3],
  'POST /api/payments/paypal/capture/:orderID': [3],
  'POST /api/payments/paypal/:tx_ref': [3],
  'GET /api/payments/return/:tx_ref': [3],
  // withdrawals
  'GET /api/withdraws/fees': [3, 4],
  'POST /api/withdraws/bank': [3, 4],
  'GET /api/withdraws/history': [3, 4],
  'GET /api/admin/withdraws/api/pending': [1, 2],
  'GET /api/admin/withdraws/api/history': [1, 2],
  'GET /api/admin/withdraws/api/history/:userId': [1, 2],
  'POST /api/admin/withdraws/:id/approve': [1, 2],
  'POST /api/admin/withdraws/:id/decline': [1, 2],
  'GET /api/admin/withdraws/settings': [1],
  'POST /api/admin/withdraws/settings': [1],
  // kyc
  'GET /api/kyc': [3],
  'POST /api/kyc': [3],
  'GET /api/admin/kyc/api': [1],
  'POST /api/admin/kyc/:id/approve': [1],
  'POST /api/admin/kyc/:id/decline': [1],
  // pricing plans
  'GET /api/dashboard/pricing': 'user',
  'POST /api/dashboard/pricing/subscribe/:planId': [3],
  'POST /api/admin/pricing': [1],
  // operations
  'GET /api/admin/metrics': [1],
  'GET /api/admin/risk-engine': [1],
  'GET /api/admin/status/server': [1],
  'GET /api/admin/audit/api': [1],
  'GET /api/admin/audit/actions': [1],
  'GET /api/admin/dashboard': [1],
  'GET /api/admin/settings': [1],
  'GET /api/admin/languages': [1],
  'POST /api/admin/languages': [1],
  'GET /api/admin/languages/api/:code': [1],
  'POST /api/admin/languages/translations': [1],
  'PUT /api/admin/languages/translations/:id': [1],
  'DELETE /api/admin/languages/translations/:id': [1],
  'POST /api/admin/settings': [1],
  'GET /api/admin/trades/api/:type': [1, 2],
  'GET /api/admin/trades/api/:type/:userId': [1, 2],
  'POST /api/admin/trades/close': [1, 2],
  'PUT /api/admin/trades/:id': [1, 2],
  'DELETE /api/admin/trades/:id': [1, 2],
  'PUT /api/admin/pricing/:id': [1],
  'DELETE /api/admin/pricing/:id': [1],
};

/**
 * Public, sessionless routes whose caller is named by an API key instead of a session: without a key every caller,
 * signed in or not, gets 401 (the session cookie is never read there).
 */
const API_KEY_ROUTES = new Set(['POST /api/affiliate/leads/intake']);

const keyOf = (r: Pick<RegisteredRoute, 'method' | 'url'>) => `${r.method} ${r.url}`;
const isApi = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');
const sameAccess = (a: RouteAccess | undefined, b: RouteAccess): boolean =>
  typeof a === 'string' || typeof b === 'string' || a === undefined
    ? a === b
    : [...a].sort().join() === [...b].sort().join();

let t: TestApp;
let apiRoutes: RegisteredRoute[];
const userIds = new Map<RoleId, number>();

beforeAll(async () => {
  t = await createTestApp();
  const all = t.app.registeredRoutes;
  // Fastify adds a HEAD twin to every GET route; it runs the same handler and guard, so the GET entry covers it.
  const gets = new Set(all.filter((r) => r.method === 'GET').map((r) => r.url));
  apiRoutes = all.filter((r) => isApi(r.url) && !(r.method === 'HEAD' && gets.has(r.url)));
  const rows = await t.ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, Object.values(ROLE_EMAIL)));
  for (const role of ALL_ROLES) userIds.set(role, rows.find((r) => r.email === ROLE_EMAIL[role])!.id);
});
afterAll(async () => t.close());

/**
 * A session cookie of the demo user of a role, as sign-in issues it. A new one per request: some routes end
 * the caller's session (logout, login-as), which must not leak into the next request of the matrix.
 */
async function cookieFor(role: RoleId): Promise<string> {
  const { token } = await createSession(t.ctx.db, { userId: userIds.get(role)!, remember: false, ip: '127.0.0.1' });
  return `${SESSION_COOKIE}=${token}`;
}

describe('route matrix', () => {
  it('finds the API routes', () => {
    expect(apiRoutes.length).toBeGreaterThan(10);
  });

  it('has no API route without an access declaration', () => {
    expect(apiRoutes.filter((r) => r.access === undefined).map(keyOf)).toEqual([]);
  });

  it('lists every registered API route in the table, and nothing else', () => {
    const registered = apiRoutes.map(keyOf);
    expect(
      registered.filter((k) => !(k in EXPECTED)),
      'routes missing from EXPECTED',
    ).toEqual([]);
    expect(
      Object.keys(EXPECTED).filter((k) => !registered.includes(k)),
      'EXPECTED entries with no route',
    ).toEqual([]);
  });

  it('declares on each route the access the table expects', () => {
    const mismatched = apiRoutes
      .filter((r) => !sameAccess(r.access, EXPECTED[keyOf(r)]))
      .map((r) => `${keyOf(r)} declares ${JSON.stringify(r.access)}`);
    expect(mismatched).toEqual([]);
  });

  it('answers anonymous callers and every role as the access rule says', async () => {
    const failures: string[] = [];
    for (const route of apiRoutes) {
      const access = route.access ?? EXPECTED[keyOf(route)];
      if (access === undefined) continue; // reported by the declaration test above
      const url = route.url.replace(/:\w+/g, '999999');
      const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(route.method);
      for (const role of [null, ...ALL_ROLES] as const) {
        const cookie = role === null ? undefined : await cookieFor(role);
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: cookie ? { cookie } : {},
          ...(hasBody ? { payload: {} } : {}),
        });
        const who = role === null ? 'anonymous' : `role ${role}`;
        const s = res.statusCode;
        const denied = s === 401 || s === 403;
        let expected: string | null = null;
        if (API_KEY_ROUTES.has(keyOf(route))) expected = s === 401 ? null : '401 (no API key)';
        else if (access === 'public') expected = denied ? 'not 401/403' : null;
        else if (role === null) expected = s === 401 ? null : '401';
        else if (access === 'user' || access.includes(role)) expected = denied ? 'not 401/403' : null;
        else expected = s === 403 ? null : '403';
        // An empty or invalid request must be refused cleanly, never crash the handler.
        if (expected === null && s >= 500) expected = 'no 5xx';
        if (expected)
          failures.push(`${keyOf(route)} as ${who}: got ${s}, expected ${expected} (${res.body.slice(0, 120)})`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('still serves the OpenAPI document built from every route schema', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths as Record<string, unknown>);
    expect(paths).toContain('/api/admin/users/{id}');
  });
});
