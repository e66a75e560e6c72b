import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { LotsPage } from './LotsPage.tsx';

afterEach(cleanup);

const LOTS = {
  modes: { lot_forex: 'lot', lot_commodity: 'amount', lot_index: 'amount', lot_stock: 'amount', lot_crypto: 'amount' },
  lotSelector: [
    { label: 'Micro lot (0.01)', value: 1000 },
    { label: 'Standard lot (1)', value: 100000 },
  ],
};

const form = (name: string) => screen.getByRole('form', { name });

describe('LotsPage', () => {
  it('shows each category mode and the presets', async () => {
    mockFetch(() => LOTS);
    renderWithProviders(<LotsPage />);
    const forex = await screen.findByTestId('lot-mode-lot_forex');
    expect(within(forex).getByRole('radio', { name: 'Lot' })).toHaveProperty('checked', true);
    expect(within(screen.getByTestId('lot-mode-lot_crypto')).getByRole('radio', { name: 'Amount' })).toHaveProperty(
      'checked',
      true,
    );
    const first = screen.getByTestId('lot-preset-0');
    expect(within(first).getByRole('textbox', { name: /Label/ })).toHaveProperty('value', 'Micro lot (0.01)');
    expect(within(screen.getByTestId('lot-preset-1')).getByRole('textbox', { name: /Value/ })).toHaveProperty(
      'value',
      '100000',
    );
  });

  it('posts the modes and toasts', async () => {
    const { calls } = mockFetch((c) => (c.method === 'POST' ? { message: 'Lots updated successfully' } : LOTS));
    renderWithProviders(<LotsPage />);
    const crypto = await screen.findByTestId('lot-mode-lot_crypto');
    fireEvent.click(within(crypto).getByRole('radio', { name: 'Lot' }));
    fireEvent.click(within(form('Lot Mode')).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Lots updated successfully')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/lots');
    expect(post?.body).toEqual({ ...LOTS.modes, lot_crypto: 'lot' });
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('validates presets before sending: label required, value above 0, at least one', async () => {
    const { calls } = mockFetch(() => LOTS);
    renderWithProviders(<LotsPage />);
    await screen.findByTestId('lot-preset-0');
    fireEvent.click(within(form('Lot Selector')).getByRole('button', { name: 'Add Preset' }));
    const added = await screen.findByTestId('lot-preset-2');
    fireEvent.change(within(added).getByRole('textbox', { name: /Value/ }), { target: { value: '0' } });
    fireEvent.click(within(form('Lot Selector')).getByRole('button', { name: 'Update' }));
    expect(await within(added).findByText('Label is required')).toBeTruthy();
    expect(within(added).getByText('Value must be greater than 0')).toBeTruthy();
    for (let i = 0; i < 3; i++)
      fireEvent.click(within(screen.getByTestId('lot-preset-0')).getByRole('button', { name: 'Remove' }));
    fireEvent.click(within(form('Lot Selector')).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Add at least one preset')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('posts the presets in order and shows the server message on failure', async () => {
    const { calls } = mockFetch((c) =>
      c.method === 'POST' ? { status: 400, body: { message: 'At most 20 presets' } } : LOTS,
    );
    renderWithProviders(<LotsPage />);
    await screen.findByTestId('lot-preset-0');
    fireEvent.click(within(form('Lot Selector')).getByRole('button', { name: 'Add Preset' }));
    const added = await screen.findByTestId('lot-preset-2');
    fireEvent.change(within(added).getByRole('textbox', { name: /Label/ }), { target: { value: 'Mini' } });
    fireEvent.change(within(added).getByRole('textbox', { name: /Value/ }), { target: { value: '10000' } });
    fireEvent.click(within(form('Lot Selector')).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('At most 20 presets')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/lotSelector');
    const sent = (post!.body as { lotSelector: Array<{ label: string; value: unknown }> }).lotSelector;
    expect(sent.map((p) => [p.label, Number(p.value)])).toEqual([
      ['Micro lot (0.01)', 1000],
      ['Standard lot (1)', 100000],
      ['Mini', 10000],
    ]);
  });

  it("edits another market's lot sizes in lots and posts them with its category", async () => {
    const data = {
      ...LOTS,
      categoryPresets: {
        commodity: [{ label: '0.01 lot', value: 0.01 }],
        index: [{ label: '1 lot', value: 1 }],
        stock: [],
        crypto: [],
      },
    };
    const { calls } = mockFetch((c) => (c.method === 'POST' ? { message: 'Lots updated successfully' } : data));
    renderWithProviders(<LotsPage />);
    const first = await screen.findByTestId('commodity-preset-0');
    expect(within(first).getByRole('textbox', { name: /Lots/ })).toHaveProperty('value', '0.01');
    fireEvent.click(screen.getByRole('radio', { name: 'Index' }));
    const index = await screen.findByTestId('index-preset-0');
    fireEvent.change(within(index).getByRole('textbox', { name: /Lots/ }), { target: { value: '2' } });
    fireEvent.click(within(form('Lot sizes')).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Lots updated successfully')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/lotSelector');
    expect(post?.body).toMatchObject({ category: 'index', lotSelector: [{ label: '1 lot' }] });
    expect(Number((post!.body as { lotSelector: Array<{ value: unknown }> }).lotSelector[0].value)).toBe(2);
  });
});
