import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CurrentUserResponse, LotStateResponse } from '@platform/domain';
import { currentUserFixture } from '../../test/fixtures.ts';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, instrumentFixture, mockTradingFetch, tradingApi, type TradingApiOptions } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
const { OrderDialog } = await import('./OrderDialog.tsx');

const LOTS: LotStateResponse = {
  lotState: 'lot',
  lotSelector: [
    { label: 'Micro lot (0.01)', value: 1000 },
    { label: 'Standard lot (1)', value: 100000 },
    { label: 'Ten lots (10)', value: 1000000 },
  ],
};

function userWith(balance: string, margin: string): CurrentUserResponse {
  const user = currentUserFixture();
  return { ...user, activeBalance: { ...user.activeBalance!, balance, margin } };
}

function open(side: 'buy' | 'sell', options: TradingApiOptions = {}, name = 'EUR_USD') {
  const fetchMock = mockTradingFetch(tradingApi(options));
  const onClose = vi.fn();
  const view = renderScreen(<OrderDialog side={side} instrument={instrumentFixture(name)} onClose={onClose} />);
  return { fetchMock, onClose, view };
}

const figures = () => within(screen.getByTestId('order-figures'));
const submit = (name: 'Buy' | 'Sell') => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('OrderDialog', () => {
  it('loads the rate and lot mode with a spinner, then shows margin and pip value to 2 decimals', async () => {
    const { fetchMock } = open('buy');
    // The answers take a moment, as they would over the network.
    const answer = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return answer!(...args);
    });
    expect(await screen.findByLabelText('Loading...')).toBeTruthy();
    await screen.findByLabelText('Amount');
    expect(callsTo(fetchMock, 'GET', '/dashboard/rates')[0]?.query.get('quote')).toBe('USD');
    expect(callsTo(fetchMock, 'GET', '/dashboard/lot-state/forex')).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '10000' } });
    // 1.0853 × 10000 / 100 leverage / rate 1; pip 0.0001 × 10000
    await waitFor(() => expect(figures().getByText('$108.53')).toBeTruthy());
    expect(figures().getByText('$1.00')).toBeTruthy();
    expect(figures().getByText('1:100')).toBeTruthy();
    expect(submit('Buy').disabled).toBe(false);
  });

  it('keeps the amount at 0 or more and disables the button without an amount', async () => {
    open('sell');
    const amount = (await screen.findByLabelText('Amount')) as HTMLInputElement;
    expect(amount.value).toBe('1000'); // forex typed as an amount starts at a micro lot and steps by it
    fireEvent.click(screen.getByRole('button', { name: 'Decrease amount' }));
    await waitFor(() => expect(amount.value).toBe('0'));
    fireEvent.click(screen.getByRole('button', { name: 'Decrease amount' }));
    expect(amount.value).toBe('0');
    expect(submit('Sell').disabled).toBe(true);
    fireEvent.change(amount, { target: { value: '' } });
    expect(submit('Sell').disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Increase amount' }));
    await waitFor(() => expect(amount.value).toBe('1000'));
    expect(submit('Sell').disabled).toBe(false);
  });

  it('opens a BTC order at 0.01 BTC, which a small account can pay, and steps by it', async () => {
    open('buy', {}, 'BTC_USD');
    const amount = (await screen.findByLabelText('Amount')) as HTMLInputElement;
    expect(amount.value).toBe('0.01');
    expect(screen.queryByText('Insufficient Balance!')).toBeNull();
    expect(submit('Buy').disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Increase amount' }));
    await waitFor(() => expect(amount.value).toBe('0.02'));
  });

  it('says "Insufficient Balance!" when the margin exceeds the balance', async () => {
    open('buy', { lotState: LOTS });
    fireEvent.click(await screen.findByRole('combobox', { name: 'Select lot size' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Ten lots (10)', hidden: true }));
    // 1.0853 × 1,000,000 / 100 = 10,853 > 10,000
    expect(await screen.findByText('Insufficient Balance!')).toBeTruthy();
    expect(screen.queryByText('Insufficient Free Margin!')).toBeNull();
    expect(submit('Buy').disabled).toBe(true);
  });

  it('says "Insufficient Free Margin!" when the margin exceeds balance minus used margin', async () => {
    open('buy', { lotState: LOTS, user: userWith('10000', '9000') });
    fireEvent.click(await screen.findByRole('combobox', { name: 'Select lot size' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Standard lot (1)', hidden: true }));
    // 1,085.30 needed, 1,000 free
    expect(await screen.findByText('Insufficient Free Margin!')).toBeTruthy();
    expect(screen.queryByText('Insufficient Balance!')).toBeNull();
    expect(submit('Buy').disabled).toBe(true);
  });

  it('places a lot-sized order with a take-profit and tells the result', async () => {
    const { fetchMock, onClose } = open('buy', {
      lotState: LOTS,
      extra: (method, path) =>
        method === 'POST' && path === '/dashboard/orders'
          ? { body: { message: 'Order Placed Successfully', order: {} } }
          : undefined,
    });
    fireEvent.click(await screen.findByRole('combobox', { name: 'Select lot size' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Standard lot (1)', hidden: true }));
    fireEvent.click(screen.getByRole('switch', { name: 'Take Profit' }));
    const tp = screen.getByRole('textbox', { name: 'Take Profit' }) as HTMLInputElement;
    // Starts 1% above the ask.
    expect(tp.value).toBe('1.09615');
    fireEvent.click(screen.getByRole('button', { name: 'Increase Take Profit' }));
    expect(tp.value).toBe('2.09615');
    fireEvent.click(submit('Buy'));
    expect(await screen.findByText('Order Placed Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders')[0]?.body).toEqual({
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '100000',
      profit: '2.09615',
      loss: null,
    });
    expect(onClose).toHaveBeenCalled();
    // Positions and wallet are reloaded.
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/auth/user').length).toBeGreaterThan(1));
  });

  it('keeps take-profit and stop-loss of a buy within their bounds around the ask', async () => {
    open('buy');
    await screen.findByLabelText('Amount');
    fireEvent.click(screen.getByRole('switch', { name: 'Take Profit' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Stop Loss' }));
    const tp = screen.getByRole('textbox', { name: 'Take Profit' }) as HTMLInputElement;
    const sl = screen.getByRole('textbox', { name: 'Stop Loss' }) as HTMLInputElement;
    // Take-profit at least the ask: minus stops at the ask, a lower value is flagged and blocks the order.
    fireEvent.click(screen.getByRole('button', { name: 'Decrease Take Profit' }));
    expect(tp.value).toBe('1.08530');
    expect((screen.getByRole('button', { name: 'Decrease Take Profit' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(tp, { target: { value: '1.08' } });
    expect(tp.value).toBe('1.08');
    expect(screen.getByText('Enter a rate of at least 1.08530')).toBeTruthy();
    expect(submit('Buy').disabled).toBe(true);
    // Letters and a sixth decimal are ignored.
    fireEvent.change(tp, { target: { value: '1.08a' } });
    fireEvent.change(tp, { target: { value: '1.085301' } });
    expect(tp.value).toBe('1.08');
    fireEvent.change(tp, { target: { value: '1.1' } });
    expect(submit('Buy').disabled).toBe(false);
    // Stop-loss between 0 and the ask: a value above the ask is ignored, plus stops at the ask.
    expect(sl.value).toBe('1.07445');
    fireEvent.change(sl, { target: { value: '1.2' } });
    expect(sl.value).toBe('1.07445');
    fireEvent.click(screen.getByRole('button', { name: 'Increase Stop Loss' }));
    expect(sl.value).toBe('1.08530');
    expect((screen.getByRole('button', { name: 'Increase Stop Loss' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Decrease Stop Loss' }));
    expect(sl.value).toBe('0.08530');
    fireEvent.click(screen.getByRole('button', { name: 'Decrease Stop Loss' }));
    expect(sl.value).toBe('0.00000');
  });

  it('bounds a sell: take-profit up to the bid, stop-loss from the bid', async () => {
    open('sell');
    await screen.findByLabelText('Amount');
    fireEvent.click(screen.getByRole('switch', { name: 'Take Profit' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Stop Loss' }));
    const tp = screen.getByRole('textbox', { name: 'Take Profit' }) as HTMLInputElement;
    const sl = screen.getByRole('textbox', { name: 'Stop Loss' }) as HTMLInputElement;
    // Starts 1% below the bid; above the bid is ignored.
    expect(tp.value).toBe('1.07425');
    fireEvent.change(tp, { target: { value: '1.09' } });
    expect(tp.value).toBe('1.07425');
    expect(sl.value).toBe('1.09595');
    fireEvent.change(sl, { target: { value: '1.05' } });
    expect(screen.getByText('Enter a rate of at least 1.08510')).toBeTruthy();
    expect(submit('Sell').disabled).toBe(true);
  });

  it("toasts the server's message when the order is refused", async () => {
    open('buy', {
      extra: (method, path) =>
        method === 'POST' && path === '/dashboard/orders'
          ? { status: 422, body: { message: 'Market is closed for this instrument.' } }
          : undefined,
    });
    await screen.findByLabelText('Amount');
    fireEvent.click(submit('Buy'));
    expect(await screen.findByText('Market is closed for this instrument.')).toBeTruthy();
  });

  it('says which conversion rate is missing when the rate cannot be loaded, not "Something went wrong"', async () => {
    open(
      'buy',
      { extra: (_m, path) => (path === '/dashboard/rates' ? { status: 503, body: {} } : undefined) },
      'USD_CNH',
    );
    const text = 'No conversion rate from CNH to USD is available right now. Please try again in a moment.';
    // In the dialog and as a toast.
    await waitFor(() => expect(screen.getAllByText(text).length).toBe(2));
    expect(screen.queryByText('Something went wrong')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Buy' })).toBeNull();
  });

  it("shows the server's own message when it explains the refusal", async () => {
    const message = 'No conversion rate from CNH to USD is available right now.';
    open(
      'sell',
      { extra: (_m, path) => (path === '/dashboard/rates' ? { status: 503, body: { message } } : undefined) },
      'USD_CNH',
    );
    await waitFor(() => expect(screen.getAllByText(message).length).toBeGreaterThanOrEqual(1));
    expect(screen.queryByText('Something went wrong')).toBeNull();
  });
});
