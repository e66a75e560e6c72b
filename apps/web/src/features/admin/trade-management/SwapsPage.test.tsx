import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { SwapsPage } from './SwapsPage.tsx';

afterEach(cleanup);

const SWAPS = {
  tripleSwapDay: { forex: 'wednesday', commodity: 'wednesday', index: 'friday', stock: 'friday', crypto: 'none' },
  weekends: { forex: false, commodity: false, index: false, stock: false, crypto: true },
};

describe('SwapsPage', () => {
  it('starts from the stored calendar and posts a changed day and weekend switch', async () => {
    const { calls } = mockFetch((c) =>
      c.method === 'POST' ? { message: 'Swap settings updated successfully', ...SWAPS } : SWAPS,
    );
    renderWithProviders(<SwapsPage />);
    const index = await screen.findByRole('combobox', { name: /Index triple-swap day/ });
    expect(index).toHaveProperty('value', 'Friday');
    expect(screen.getByRole('combobox', { name: /Crypto triple-swap day/ })).toHaveProperty('value', 'Never');
    expect(screen.getByRole('switch', { name: /Crypto: charge Saturday/ })).toHaveProperty('checked', true);
    fireEvent.click(index);
    const listbox = document.getElementById(index.getAttribute('aria-controls') ?? '');
    fireEvent.click(within(listbox as HTMLElement).getByRole('option', { name: 'Thursday', hidden: true }));
    fireEvent.click(screen.getByRole('switch', { name: /Stock: charge Saturday/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Swap settings updated successfully')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/swaps');
    expect(post?.body).toMatchObject({
      tripleSwapDay: { index: 'thursday', forex: 'wednesday' },
      weekends: { stock: true, crypto: true },
    });
  });
});
