import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { DepositDetailResponse } from '@platform/domain';
import { mockMoneyApi, renderMoneyRoutes } from '../testing.tsx';
import { CryptoDepositPage } from './CryptoDepositPage.tsx';

const QR = 'data:image/png;base64,iVBORw0KGgo=';
const DETAIL: DepositDetailResponse = {
  id: 40,
  gateway: 'btc',
  gateway_name: 'Bitcoin',
  status: 'pending',
  amount: '500.00',
  fee: '5.00',
  total: '505.00',
  currency: 'USD',
  bank: null,
  crypto: {
    coin: 'BTC',
    walletCode: 'bc1qexampleaddress0000',
    qrCode: QR,
    convertedAmount: '0.00561111',
    rate: '90000.00',
  },
  proof_sent: false,
};

describe('CryptoDepositPage', () => {
  it('shows the QR code, the wallet to pay, the coin amount and rate; Confirm leaves the deposit pending', async () => {
    mockMoneyApi({}, (c) => (c.method === 'GET' && c.path === '/deposits/40' ? { body: DETAIL } : undefined));
    renderMoneyRoutes([{ path: '/deposits/crypto/:id', element: <CryptoDepositPage /> }], '/deposits/crypto/40');
    expect(await screen.findByText('Bitcoin Deposit')).toBeTruthy();
    expect(
      (screen.getByRole('img', { name: 'QR code of the wallet address' }) as HTMLImageElement).getAttribute('src'),
    ).toBe(QR);
    expect(screen.getByTestId('crypto-amount').textContent).toBe('0.00561111 BTC');
    expect(screen.getByText(/Send exactly/)).toBeTruthy();
    expect(screen.getByText(/1 BTC = \$90,000\.00/)).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Wallet Address' }) as HTMLInputElement).value).toBe(
      'bc1qexampleaddress0000',
    );
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/deposits?status=pending&amount=500.00'),
    );
  });

  it('says so when the deposit is not a crypto one of the caller', async () => {
    mockMoneyApi({}, (c) =>
      c.method === 'GET' && c.path === '/deposits/41'
        ? { status: 404, body: { message: 'Deposit not found.' } }
        : undefined,
    );
    renderMoneyRoutes([{ path: '/deposits/crypto/:id', element: <CryptoDepositPage /> }], '/deposits/crypto/41');
    expect(await screen.findByText('Deposit not found.')).toBeTruthy();
  });
});
