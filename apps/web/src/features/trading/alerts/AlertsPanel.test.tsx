import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AlertDto } from '@platform/domain';
import { renderScreen } from '../../../test/render.tsx';
import { callsTo, emitRealtime, instrumentFixture, mockTradingFetch, tradingApi } from '../testing.ts';
import { AlertsPanel } from './AlertsPanel.tsx';

vi.mock('../../../api/realtime.ts', async () => (await import('../testing.ts')).realtimeModule);

const phone = (matches: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches && query.includes('max-width'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
afterEach(() => phone(false));

const alert = (over: Partial<AlertDto>): AlertDto => ({
  id: 1,
  instrument: 'EUR_USD',
  side: 'bid',
  condition: 'above',
  price: '1.09',
  email: false,
  status: 'active',
  fired_at: null,
  fired_price: null,
  created_at: '2025-03-04T09:15:00Z',
  ...over,
});
const active = alert({ id: 7, price: '1.09', email: true });
const fired = alert({
  id: 8,
  instrument: 'USD_JPY',
  side: 'ask',
  condition: 'below',
  price: '150.5',
  status: 'fired',
  fired_at: '2025-03-05T14:30:00Z',
  fired_price: '150.49',
});

type Answer = { status?: number; body: unknown };
function show(opts: { rows?: AlertDto[]; save?: Answer; selected?: string } = {}) {
  const fetchMock = mockTradingFetch(
    tradingApi({
      extra: (method, path) => {
        if (method === 'GET' && path === '/dashboard/alerts') return { body: { data: opts.rows ?? [active, fired] } };
        if (
          (method === 'POST' && path === '/dashboard/alerts') ||
          (method === 'PUT' && path.startsWith('/dashboard/alerts/'))
        )
          return (
            opts.save ?? {
              status: method === 'POST' ? 201 : 200,
              body: {
                message: method === 'POST' ? 'Alert Created Successfully' : 'Alert Updated Successfully',
                alert: active,
              },
            }
          );
        if (method === 'DELETE' && path.startsWith('/dashboard/alerts/'))
          return { body: { message: 'Alert Deleted Successfully' } };
        return undefined;
      },
    }),
  );
  const view = renderScreen(<AlertsPanel selectedInstrument={opts.selected ?? 'EUR_USD'} />);
  return { fetchMock, ...view };
}

const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;
const priceInput = () => screen.getByTestId('alert-price') as HTMLInputElement;

describe('AlertsPanel', () => {
  it('lists active and fired alerts with their rule, email mark, status and fired price', async () => {
    show();
    const row = await screen.findByTestId('alert-7');
    expect(row.textContent).toContain('EUR/USD');
    expect(row.textContent).toContain('Bid ≥ 1.09000');
    expect(row.textContent).toContain('Active');
    expect(within(row).getByLabelText('Also by email')).toBeTruthy();
    const done = screen.getByTestId('alert-8');
    expect(done.textContent).toContain('USD/JPY');
    expect(done.textContent).toContain('Ask ≤ 150.500');
    expect(done.textContent).toContain('Fired');
    expect(done.textContent).toContain('150.490');
    expect(screen.getByText('1 of 100 active')).toBeTruthy();
  });

  it('creates an alert on the selected instrument, starting at its current bid', async () => {
    const { fetchMock } = show({ selected: 'EUR_USD' });
    fireEvent.click(await screen.findByRole('button', { name: 'New Alert' }));
    expect(await screen.findByRole('dialog', { name: 'New Alert' })).toBeTruthy();
    const eur = instrumentFixture('EUR_USD');
    await waitFor(() => expect(priceInput().value).toBe(eur.bids!.toFixed(5)));
    // Still at the current bid: a hint where the level must go, no error yet, and nothing to send.
    expect(screen.getByText(`Bid now ${eur.bids!.toFixed(5)}: set a level above it`)).toBeTruthy();
    expect(button('Create Alert').disabled).toBe(true);
    // Already met: the bid is above 1.08000, so "above 1.08000" is flagged and cannot be sent.
    fireEvent.change(priceInput(), { target: { value: '1.08' } });
    expect(screen.getByText('The price is already at or above this level: choose a higher one.')).toBeTruthy();
    expect(button('Create Alert').disabled).toBe(true);
    // More decimals than the instrument quotes are not taken.
    fireEvent.change(priceInput(), { target: { value: '1.090001' } });
    expect(priceInput().value).toBe('1.08');
    fireEvent.change(priceInput(), { target: { value: '1.095' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Also send me an email' }));
    fireEvent.click(button('Create Alert'));
    expect(await screen.findByText('Alert Created Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/dashboard/alerts')[0]?.body).toEqual({
      instrument: 'EUR_USD',
      side: 'bid',
      condition: 'above',
      price: '1.095',
      email: true,
    });
  });

  it('starts the ask side at the current ask, and a "below" alert under it', async () => {
    const { fetchMock } = show({ selected: 'XAU_USD' });
    fireEvent.click(await screen.findByRole('button', { name: 'New Alert' }));
    const xau = instrumentFixture('XAU_USD');
    await waitFor(() => expect(priceInput().value).toBe(xau.bids!.toFixed(2)));
    fireEvent.click(screen.getByText('Ask'));
    expect(priceInput().value).toBe(xau.asks!.toFixed(2));
    fireEvent.click(screen.getByText('Falls to or below'));
    fireEvent.change(priceInput(), { target: { value: '2600' } });
    fireEvent.click(button('Create Alert'));
    await screen.findByText('Alert Created Successfully');
    expect(callsTo(fetchMock, 'POST', '/dashboard/alerts')[0]?.body).toMatchObject({
      instrument: 'XAU_USD',
      side: 'ask',
      condition: 'below',
      price: '2600',
    });
  });

  it("shows the server's refusal on the price field and as a toast, and keeps the dialog open", async () => {
    const message = 'You can have at most 100 active alerts. Delete one that has not fired to add another.';
    show({ save: { status: 400, body: { message, errors: { price: 'Too many' } } } });
    fireEvent.click(await screen.findByRole('button', { name: 'New Alert' }));
    await waitFor(() => expect(priceInput().value).not.toBe(''));
    fireEvent.change(priceInput(), { target: { value: '1.2' } });
    fireEvent.click(button('Create Alert'));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText('Too many')).toBeTruthy();
    expect(button('Create Alert')).toBeTruthy();
  });

  it('edits a fired alert, saying that saving arms it again', async () => {
    const { fetchMock } = show();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit alert Ask ≤ 150.500' }));
    expect(await screen.findByText('This alert has fired. Saving arms it again.')).toBeTruthy();
    expect(priceInput().value).toBe('150.500');
    fireEvent.change(priceInput(), { target: { value: '150.1' } });
    fireEvent.click(button('Save'));
    expect(await screen.findByText('Alert Updated Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'PUT', '/dashboard/alerts/8')[0]?.body).toEqual({
      instrument: 'USD_JPY',
      side: 'ask',
      condition: 'below',
      price: '150.1',
      email: false,
    });
  });

  it('deletes after a confirmation', async () => {
    const { fetchMock } = show();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete alert Bid ≥ 1.09000' }));
    expect(await screen.findByText('Delete this alert?')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', '/dashboard/alerts/7')).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Alert Deleted Successfully')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', '/dashboard/alerts/7')).toHaveLength(1);
  });

  it('reloads the list when the server says the alerts changed (an alert fired)', async () => {
    const { fetchMock } = show();
    await screen.findByTestId('alert-7');
    const before = callsTo(fetchMock, 'GET', '/dashboard/alerts').length;
    emitRealtime('alertsChanged', { alertId: 7, fired: true });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/dashboard/alerts').length).toBe(before + 1));
  });

  it('shows one card per alert on a phone, with the same actions', async () => {
    phone(true);
    show({ rows: [active, fired] });
    const card = await screen.findByTestId('alert-7');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByTestId('alert-cards')).toBeTruthy();
    expect(card.textContent).toContain('Bid ≥ 1.09000');
    expect(within(card).getByRole('button', { name: 'Edit alert Bid ≥ 1.09000' })).toBeTruthy();
    expect(within(screen.getByTestId('alert-8')).getByText(/150\.490/)).toBeTruthy();
  });

  it('says so when there are no alerts', async () => {
    show({ rows: [] });
    expect(await screen.findByText('No alerts yet. Create one to hear when a price is reached.')).toBeTruthy();
  });
});
