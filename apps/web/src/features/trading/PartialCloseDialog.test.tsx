import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { LotStateResponse } from '@platform/domain';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, mockTradingFetch, orderFixture, tradingApi } from './testing.ts';

vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule);
const { PartialCloseDialog } = await import('./PartialCloseDialog.tsx');

function open(lotState?: LotStateResponse, status = 200, message = 'Closed 4000 of the position') {
  const fetchMock = mockTradingFetch(
    tradingApi({
      lotState,
      extra: (method, path) =>
        method === 'POST' && path === '/dashboard/orders/close' ? { status, body: { message } } : undefined,
    }),
  );
  const onClose = vi.fn();
  renderScreen(<PartialCloseDialog order={orderFixture({ trade_amount: '10000' })} digits={5} onClose={onClose} />);
  return { fetchMock, onClose };
}

const amount = () => screen.getByRole('textbox', { name: 'Amount to close' }) as HTMLInputElement;
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;

// Dialogs with many steps: room for a machine under load.
describe('PartialCloseDialog', { timeout: 20_000 }, () => {
  it('starts at the whole amount and closes part of it, down to the smallest size', async () => {
    const { fetchMock, onClose } = open();
    expect(await screen.findByText('Partial Close')).toBeTruthy();
    expect(amount().value).toBe('10000');
    await waitFor(() => expect(button('Close All').disabled).toBe(false));
    expect(screen.getByText('From 1000 to 10000')).toBeTruthy();
    fireEvent.change(amount(), { target: { value: '500' } });
    expect(await screen.findByText('At least the smallest size (1000)')).toBeTruthy();
    expect(button('Close 500').disabled).toBe(true);
    fireEvent.change(amount(), { target: { value: '12000' } });
    expect(await screen.findByText('At most the whole position (10000)')).toBeTruthy();
    fireEvent.click(button('50%'));
    expect(amount().value).toBe('5000');
    fireEvent.change(amount(), { target: { value: '9500' } });
    expect(await screen.findByText('What stays open would be below the smallest size (1000)')).toBeTruthy();
    fireEvent.change(amount(), { target: { value: '4000' } });
    fireEvent.click(button('Close 4000'));
    expect(await screen.findByText('Closed 4000 of the position')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders/close')[0]?.body).toEqual({
      orderId: 101,
      instrument: 'EUR_USD',
      amount: '4000',
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('takes the smallest lot preset as the minimum in lot mode, and closes the whole as a plain close', async () => {
    const { fetchMock } = open({
      lotState: 'lot',
      lotSelector: [
        { label: 'Mini lot (0.1)', value: 10000 },
        { label: 'Micro lot (0.01)', value: 1000 },
      ],
    });
    await waitFor(() => expect(button('Close All').disabled).toBe(false));
    fireEvent.click(button('25%'));
    // 2500 rounds down to whole micro lots.
    expect(amount().value).toBe('2000');
    fireEvent.click(button('All'));
    fireEvent.click(button('Close All'));
    expect(await screen.findByText('Order Closed Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/orders/close')[0]?.body).toEqual({
      orderId: 101,
      instrument: 'EUR_USD',
    });
  });

  it("shows the server's refusal as it is", async () => {
    open(undefined, 400, 'The rest of the position would be below the smallest size.');
    await waitFor(() => expect(button('Close All').disabled).toBe(false));
    fireEvent.change(amount(), { target: { value: '9000' } });
    fireEvent.click(button('Close 9000'));
    expect(await screen.findByText('The rest of the position would be below the smallest size.')).toBeTruthy();
  });
});
