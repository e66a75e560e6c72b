import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { InstrumentForm } from './InstrumentForm.tsx';
import { instrument } from './fixtures.ts';

afterEach(cleanup);

// The chart provider is an autocomplete (a combobox), the rest plain text boxes.
const box = (label: RegExp) =>
  label.source.includes('Chart')
    ? screen.getByRole('combobox', { name: label })
    : screen.getByRole('textbox', { name: label });
const type = (label: RegExp, value: string) => {
  fireEvent.change(box(label), { target: { value } });
  fireEvent.blur(box(label));
};

describe('InstrumentForm', () => {
  it('shows the required messages on submit and sends nothing', async () => {
    const { calls } = mockFetch(() => ({ message: 'ok' }));
    renderWithProviders(<InstrumentForm category="forex" onSaved={vi.fn()} />);
    fireEvent.change(box(/Leverage/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Base is required')).toBeTruthy();
    expect(screen.getByText('Quote is required')).toBeTruthy();
    expect(screen.getByText('Chart provider is required')).toBeTruthy();
    expect(screen.getByText('Leverage is required')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('asks for bid and ask together, ask not below bid', async () => {
    mockFetch(() => ({ message: 'ok' }));
    renderWithProviders(<InstrumentForm category="forex" onSaved={vi.fn()} />);
    type(/^Bid/, '1.2');
    fireEvent.blur(box(/^Ask/));
    expect(await screen.findByText('Enter both bid and ask, or neither')).toBeTruthy();
    type(/^Ask/, '1.1');
    expect(await screen.findByText('Ask must not be below bid')).toBeTruthy();
  });

  it('posts a new instrument of the list category and toasts', async () => {
    const { calls } = mockFetch(() => ({ message: 'Instrument added successfully', instrument: instrument() }));
    const onSaved = vi.fn();
    renderWithProviders(<InstrumentForm category="crypto" onSaved={onSaved} />);
    type(/Instrument Name/, 'sol_usd');
    type(/Base/, 'SOL');
    type(/Quote/, 'USD');
    type(/^Bid/, '240.10');
    type(/^Ask/, '240.25');
    type(/Chart Provider/, 'COINBASE');
    fireEvent.change(box(/Leverage/), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await screen.findByText('Instrument added successfully')).toBeTruthy();
    expect(calls[0].method).toBe('POST');
    expect(calls[0].path).toBe('/admin/instruments');
    expect(calls[0].body).toMatchObject({
      name: 'sol_usd',
      base: 'SOL',
      quote: 'USD',
      category: 'crypto',
      bids: '240.10',
      asks: '240.25',
      tradingview: 'COINBASE',
      alias: null,
      tradable: true,
    });
    expect(Number((calls[0].body as { leverage: unknown }).leverage)).toBe(5);
  });

  it('edits without a price (keeps the live one) and shows the server message on failure', async () => {
    const { calls } = mockFetch(() => ({
      status: 409,
      body: { message: 'An instrument with this name already exists.' },
    }));
    const onSaved = vi.fn();
    renderWithProviders(<InstrumentForm category="forex" instrument={instrument()} onSaved={onSaved} />);
    expect(box(/Instrument Name/)).toHaveProperty('value', 'EUR_USD');
    expect(box(/^Bid/).getAttribute('placeholder')).toBe('Current: 1.08510');
    fireEvent.click(screen.getByRole('switch', { name: 'Tradable' }));
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('An instrument with this name already exists.')).toBeTruthy();
    expect(calls[0].method).toBe('PUT');
    expect(calls[0].path).toBe('/admin/instruments/2');
    expect(calls[0].body).toMatchObject({
      name: 'EUR_USD',
      bids: null,
      asks: null,
      tradable: false,
      leverage: 100,
      swap: 0,
    });
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('starts a side that is the swap empty, and sends each side typed (an empty one takes the swap)', async () => {
    const { calls } = mockFetch(() => ({ message: 'Instrument updated successfully', instrument: instrument() }));
    const onSaved = vi.fn();
    const eur = instrument({ swap: '-1', swap_long: '-1', swap_short: '0.5', swapLong: '-1', swapShort: '0.5' });
    renderWithProviders(<InstrumentForm category="forex" instrument={eur} onSaved={onSaved} />);
    expect(box(/Swap Long/)).toHaveProperty('value', '');
    expect(box(/Swap Short/)).toHaveProperty('value', '0.5');
    fireEvent.change(box(/Swap Long/), { target: { value: '-2.25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls[0].body).toMatchObject({ swap: -1, swapLong: -2.25, swapShort: 0.5 });
  });

  it('locks name, base and quote while positions are open', () => {
    mockFetch(() => ({}));
    renderWithProviders(
      <InstrumentForm category="forex" instrument={instrument({ open_positions: 2 })} onSaved={vi.fn()} />,
    );
    expect(box(/Instrument Name/)).toHaveProperty('disabled', true);
    expect(box(/Base/)).toHaveProperty('disabled', true);
    expect(box(/Quote/)).toHaveProperty('disabled', true);
    expect(box(/Alias/)).toHaveProperty('disabled', false);
  });
});
