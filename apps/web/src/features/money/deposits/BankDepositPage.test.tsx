import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DepositDetailResponse } from '@platform/domain';
import { mockMoneyApi, renderMoneyRoutes, type MoneyCall } from '../testing.tsx';
import { BankDepositPage, proofError } from './BankDepositPage.tsx';

const DETAIL: DepositDetailResponse = {
  id: 31,
  gateway: 'bank',
  gateway_name: 'Bank',
  status: 'pending',
  amount: '250.00',
  fee: '0.00',
  total: '250.00',
  currency: 'USD',
  bank: {
    key1: 'Demo Bank',
    key2: 'Broker Ltd',
    key3: 'GB29NWBK60161331926819',
    key4: 'NWBKGB2L',
    key5: 'United Kingdom',
  },
  crypto: null,
  proof_sent: false,
};

function show(
  detail: DepositDetailResponse = DETAIL,
  put: (c: MoneyCall) => { status?: number; body: unknown } = () => ({
    body: { message: 'Transfer details received' },
  }),
) {
  const api = mockMoneyApi({}, (c) => {
    if (c.method === 'GET' && c.path === '/deposits/31') return { body: detail };
    if (c.method === 'PUT' && c.path === '/deposits/bank/31') return put(c);
    return undefined;
  });
  renderMoneyRoutes([{ path: '/deposits/bank/:id', element: <BankDepositPage /> }], '/deposits/bank/31');
  return api;
}

const proofInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const attach = (file: File) => fireEvent.change(proofInput(), { target: { files: [file] } });

describe('BankDepositPage', () => {
  it('lists where to transfer to, with the logo and the account name prefilled read-only', async () => {
    show();
    const details = await screen.findByTestId('bank-details');
    for (const text of ['Demo Bank', 'Broker Ltd', 'GB29NWBK60161331926819', 'NWBKGB2L', 'United Kingdom', '$250.00'])
      expect(within(details).getByText(text)).toBeTruthy();
    for (const label of [
      'Bank Name',
      'Account Holder Name',
      'IBAN / Account Number',
      'BIC / Swift Code',
      'Country',
      'Amount',
    ])
      expect(within(details).getByText(label)).toBeTruthy();
    expect(screen.getByText('Bank Deposit')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('img[src="/logo.svg"]')).toBeTruthy());
    const name = screen.getByRole('textbox', { name: /Account Name/ }) as HTMLInputElement;
    expect(name.value).toBe('Chris Client');
    expect(name.readOnly).toBe(true);
  });

  it('names what is missing and sends nothing', async () => {
    const api = show();
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Bank name is required')).toBeTruthy();
    expect(screen.getByText('Account number is required')).toBeTruthy();
    expect(screen.getByText('Proof is required')).toBeTruthy();
    expect(api.posted('/deposits/bank/31')).toHaveLength(0);
  });

  it('sends the details and the proof as multipart, then shows the deposit as pending', async () => {
    const api = show();
    fireEvent.change(await screen.findByRole('textbox', { name: /Bank Name/ }), { target: { value: 'My Bank' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Account Number/ }), { target: { value: '12345678' } });
    const proof = new File(['%PDF-1.4'], 'receipt.pdf', { type: 'application/pdf' });
    attach(proof);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/deposits?status=pending&amount=250.00'),
    );
    const form = api.posted('/deposits/bank/31')[0].form!;
    expect(form.get('bank_name')).toBe('My Bank');
    expect(form.get('account_name')).toBe('Chris Client');
    expect(form.get('account_number')).toBe('12345678');
    expect((form.get('proof') as File).name).toBe('receipt.pdf');
    expect(await screen.findByText('Transfer details received')).toBeTruthy();
  });

  it('goes on to pending even when the upload fails, with the server message', async () => {
    show(DETAIL, () => ({ status: 422, body: { message: 'Proof must be an image or a PDF' } }));
    fireEvent.change(await screen.findByRole('textbox', { name: /Bank Name/ }), { target: { value: 'My Bank' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Account Number/ }), { target: { value: '12345678' } });
    attach(new File(['x'], 'receipt.png', { type: 'image/png' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/deposits?status=pending&amount=250.00'),
    );
    expect(await screen.findByText('Proof must be an image or a PDF')).toBeTruthy();
  });

  it('accepts JPEG, PNG, WebP and PDF proofs up to 5 MB only', () => {
    expect(proofError(null)).toBe('Proof is required');
    expect(proofError(new File(['x'], 'a.webp', { type: 'image/webp' }))).toBeUndefined();
    expect(proofError(new File(['x'], 'a.gif', { type: 'image/gif' }))).toBe(
      'Proof must be a JPEG, PNG, WebP or PDF file',
    );
    expect(proofError(new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'a.jpg', { type: 'image/jpeg' }))).toBe(
      'Proof must be at most 5 MB',
    );
  });

  it('does not ask again once the transfer details were sent', async () => {
    show({ ...DETAIL, proof_sent: true });
    expect(await screen.findByText(/The transfer details of this deposit were sent/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });
});
