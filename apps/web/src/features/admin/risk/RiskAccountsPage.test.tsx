import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RiskAccountDto } from '@platform/domain';
import { mockFetch, renderWithProviders, showAllColumns, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { RiskAccountsPage } from './RiskAccountsPage.tsx';
import { riskLevelState } from './riskLevel.ts';

afterEach(cleanup);

const wallet = (over: Partial<RiskAccountDto> = {}): RiskAccountDto => ({
  wallet_id: 21,
  user_id: 9,
  name: 'Cara Client',
  email: 'cara@demo.test',
  currency: 'USD',
  mode: 'real',
  balance: 1000,
  equity: 450,
  margin: 1000,
  free_margin: -550,
  margin_level: 45,
  positions: 3,
  margin_call: true,
  ...over,
});

const rows = [
  wallet(),
  wallet({
    wallet_id: 22,
    user_id: 10,
    name: 'Dan Dealer',
    email: 'dan@demo.test',
    currency: 'EUR',
    equity: 900,
    free_margin: -100,
    margin_level: 90,
    positions: 1,
    margin_call: false,
  }),
  wallet({
    wallet_id: 23,
    user_id: 11,
    name: 'Eve Easy',
    email: 'eve@demo.test',
    equity: 5000,
    free_margin: 4000,
    margin_level: 500,
    margin_call: false,
  }),
];

const listCalls = (calls: FetchCall[]) => calls.filter((c) => c.path === '/admin/risk/accounts');
const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const levelState = (name: string) => within(row(name)).getByText(/%$/).getAttribute('data-state');

describe('RiskAccountsPage', () => {
  it('lists real wallets by margin level with live figures, coloured levels, the margin-call badge and customer links', async () => {
    const { calls } = mockFetch(() => ({ data: rows, meta: { total: 3, per_page: 15, page: 1 } }));
    renderWithProviders(<RiskAccountsPage />);
    await screen.findByText('Cara Client');
    expect(listCalls(calls)[0].query.get('mode')).toBe('real');
    // The email is the name's hover text, and a column of the chooser.
    expect(screen.queryByRole('columnheader', { name: 'EMAIL' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Cara Client' }).getAttribute('title')).toBe('cara@demo.test');
    await showAllColumns();
    for (const h of [
      'WALLET',
      'CUSTOMER',
      'EMAIL',
      'BALANCE',
      'EQUITY',
      'MARGIN',
      'FREE MARGIN',
      'MARGIN LEVEL',
      'POSITIONS',
      'MARGIN CALL',
    ])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();

    const cara = within(row('Cara Client'));
    expect(cara.getByText('#21')).toBeTruthy();
    expect(cara.getByText('Real')).toBeTruthy();
    expect(cara.getByText('$450.00')).toBeTruthy();
    expect(cara.getByText('-$550.00')).toBeTruthy();
    expect(cara.getByText('45.00%')).toBeTruthy();
    expect(cara.getByText('Called')).toBeTruthy();
    expect(cara.getByRole('link', { name: 'Cara Client' }).getAttribute('href')).toBe('/admin/customers/edit/9');
    expect(within(row('Dan Dealer')).getByText('€900.00')).toBeTruthy();
    expect(within(row('Dan Dealer')).queryByText('Called')).toBeNull();

    expect(levelState('Cara Client')).toBe('danger');
    expect(levelState('Dan Dealer')).toBe('warning');
    expect(levelState('Eve Easy')).toBe('ok');
  });

  it('switches between real, demo and all wallets', async () => {
    const { calls } = mockFetch(() => ({ data: rows, meta: { total: 3, per_page: 15, page: 1 } }));
    renderWithProviders(<RiskAccountsPage />);
    await screen.findByText('Cara Client');
    fireEvent.click(screen.getByText('All'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.get('mode')).toBe('all'));
    fireEvent.click(screen.getByText('Demo'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.get('mode')).toBe('demo'));
    expect(listCalls(calls).at(-1)?.query.get('page')).toBe('1');
  });

  it('follows the live figures every 2 seconds', async () => {
    let level = 90;
    const { calls } = mockFetch(() => {
      level -= 5;
      return {
        data: [wallet({ margin_level: level, margin_call: level <= 100 })],
        meta: { total: 1, per_page: 15, page: 1 },
      };
    });
    renderWithProviders(<RiskAccountsPage />);
    await screen.findByText('85.00%');
    await waitFor(() => expect(screen.getByText('80.00%')).toBeTruthy(), { timeout: 4000 });
    expect(listCalls(calls).length).toBeGreaterThanOrEqual(2);
  });

  it('says no wallet holds margin when the list is empty', async () => {
    mockFetch(() => ({ data: [], meta: { total: 0, per_page: 15, page: 1 } }));
    renderWithProviders(<RiskAccountsPage />);
    expect(await screen.findByText('No data found')).toBeTruthy();
  });
});

describe('risk level bands', () => {
  it('warn at or below 100 % or while the call is on, and are in danger at or below 50 % or without equity', () => {
    expect(riskLevelState({ margin_level: 100.01, margin_call: false, equity: 10 })).toBe('ok');
    expect(riskLevelState({ margin_level: 100, margin_call: false, equity: 10 })).toBe('warning');
    expect(riskLevelState({ margin_level: 300, margin_call: true, equity: 10 })).toBe('warning');
    expect(riskLevelState({ margin_level: 50, margin_call: true, equity: 10 })).toBe('danger');
    expect(riskLevelState({ margin_level: -5, margin_call: false, equity: -1 })).toBe('danger');
  });
});
