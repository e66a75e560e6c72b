import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AUTOMATIC_GATEWAYS, GATEWAY_SPECS, MANUAL_GATEWAYS, SECRET_MASK, type GatewayKind } from '@platform/domain';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../../ui/data-table/testing.tsx';
import { gateway, pngFile, sentForm } from '../fixtures.ts';
import { GatewaysPage } from './GatewaysPage.tsx';

afterEach(cleanup);

const GATEWAYS = {
  data: [
    gateway({
      value: 'sandbox',
      name: 'Sandbox Card',
      key1: SECRET_MASK,
      fee: '2.5000',
      is_active: true,
      note: 'Built-in test card payments.',
    }),
    gateway({
      value: 'stripe',
      name: 'Stripe',
      key1: SECRET_MASK,
      key2: '',
      note: 'Checkout sessions confirmed by signed webhooks.',
    }),
    gateway({
      value: 'paypal',
      name: 'PayPal',
      key1: 'client-abc',
      key2: SECRET_MASK,
      key3: 'sandbox',
      fee: '2.5000',
      is_active: true,
    }),
    gateway({ value: 'flutterwave', name: 'Flutterwave' }),
    gateway({ value: 'coinpayments', name: 'CoinPayments' }),
    gateway({ value: 'wipays', name: 'WiPays' }),
    gateway({ value: 'perfectmoney', name: 'Perfect Money' }),
    gateway({
      value: 'globiance',
      name: 'Globiance',
      note: 'Globiance cannot be switched on: it publishes no way to verify a payment.',
    }),
    gateway({ value: 'moonpay', name: 'MoonPay' }),
    gateway({ value: 'prmoney', name: 'PR Money' }),
    gateway({
      value: 'bank',
      name: 'Bank',
      group: 'manual',
      key1: 'Demo Bank plc',
      key2: 'Platform Ltd',
      key3: 'GB33',
      key4: 'BUKBGB22',
      key5: 'United Kingdom',
      is_active: true,
    }),
    gateway({
      value: 'btc',
      name: 'Bitcoin',
      group: 'manual',
      key1: 'bc1qwallet',
      fee: '1.0000',
      is_active: true,
      file: '/api/files/qr-btc',
    }),
    gateway({ value: 'usdt', name: 'USDT', group: 'manual', key1: '' }),
  ],
};

const render = (group: 'automatic' | 'manual', handler: (c: FetchCall) => unknown = () => GATEWAYS) => {
  const mock = mockFetch(handler);
  renderWithProviders(<GatewaysPage group={group} />);
  return mock;
};

const card = (kind: GatewayKind) => screen.findByTestId(`gateway-card-${kind}`);
/** Inputs a user types into or picks from (not the switch, not the file picker). */
const valueInputs = (el: HTMLElement) =>
  el.querySelectorAll('input:not([type=hidden]):not([type=checkbox]):not([type=file]), textarea');

describe('GatewaysPage', () => {
  it('shows one card per automatic gateway, each with exactly its field set', async () => {
    const { calls } = render('automatic');
    await card('stripe');
    expect(calls[0].path).toBe('/admin/gateways');
    expect(screen.queryByTestId('gateway-card-bank')).toBeNull();
    for (const kind of AUTOMATIC_GATEWAYS) {
      const spec = GATEWAY_SPECS[kind];
      const el = await card(kind);
      expect(within(el).getByRole('heading', { name: spec.name })).toBeTruthy();
      for (const f of spec.fields) expect(within(el).getByLabelText(new RegExp(`^${f.label}`))).toBeTruthy();
      expect(valueInputs(el)).toHaveLength(spec.fields.length + (spec.hasFee ? 1 : 0));
      expect(within(el).queryAllByRole('switch', { name: 'Active' })).toHaveLength(spec.hasFee ? 1 : 0);
      expect(within(el).queryByLabelText(/QR Code/)).toBeNull();
    }
    expect(
      within(await card('globiance')).getByText(
        'Globiance cannot be switched on: it publishes no way to verify a payment.',
      ),
    ).toBeTruthy();
  });

  it('shows secrets masked in password inputs and the stored plain values', async () => {
    render('automatic');
    const paypal = await card('paypal');
    expect(within(paypal).getByLabelText(/^Client Key/)).toHaveProperty('value', 'client-abc');
    const secret = within(paypal).getByLabelText(/^Secret Key/) as HTMLInputElement;
    expect(secret.type).toBe('password');
    expect(secret.value).toBe(SECRET_MASK);
    expect(within(paypal).getByLabelText(/^Mode/)).toHaveProperty('value', 'sandbox');
    expect(within(paypal).getByLabelText(/^Fee/)).toHaveProperty('value', '2.5000');
    expect(within(paypal).getByRole('switch', { name: 'Active' })).toHaveProperty('checked', true);
    const stripe = await card('stripe');
    expect(within(stripe).getByLabelText(/^Secret Key/)).toHaveProperty('type', 'password');
    expect(within(stripe).getByLabelText(/^Webhook Signing Secret/)).toHaveProperty('value', '');
  });

  it('saves a card as multipart with its own fields, the mask kept as it is, and toasts its name', async () => {
    const { calls, fn } = render('automatic', (c) =>
      c.method === 'PUT' ? { message: 'PayPal updated successfully' } : GATEWAYS,
    );
    const paypal = await card('paypal');
    fireEvent.change(within(paypal).getByLabelText(/^Client Key/), { target: { value: ' client-new ' } });
    fireEvent.change(within(paypal).getByLabelText(/^Fee/), { target: { value: '3.25' } });
    fireEvent.click(within(paypal).getByRole('switch', { name: 'Active' }));
    fireEvent.click(within(paypal).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('PayPal updated successfully')).toBeTruthy();
    const index = calls.findIndex((c) => c.method === 'PUT');
    expect(calls[index].path).toBe('/admin/gateways/paypal');
    const body = sentForm(fn, index);
    expect(Object.fromEntries(body.entries())).toEqual({
      name: 'paypal',
      key1: 'client-new',
      key2: SECRET_MASK,
      key3: 'sandbox',
      fee: '3.25',
      isActive: 'false',
    });
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('asks for the required fields before switching a gateway on, and shows the server message on failure', async () => {
    const { calls } = render('automatic', (c) =>
      c.method === 'PUT' ? { status: 400, body: { message: 'WiPays cannot be switched on.', errors: {} } } : GATEWAYS,
    );
    const flutterwave = await card('flutterwave');
    fireEvent.click(within(flutterwave).getByRole('switch', { name: 'Active' }));
    fireEvent.click(within(flutterwave).getByRole('button', { name: 'Update' }));
    expect(await within(flutterwave).findByText('Public Key is required')).toBeTruthy();
    expect(within(flutterwave).getByText('Secret Key is required')).toBeTruthy();
    expect(within(flutterwave).getByText('Encryption Key is required')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    // Left off, empty fields may be saved.
    const wipays = await card('wipays');
    fireEvent.change(within(wipays).getByLabelText(/^Fee/), { target: { value: '' } });
    fireEvent.click(within(wipays).getByRole('button', { name: 'Update' }));
    expect(await within(wipays).findByText('Fee is required')).toBeTruthy();
    fireEvent.change(within(wipays).getByLabelText(/^Fee/), { target: { value: '1' } });
    fireEvent.click(within(wipays).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('WiPays cannot be switched on.')).toBeTruthy();
  });

  it('shows the manual gateways: bank without fee or switch, crypto with the QR code upload', async () => {
    const { calls, fn } = render('manual', (c) =>
      c.method === 'PUT' ? { message: 'Bitcoin updated successfully' } : GATEWAYS,
    );
    const bank = await card('bank');
    expect(screen.queryByTestId('gateway-card-stripe')).toBeNull();
    for (const kind of MANUAL_GATEWAYS) expect(await card(kind)).toBeTruthy();
    expect(valueInputs(bank)).toHaveLength(5);
    expect(within(bank).queryByRole('switch')).toBeNull();
    expect(within(bank).getByLabelText(/^IBAN \/ Account Number/)).toHaveProperty('value', 'GB33');

    const btc = await card('btc');
    expect(valueInputs(btc)).toHaveLength(2);
    expect(within(btc).getByRole('img', { name: 'QR Code' }).getAttribute('src')).toBe('/api/files/qr-btc');
    fireEvent.change(within(btc).getByLabelText(/^QR Code/), { target: { files: [pngFile()] } });
    expect(await within(btc).findByText('File Added')).toBeTruthy();
    fireEvent.click(within(btc).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Bitcoin updated successfully')).toBeTruthy();
    const index = calls.findIndex((c) => c.method === 'PUT');
    expect(calls[index].path).toBe('/admin/gateways/btc');
    const body = sentForm(fn, index);
    expect(body.get('key1')).toBe('bc1qwallet');
    expect(body.get('isActive')).toBe('true');
    expect((body.get('file') as File).name).toBe('qr.png');
    expect(body.has('key2')).toBe(false);
  });
});
