import { describe, expect, it } from 'vitest';
import { menuForRole, rolesForScreen } from './menu.ts';

const routes = (role: number) => menuForRole(role).flatMap((s) => s.items.map((i) => i.to));

describe('back-office side menu per role (back-office spec §2)', () => {
  it('gives the admin every screen', () => {
    const r = routes(1);
    for (const p of [
      '/admin',
      '/admin/users',
      '/admin/kyc',
      '/admin/settings',
      '/admin/status/server',
      '/admin/crm/retention',
      '/admin/risk/accounts',
    ])
      expect(r).toContain(p);
    expect(r).not.toContain('/affiliate');
  });
  it('gives the manager transactions, customers and CRM but not admin-only screens', () => {
    const r = routes(2);
    expect(r).toEqual(
      expect.arrayContaining([
        '/admin/trades/all',
        '/admin/risk/accounts',
        '/admin/deposits',
        '/admin/customers/all',
        '/admin/crm/sales/all',
        '/admin/tasks',
        '/admin/promo-code',
      ]),
    );
    for (const p of ['/admin', '/admin/users', '/admin/gateways', '/admin/kyc', '/admin/settings'])
      expect(r).not.toContain(p);
  });
  it('gives the affiliate leads, promo code and API key only', () => {
    expect(routes(4).sort()).toEqual(
      ['/admin/promo-code', '/affiliate', '/affiliate/api', '/affiliate/partner'].sort(),
    );
  });
  it('gives the sales agent sales, tasks and promo code, the retention agent retention, tasks and promo code', () => {
    expect(routes(5).sort()).toEqual(['/admin/crm/sales/all', '/admin/promo-code', '/admin/tasks'].sort());
    expect(routes(6).sort()).toEqual(['/admin/crm/retention', '/admin/promo-code', '/admin/tasks'].sort());
  });
  it('gives customers no back-office menu', () => {
    expect(menuForRole(3)).toEqual([]);
  });
  it('resolves roles of screens reached through alternative routes', () => {
    expect(rolesForScreen('/admin/trades/open')).toEqual(expect.arrayContaining([1, 2]));
    expect(rolesForScreen('/admin/crm/sales/live')).toEqual(expect.arrayContaining([1, 2, 5]));
    expect(rolesForScreen('/admin/instruments/crypto')).toEqual([1]);
    expect(rolesForScreen('/admin/languages/fr')).toEqual([1]);
    expect(rolesForScreen('/admin/risk/accounts')).toEqual([1, 2]);
  });
});
