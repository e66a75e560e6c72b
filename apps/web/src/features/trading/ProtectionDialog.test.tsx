import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { OrderDto } from '@platform/domain';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, mockTradingFetch, orderFixture, tradingApi } from './testing.ts';
import { ProtectionDialog, type ProtectionKind } from './ProtectionDialog.tsx';

function open(order: OrderDto, kind: ProtectionKind, status = 200, message = 'ok') {
  const fetchMock = mockTradingFetch(
    tradingApi({
      extra: (method, path) =>
        method === 'PUT' && path === `/dashboard/orders/${order.id}` ? { status, body: { message } } : undefined,
    }),
  );
  const onClose = vi.fn();
  renderScreen(<ProtectionDialog order={order} kind={kind} digits={5} onClose={onClose} />);
  return { fetchMock, onClose };
}

const input = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('ProtectionDialog', () => {
  it('sets the stop-loss of a buy between 0 and the open rate', async () => {
    const { fetchMock, onClose } = open(orderFixture({ open_rate: '1.08000' }), 'loss');
    expect(await screen.findByText('Set Stop/Loss')).toBeTruthy();
    expect(screen.getByText(/EUR\/USD/)).toBeTruthy();
    const sl = input('Stop Loss');
    expect(sl.value).toBe('1.08000');
    // At the upper bound plus is off; above it typing is ignored.
    expect(button('Increase Stop Loss').disabled).toBe(true);
    fireEvent.change(sl, { target: { value: '1.09' } });
    expect(sl.value).toBe('1.08000');
    fireEvent.change(sl, { target: { value: 'x' } });
    expect(sl.value).toBe('1.08000');
    fireEvent.change(sl, { target: { value: '1.07' } });
    fireEvent.click(button('Decrease Stop Loss'));
    expect(sl.value).toBe('0.07000');
    fireEvent.click(button('Decrease Stop Loss'));
    expect(sl.value).toBe('0.00000');
    expect(button('Decrease Stop Loss').disabled).toBe(true);
    fireEvent.change(sl, { target: { value: '1.075' } });
    fireEvent.click(button('Save'));
    expect(await screen.findByText('Stop Loss Set Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'PUT', '/dashboard/orders/101')[0]?.body).toEqual({ loss: '1.075' });
    expect(onClose).toHaveBeenCalled();
  });

  it('sets the take-profit of a sell up to the open rate, starting from the saved one', async () => {
    open(orderFixture({ type: 'sell', open_rate: '1.08000', profit: '1.05000000' }), 'profit');
    expect(await screen.findByText('Set Take/Profit')).toBeTruthy();
    const tp = input('Take Profit');
    expect(tp.value).toBe('1.05000');
    fireEvent.click(button('Increase Take Profit'));
    expect(tp.value).toBe('1.08000');
    fireEvent.change(tp, { target: { value: '1.2' } });
    expect(tp.value).toBe('1.08000');
  });

  it('takes the take-profit of a buy from the open rate upwards and flags a lower one', async () => {
    open(orderFixture({ open_rate: '1.08000' }), 'profit');
    const tp = await screen.findByRole('textbox', { name: 'Take Profit' });
    expect(button('Decrease Take Profit').disabled).toBe(true);
    fireEvent.click(button('Increase Take Profit'));
    expect((tp as HTMLInputElement).value).toBe('2.08000');
    fireEvent.change(tp, { target: { value: '1.07' } });
    expect(screen.getByText('Enter a rate of at least 1.08000')).toBeTruthy();
    expect(button('Save').disabled).toBe(true);
  });

  it('sends null when the switch is off, and "Something went wrong" on failure', async () => {
    const { fetchMock } = open(orderFixture({ loss: '1.07' }), 'loss', 500);
    fireEvent.click(await screen.findByRole('switch', { name: 'Stop Loss' }));
    expect(screen.queryByRole('textbox', { name: 'Stop Loss' })).toBeNull();
    fireEvent.click(button('Save'));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(callsTo(fetchMock, 'PUT', '/dashboard/orders/101')[0]?.body).toEqual({ loss: null });
  });

  it('sets a trailing stop with distance and step, shown in pips, leaving the stop-loss as it is', async () => {
    const { fetchMock } = open(orderFixture({ open_rate: '1.08000', loss: '1.07500' }), 'loss');
    fireEvent.click(await screen.findByRole('switch', { name: 'Trailing stop' }));
    const distance = input('Trailing distance');
    // Starts at the stop-loss's distance from the price (no live quote here: the open rate).
    expect(distance.value).toBe('0.005');
    expect(screen.getByText('50 pips')).toBeTruthy();
    fireEvent.change(distance, { target: { value: '0.002' } });
    fireEvent.change(input('Trailing step'), { target: { value: '0.0005' } });
    expect(screen.getByText('20 pips')).toBeTruthy();
    expect(screen.getByText('5 pips')).toBeTruthy();
    fireEvent.change(distance, { target: { value: '0' } });
    expect(button('Save').disabled).toBe(true);
    fireEvent.change(distance, { target: { value: '0.002' } });
    fireEvent.click(button('Save'));
    expect(await screen.findByText('Stop Loss Set Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'PUT', '/dashboard/orders/101')[0]?.body).toEqual({
      trailing: { distance: '0.002', step: '0.0005' },
    });
  });

  it("removes a trailing stop with null and shows the server's refusal of one as it is", async () => {
    const order = orderFixture({ loss: '1.07500', trailing_distance: '0.00200000', trailing_step: '0.00000000' });
    const { fetchMock } = open(order, 'loss', 400, 'The trailing distance is too small.');
    const toggle = (await screen.findByRole('switch', { name: 'Trailing stop' })) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect(input('Trailing distance').value).toBe('0.002');
    fireEvent.click(toggle);
    fireEvent.click(button('Save'));
    expect(await screen.findByText('The trailing distance is too small.')).toBeTruthy();
    expect(callsTo(fetchMock, 'PUT', '/dashboard/orders/101')[0]?.body).toEqual({ trailing: null });
  });
});
