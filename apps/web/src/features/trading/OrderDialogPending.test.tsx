import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, instrumentFixture, mockTradingFetch, tradingApi, type TradingResponder } from './testing.ts';
import { LAST_AMOUNT_KEY } from './oneClick.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
const { OrderDialog } = await import('./OrderDialog.tsx');

afterEach(() => localStorage.removeItem(LAST_AMOUNT_KEY));

const placed =
  (message = 'Buy Limit placed'): TradingResponder =>
  (method, path, body) =>
    method === 'POST' && path === '/dashboard/orders'
      ? { status: 201, body: { id: 7, status: 'pending', message, ...(body as object) } }
      : undefined;

function open(side: 'buy' | 'sell', extra?: TradingResponder) {
  const fetchMock = mockTradingFetch(tradingApi({ extra }));
  const onClose = vi.fn();
  renderScreen(<OrderDialog side={side} instrument={instrumentFixture('EUR_USD')} onClose={onClose} />);
  return { fetchMock, onClose };
}

async function chooseType(label: string) {
  fireEvent.click(await screen.findByRole('combobox', { name: 'Order type' }));
  fireEvent.click(await screen.findByRole('option', { name: label, hidden: true }));
}
const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

// Dialogs with many steps: room for a machine under load.
describe('OrderDialog order types', { timeout: 20_000 }, () => {
  it('offers Market and the six pending kinds, Market first and chosen', async () => {
    open('buy');
    const select = (await screen.findByRole('combobox', { name: 'Order type' })) as HTMLInputElement;
    expect(select.value).toBe('Market');
    fireEvent.click(select);
    const options = (await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent);
    expect(options).toEqual([
      'Market',
      'Buy Limit',
      'Sell Limit',
      'Buy Stop',
      'Sell Stop',
      'Buy Stop Limit',
      'Sell Stop Limit',
    ]);
    // Market keeps today's dialog: no price or expiry fields.
    expect(screen.queryByTestId('pending-fields')).toBeNull();
  });

  it('places a Buy Limit under the ask, good till cancelled, and shows the server message', async () => {
    const { fetchMock, onClose } = open('buy', placed());
    await chooseType('Buy Limit');
    // 0.2% under the ask 1.0853.
    expect(field('Order price').value).toBe('1.08313');
    expect(within(screen.getByTestId('order-figures')).getByText('1.08313')).toBeTruthy();
    expect(screen.queryByTestId('pending-hint')).toBeNull();
    // Take-profit starts 1% above the order price, not the ask.
    fireEvent.click(screen.getByRole('switch', { name: 'Take Profit' }));
    expect(field('Take Profit').value).toBe('1.09396');
    fireEvent.click(button('Buy Limit'));
    expect(await screen.findByText('Buy Limit placed')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders')[0]?.body).toEqual({
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '1000',
      profit: '1.09396',
      loss: null,
      orderType: 'limit',
      price: '1.08313',
      expiry: 'gtc',
    });
    expect(onClose).toHaveBeenCalled();
    // Remembered for one-click trading.
    expect(JSON.parse(localStorage.getItem(LAST_AMOUNT_KEY) ?? '{}')).toEqual({ EUR_USD: '1000' });
  });

  it('hints the rule a Buy Stop under the ask breaks, still sends it, and shows the 400 as it is', async () => {
    const message = 'A Buy Stop must be above the ask (1.08530).';
    const { fetchMock } = open('buy', (method, path) =>
      method === 'POST' && path === '/dashboard/orders' ? { status: 400, body: { message } } : undefined,
    );
    await chooseType('Buy Stop');
    expect(field('Order price').value).toBe('1.08747');
    fireEvent.change(field('Order price'), { target: { value: '1.08' } });
    expect((await screen.findByTestId('pending-hint')).textContent).toBe('A Buy Stop must be above the ask (1.0853)');
    expect(button('Buy Stop').disabled).toBe(false);
    fireEvent.click(button('Buy Stop'));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders')[0]?.body).toMatchObject({
      orderType: 'stop',
      price: '1.08',
    });
  });

  it('turns a Buy dialog into a Sell Stop Limit with its stop and limit prices', async () => {
    const { fetchMock } = open('buy', placed('Sell Stop Limit placed'));
    await chooseType('Sell Stop Limit');
    expect(await screen.findByText('Sell Order')).toBeTruthy();
    expect(field('Stop price').value).toBe('1.08293');
    expect(field('Limit price').value).toBe('1.08401');
    fireEvent.change(field('Limit price'), { target: { value: '1.082' } });
    expect((await screen.findByTestId('pending-hint')).textContent).toBe(
      'The limit price must be at or above the stop price (1.08293)',
    );
    fireEvent.change(field('Limit price'), { target: { value: '1.0835' } });
    await waitFor(() => expect(screen.queryByTestId('pending-hint')).toBeNull());
    // A sell's stop-loss starts 1% above the limit price, where the position would open.
    fireEvent.click(screen.getByRole('switch', { name: 'Stop Loss' }));
    expect(field('Stop Loss').value).toBe('1.09434');
    fireEvent.click(button('Sell Stop Limit'));
    expect(await screen.findByText('Sell Stop Limit placed')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders')[0]?.body).toMatchObject({
      type: 'sell',
      orderType: 'stop_limit',
      price: '1.08293',
      limitPrice: '1.0835',
      loss: '1.09434',
      expiry: 'gtc',
    });
  });

  it('sends a chosen date and time as an ISO instant and refuses a past one', async () => {
    const { fetchMock } = open('sell', placed('Sell Limit placed'));
    await chooseType('Sell Limit');
    expect(field('Order price').value).toBe('1.08727');
    fireEvent.click(screen.getByRole('combobox', { name: 'Expiry' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Date and time', hidden: true }));
    const at = screen.getByLabelText('Expires at') as HTMLInputElement;
    fireEvent.change(at, { target: { value: '2020-01-01T10:00' } });
    expect(await screen.findByText('Choose a time in the future')).toBeTruthy();
    expect(button('Sell Limit').disabled).toBe(true);
    const future = dayjs().add(2, 'day').format('YYYY-MM-DDTHH:mm');
    fireEvent.change(at, { target: { value: future } });
    await waitFor(() => expect(button('Sell Limit').disabled).toBe(false));
    fireEvent.click(button('Sell Limit'));
    await screen.findByText('Sell Limit placed');
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders')[0]?.body).toMatchObject({
      type: 'sell',
      orderType: 'limit',
      expiry: dayjs(future).toISOString(),
    });
  });

  it('needs a price: an emptied price field disables the order', async () => {
    open('buy');
    await chooseType('Buy Limit');
    fireEvent.change(field('Order price'), { target: { value: '' } });
    expect((await screen.findByTestId('pending-hint')).textContent).toBe('Enter the order price');
    expect(button('Buy Limit').disabled).toBe(true);
  });

  it('back on Market sends the market order exactly as before', async () => {
    const { fetchMock } = open('buy', (method, path) =>
      method === 'POST' && path === '/dashboard/orders'
        ? { body: { message: 'Order Placed Successfully', order: {} } }
        : undefined,
    );
    await chooseType('Sell Limit');
    await chooseType('Market');
    expect(screen.queryByTestId('pending-fields')).toBeNull();
    // Market keeps the side last chosen.
    fireEvent.click(button('Sell'));
    expect(await screen.findByText('Order Placed Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders')[0]?.body).toEqual({
      type: 'sell',
      instrument: 'EUR_USD',
      amount: '1000',
      profit: null,
      loss: null,
    });
  });
});
