import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../../ui/data-table/testing.tsx';
import { WithdrawSettingsPage } from './WithdrawSettingsPage.tsx';

afterEach(cleanup);

const SETTINGS = { feePercentage: '1.5000', feeFixed: '2.00' };
const box = (name: string) => screen.getByRole('textbox', { name: new RegExp(name.replace(/[()]/g, '\\$&')) });

describe('WithdrawSettingsPage', () => {
  it('loads the fees and saves them as decimals', async () => {
    const { calls } = mockFetch((c) =>
      c.method === 'POST' ? { message: 'Withdraw settings updated successfully' } : SETTINGS,
    );
    renderWithProviders(<WithdrawSettingsPage />);
    await screen.findByRole('textbox', { name: /Fee \(%\)/ });
    expect(box('Fee (%)')).toHaveProperty('value', '1.5000');
    expect(box('Fee (Fixed)')).toHaveProperty('value', '2.00');
    fireEvent.change(box('Fee (%)'), { target: { value: '2.25' } });
    fireEvent.change(box('Fee (Fixed)'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Withdraw settings updated successfully')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/withdraws/settings');
    expect(post?.body).toEqual({ feePercentage: '2.2500', feeFixed: '3.00' });
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('requires both fees and sends nothing without them', async () => {
    const { calls } = mockFetch(() => SETTINGS);
    renderWithProviders(<WithdrawSettingsPage />);
    await screen.findByRole('textbox', { name: /Fee \(%\)/ });
    fireEvent.change(box('Fee (%)'), { target: { value: '' } });
    fireEvent.change(box('Fee (Fixed)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Fee percentage is required')).toBeTruthy();
    expect(screen.getByText('Fixed fee is required')).toBeTruthy();
    fireEvent.change(box('Fee (%)'), { target: { value: '120' } });
    fireEvent.blur(box('Fee (%)'));
    expect(await screen.findByText('Must be at most 100')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});
