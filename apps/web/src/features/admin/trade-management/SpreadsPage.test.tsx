import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { SpreadsPage } from './SpreadsPage.tsx';

afterEach(cleanup);

const SPREADS = {
  spread_forex: '1',
  spread_commodity: '1.5',
  spread_index: '2',
  spread_crypto: '0',
  spread_stock: '3',
};
const input = (label: string) => screen.getByRole('textbox', { name: new RegExp(label) });

describe('SpreadsPage', () => {
  it('starts the five inputs from the settings records', async () => {
    mockFetch(() => SPREADS);
    renderWithProviders(<SpreadsPage />);
    await screen.findByRole('textbox', { name: /Forex Spread/ });
    expect(input('Forex Spread')).toHaveProperty('value', '1');
    expect(input('Commodity Spread')).toHaveProperty('value', '1.5');
    expect(input('Index Spread')).toHaveProperty('value', '2');
    expect(input('Crypto Spread')).toHaveProperty('value', '0');
    expect(input('Stock Spread')).toHaveProperty('value', '3');
  });

  it('asks for a missing value with the spec message and sends nothing', async () => {
    const { calls } = mockFetch(() => SPREADS);
    renderWithProviders(<SpreadsPage />);
    await screen.findByRole('textbox', { name: /Forex Spread/ });
    fireEvent.change(input('Forex Spread'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Forex spread is required')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('posts the five fields and toasts', async () => {
    const { calls } = mockFetch((c) => (c.method === 'POST' ? { message: 'Spreads updated successfully' } : SPREADS));
    renderWithProviders(<SpreadsPage />);
    await screen.findByRole('textbox', { name: /Forex Spread/ });
    fireEvent.change(input('Stock Spread'), { target: { value: '4.25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Spreads updated successfully')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/spreads');
    expect(post?.body).toMatchObject({
      spread_forex: '1',
      spread_commodity: '1.5',
      spread_index: '2',
      spread_crypto: '0',
    });
    expect(Number((post!.body as Record<string, unknown>).spread_stock)).toBe(4.25);
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('shows the server message when the save fails', async () => {
    mockFetch((c) => (c.method === 'POST' ? { status: 400, body: { message: 'Must be 0 or more' } } : SPREADS));
    renderWithProviders(<SpreadsPage />);
    await screen.findByRole('textbox', { name: /Forex Spread/ });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Must be 0 or more')).toBeTruthy();
  });
});
