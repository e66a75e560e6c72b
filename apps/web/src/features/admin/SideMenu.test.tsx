import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithProviders } from '../../ui/data-table/testing.tsx';
import { SideMenu } from './SideMenu.tsx';

afterEach(cleanup);

const links = () => screen.getAllByRole('link').map((a) => a.textContent);

describe('SideMenu', () => {
  it('shows Admin & Staffs and every section to an admin', () => {
    renderWithProviders(<SideMenu roleId={1} pathname="/admin/users" />);
    expect(links()).toContain('Admin & Staffs');
    expect(links()).toContain('Dashboard');
    expect(links()).toContain('Server Info');
    expect(screen.getByRole('link', { name: 'Admin & Staffs' }).getAttribute('href')).toBe('/admin/users');
    expect(screen.getByRole('link', { name: 'Admin & Staffs' }).hasAttribute('data-active')).toBe(true);
    expect(screen.getByRole('link', { name: 'Dashboard' }).hasAttribute('data-active')).toBe(false);
  });

  it('hides Admin & Staffs from a manager', () => {
    renderWithProviders(<SideMenu roleId={2} pathname="/admin/trades/all" />);
    expect(links()).not.toContain('Admin & Staffs');
    expect(links()).not.toContain('Dashboard');
    expect(links()).toContain('Customers');
    expect(links()).toContain('Trades');
  });

  it('gives an affiliate Leads, API Key and the Partner Portal', () => {
    renderWithProviders(<SideMenu roleId={4} pathname="/affiliate" />);
    expect(links()).toEqual(['Leads', 'Promo Code', 'API Key', 'Partner Portal']);
    expect(screen.getByRole('link', { name: 'Leads' }).hasAttribute('data-active')).toBe(true);
    expect(screen.getByRole('link', { name: 'API Key' }).hasAttribute('data-active')).toBe(false);
  });

  it('gives a sales agent Sales, My Tasks and Promo Code only', () => {
    renderWithProviders(<SideMenu roleId={5} pathname="/admin/crm/sales/live" />);
    expect(links()).toEqual(['Sales', 'My Tasks', 'Promo Code']);
    // A tab of the Sales screen keeps its item active.
    expect(screen.getByRole('link', { name: 'Sales' }).hasAttribute('data-active')).toBe(true);
  });
});

describe('highlighted menu item', () => {
  it('selects Manual Gateways alone on its page, and still selects a parent item on its sub-pages', async () => {
    const { isItemActive } = await import('./screens.ts');
    const auto = { label: 'Automatic Gateways', to: '/admin/gateways', roles: [1] as const };
    const manual = { label: 'Manual Gateways', to: '/admin/gateways/manual', roles: [1] as const };
    expect(isItemActive(manual, '/admin/gateways/manual')).toBe(true);
    expect(isItemActive(auto, '/admin/gateways/manual')).toBe(false);
    expect(isItemActive({ label: 'Languages', to: '/admin/languages', roles: [1] }, '/admin/languages/fr')).toBe(true);
  });
});
