import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ApiSettingDto } from '@platform/domain';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { TradeApisPage } from './TradeApisPage.tsx';

afterEach(cleanup);

const row = (key: ApiSettingDto['key'], values: Partial<ApiSettingDto> = {}): ApiSettingDto => ({
  key,
  value1: '',
  value2: null,
  value3: null,
  value4: null,
  value5: null,
  updated_at: '2025-01-02T10:00:00.000Z',
  ...values,
});

const SETTINGS: ApiSettingDto[] = [
  row('polygonAPI', { value1: 'poly-key' }),
  row('eodAPI'),
  row('oandaAPI', { value1: '101-004', value2: 'oanda-key', value3: 'fxpractice' }),
  row('currencyAPI', { value1: 'cur-key', value2: '227', value3: '300' }),
  row('voiso', { value1: 'c1', value2: '' }),
];

const card = async (key: string) => screen.findByTestId(`api-card-${key}`);

describe('TradeApisPage', () => {
  it('shows one card per provider with its stored values and the quota read-only', async () => {
    mockFetch(() => SETTINGS);
    renderWithProviders(<TradeApisPage />);
    for (const title of ['Polygon', 'EOD Historical Data', 'Oanda', 'Currency API', 'Voiso'])
      expect(await screen.findByText(title)).toBeTruthy();
    const oanda = await card('oandaAPI');
    expect(within(oanda).getByRole('textbox', { name: /Account Number/ })).toHaveProperty('value', '101-004');
    expect(within(oanda).getByLabelText(/API Key/)).toHaveProperty('value', 'oanda-key');
    expect(within(oanda).getByRole('switch', { name: 'Practice Mode' })).toHaveProperty('checked', true);
    const currency = await card('currencyAPI');
    const quota = within(currency).getByRole('textbox', { name: 'Remaining Quota' });
    expect(quota).toHaveProperty('value', '227');
    expect(quota).toHaveProperty('disabled', true);
    expect(within(currency).getByRole('textbox', { name: 'Monthly Limit' })).toHaveProperty('value', '300');
  });

  it('shows the spec message for a missing key and sends nothing', async () => {
    const { calls } = mockFetch(() => SETTINGS);
    renderWithProviders(<TradeApisPage />);
    const eod = await card('eodAPI');
    fireEvent.click(within(eod).getByRole('button', { name: 'Update' }));
    expect(await within(eod).findByText('API Key is required')).toBeTruthy();
    const oanda = await card('oandaAPI');
    fireEvent.change(within(oanda).getByRole('textbox', { name: /Account Number/ }), { target: { value: '' } });
    fireEvent.click(within(oanda).getByRole('button', { name: 'Update' }));
    expect(await within(oanda).findByText('Account Number is required')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('saves one card with its own fields, toasts its name and reloads', async () => {
    const { calls } = mockFetch((c) => (c.method === 'PUT' ? { message: 'Oanda updated successfully' } : SETTINGS));
    renderWithProviders(<TradeApisPage />);
    const oanda = await card('oandaAPI');
    fireEvent.click(within(oanda).getByRole('switch', { name: 'Practice Mode' }));
    fireEvent.click(within(oanda).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Oanda updated successfully')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe('/admin/apis/oandaAPI');
    expect(put?.body).toEqual({ key: 'oandaAPI', value1: '101-004', value2: 'oanda-key', value3: 'fxtrade' });
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('never sends the currency quota and shows the server message on failure', async () => {
    const { calls } = mockFetch((c) =>
      c.method === 'PUT' ? { status: 400, body: { message: 'API Key is required' } } : SETTINGS,
    );
    renderWithProviders(<TradeApisPage />);
    const currency = await card('currencyAPI');
    fireEvent.click(within(currency).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('API Key is required')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ key: 'currencyAPI', value1: 'cur-key' });
  });

  it('falls back to the generic text when the server gives no message', async () => {
    mockFetch((c) => (c.method === 'PUT' ? { status: 500, body: {} } : SETTINGS));
    renderWithProviders(<TradeApisPage />);
    const polygon = await card('polygonAPI');
    fireEvent.click(within(polygon).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });
});
