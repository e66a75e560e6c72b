import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CurrentUserResponse, PricingTableDto } from '@platform/domain';
import { currentUserFixture } from '../../test/fixtures.ts';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, instrumentFixture, mockTradingFetch, tradingApi, type TradingApiOptions } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
const { OrderDialog } = await import('./OrderDialog.tsx');

function planWith(terms: Partial<PricingTableDto>): PricingTableDto {
  return {
    id: 1,
    name: 'Raw',
    description: null,
    price: '0',
    forex_leverage: null,
    commodity_leverage: null,
    index_leverage: null,
    stock_leverage: null,
    crypto_leverage: null,
    forex_stopout: null,
    commodity_stopout: null,
    index_stopout: null,
    stock_stopout: null,
    crypto_stopout: null,
    forex_commission: '0',
    commodity_commission: '0',
    index_commission: '0',
    stock_commission: '0',
    crypto_commission: '0',
    commission_basis: 'lot',
    commission_charge: 'open',
    margin_call_level: null,
    ...terms,
  };
}

function userWith(
  plan: PricingTableDto | null,
  wallet: { currency?: string; balance?: string } = {},
): CurrentUserResponse {
  const user = currentUserFixture();
  return {
    ...user,
    user: { ...user.user, pricingTable: plan },
    activeBalance: { ...user.activeBalance!, ...wallet },
  };
}

/** Conversion rates per currency: units of it per unit of the wallet currency. */
const ratesOf =
  (rates: Record<string, string>): TradingApiOptions['extra'] =>
  (method, path, _body, query) => {
    if (method !== 'GET' || path !== '/dashboard/rates') return undefined;
    const quote = query.get('quote') ?? '';
    return rates[quote] ? { body: { rate: rates[quote], base: 'EUR', quote } } : { status: 503, body: {} };
  };

function open(user: CurrentUserResponse, name = 'EUR_USD', extra?: TradingApiOptions['extra']) {
  const fetchMock = mockTradingFetch(tradingApi({ user, extra }));
  renderScreen(<OrderDialog side="buy" instrument={instrumentFixture(name)} onClose={() => undefined} />);
  return fetchMock;
}

const figures = () => within(screen.getByTestId('order-figures'));
const commission = () => screen.getByTestId('order-commission').textContent;

describe('OrderDialog commission', () => {
  it('shows the commission charged at open, and that the same is charged at close when the plan charges both', async () => {
    const fetchMock = open(userWith(planWith({ forex_commission: '7', commission_charge: 'both' })));
    const amount = await screen.findByLabelText('Amount');
    fireEvent.change(amount, { target: { value: '10000' } });
    // $7 a lot × 0.1 lot, the wallet in US dollars.
    await waitFor(() => expect(commission()).toBe('$0.70'));
    expect(figures().getByText('Commission')).toBeTruthy();
    expect(figures().getByText('and the same at close')).toBeTruthy();
    // No US dollar rate is asked for a USD wallet.
    expect(callsTo(fetchMock, 'GET', '/dashboard/rates').map((c) => c.query.get('quote'))).toEqual(['USD']);
  });

  it('converts US dollars to the wallet currency with the rate the dialog loads', async () => {
    const fetchMock = open(
      userWith(planWith({ forex_commission: '7' }), { currency: 'EUR' }),
      'EUR_GBP',
      ratesOf({ GBP: '0.85', USD: '1.25' }),
    );
    fireEvent.change(await screen.findByLabelText('Amount'), { target: { value: '100000' } });
    // $7 for one lot at 1.25 USD per EUR.
    await waitFor(() => expect(commission()).toBe('€5.60'));
    expect(figures().queryByText('and the same at close')).toBeNull();
    expect(callsTo(fetchMock, 'GET', '/dashboard/rates').map((c) => c.query.get('quote'))).toContain('USD');
  });

  it('prices a per-million plan on the notional', async () => {
    open(userWith(planWith({ crypto_commission: '30', commission_basis: 'million' })), 'BTC_USD');
    fireEvent.change(await screen.findByLabelText('Amount'), { target: { value: '1' } });
    // 1 BTC at the ask 91,256.5 → $30 × 0.0912565
    await waitFor(() => expect(commission()).toBe('$2.74'));
  });

  it('says when the commission is charged only at close', async () => {
    open(userWith(planWith({ forex_commission: '7', commission_charge: 'close' })));
    fireEvent.change(await screen.findByLabelText('Amount'), { target: { value: '100000' } });
    await waitFor(() => expect(commission()).toBe('$7.00'));
    expect(figures().getByText('Commission at close')).toBeTruthy();
  });

  it('shows no commission line on a plan without commission for the category', async () => {
    open(userWith(planWith({ crypto_commission: '7' })));
    await screen.findByLabelText('Amount');
    expect(screen.queryByTestId('order-commission')).toBeNull();
    expect(figures().queryByText('Commission')).toBeNull();
  });

  it('counts the open commission with the margin against the balance', async () => {
    // 1 lot: margin 1,085.30 fits 1,100; with a $20 commission it does not.
    open(userWith(planWith({ forex_commission: '20' }), { balance: '1100' }));
    fireEvent.change(await screen.findByLabelText('Amount'), { target: { value: '100000' } });
    expect(await screen.findByText('Insufficient Balance!')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Buy' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
