import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { mockFetch, renderWithProviders, showAllColumns, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { InstrumentsPage } from './InstrumentsPage.tsx';
import { instrument } from './fixtures.ts';

afterEach(cleanup);

const LIST = {
  data: [
    instrument(),
    instrument({
      id: 1,
      name: 'USD_JPY',
      base: 'USD',
      quote: 'JPY',
      alias: null,
      tradable: false,
      bids: '151.210',
      asks: '151.222',
      digits: 3,
    }),
  ],
  meta: { total: 2, per_page: 15, page: 1 },
};

const render = (type = 'forex', handler: (c: FetchCall) => unknown = () => LIST) => {
  const mock = mockFetch(handler);
  renderWithProviders(
    <Routes>
      <Route path="/admin/instruments/:type" element={<InstrumentsPage />} />
    </Routes>,
    { route: `/admin/instruments/${type}` },
  );
  return mock;
};

describe('InstrumentsPage', () => {
  it('lists the category with the spec columns, "-" for a missing alias and tradable chips', async () => {
    const { calls } = render('forex');
    const eur = (await screen.findByText('EUR_USD')).closest('tr') as HTMLElement;
    const jpy = screen.getByText('USD_JPY').closest('tr') as HTMLElement;
    await showAllColumns();
    for (const h of [
      'ID',
      'INSTRUMENT NAME',
      'BASE',
      'QUOTE',
      'BIDS',
      'ASKS',
      'CHART PROVIDER',
      'ALIAS',
      'LEVERAGE',
      'TRADABLE',
      'ACTIONS',
    ])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(eur).getByText('1.08510')).toBeTruthy();
    expect(within(eur).getByText('Yes')).toBeTruthy();
    expect(within(jpy).getByText('No')).toBeTruthy();
    expect(within(jpy).getByText('-')).toBeTruthy();
    expect(calls[0].path).toBe('/admin/instruments/api/forex');
    expect(calls[0].query.get('limit')).toBe('15');
  });

  it('asks the list of the type in the path', async () => {
    const { calls } = render('crypto', () => ({ data: [], meta: { total: 0, per_page: 15, page: 1 } }));
    expect(await screen.findByText('No data found')).toBeTruthy();
    expect(calls[0].path).toBe('/admin/instruments/api/crypto');
  });

  it('deletes after "Are you sure to delete this pair?" and reloads', async () => {
    const { calls } = render('forex', (c) =>
      c.method === 'DELETE' ? { message: 'Instrument deleted successfully' } : LIST,
    );
    const jpy = (await screen.findByText('USD_JPY')).closest('tr') as HTMLElement;
    fireEvent.click(within(jpy).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure to delete this pair?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Instrument deleted successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/admin/instruments/1');
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/admin/instruments/api/forex').length).toBeGreaterThan(1),
    );
  });

  it('says why a delete is refused (open positions), and is generic otherwise', async () => {
    let status = 409;
    render('forex', (c) =>
      c.method === 'DELETE'
        ? { status, body: { message: 'This instrument has open positions. Close them before deleting it.' } }
        : LIST,
    );
    const eur = (await screen.findByText('EUR_USD')).closest('tr') as HTMLElement;
    fireEvent.click(within(eur).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('This instrument has open positions. Close them before deleting it.')).toBeTruthy();
    status = 500;
    fireEvent.click(within(eur).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });

  it('opens the add and edit forms in a modal', async () => {
    render('forex');
    const eur = (await screen.findByText('EUR_USD')).closest('tr') as HTMLElement;
    fireEvent.click(within(eur).getByRole('button', { name: 'Edit' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Edit Instrument')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: /Instrument Name/ })).toHaveProperty('value', 'EUR_USD');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Add New' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add Instrument')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: /Instrument Name/ })).toHaveProperty('value', '');
  });
});
