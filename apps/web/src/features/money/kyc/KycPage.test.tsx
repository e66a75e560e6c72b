import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { KycStatusResponse } from '@platform/domain';
import { mockMoneyApi, renderMoneyRoutes, stubLocation, type MoneyCall } from '../testing.tsx';
import { KycPage } from './KycPage.tsx';

const NOT_SUBMITTED: KycStatusResponse = { status: 'not_submitted', type: null, declineReason: null, created_at: null };

function show(
  kyc: KycStatusResponse | (() => KycStatusResponse),
  post: (c: MoneyCall) => { status?: number; body: unknown } = () => ({ body: { message: 'Documents received' } }),
) {
  const api = mockMoneyApi({}, (c) => {
    if (c.method === 'GET' && c.path === '/kyc') return { body: typeof kyc === 'function' ? kyc() : kyc };
    if (c.method === 'POST' && c.path === '/kyc') return post(c);
    return undefined;
  });
  renderMoneyRoutes([{ path: '/kyc', element: <KycPage /> }], '/kyc');
  return api;
}

const fileInputs = () => Array.from(document.querySelectorAll('input[type="file"]')) as HTMLInputElement[];

describe('KycPage', () => {
  it('offers the three document types, National ID first, sends type and files as multipart, toasts and shows the new status', async () => {
    const { reload } = stubLocation();
    let sent = false;
    const pending: KycStatusResponse = {
      status: 'pending',
      type: 'passport',
      declineReason: null,
      created_at: '2025-03-01T10:00:00Z',
    };
    const api = show(
      () => (sent ? pending : NOT_SUBMITTED),
      () => {
        sent = true;
        return { body: { message: 'Documents received' } };
      },
    );
    const type = (await screen.findByRole('combobox', { name: /Document Type/ })) as HTMLInputElement;
    expect(type.value).toBe('National ID');
    fireEvent.click(type);
    for (const name of ['National ID', 'Passport', 'Driver License'])
      expect(await screen.findByRole('option', { name, hidden: true })).toBeTruthy();
    fireEvent.click(screen.getByRole('option', { name: 'Passport', hidden: true }));
    const [front, back, address] = fileInputs();
    fireEvent.change(front, { target: { files: [new File(['f'], 'front.jpg', { type: 'image/jpeg' })] } });
    fireEvent.change(back, { target: { files: [new File(['b'], 'back.png', { type: 'image/png' })] } });
    fireEvent.change(address, { target: { files: [new File(['a'], 'bill.pdf', { type: 'application/pdf' })] } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    // The toast stays on screen: the status is fetched again instead of reloading the page.
    expect(await screen.findByText('Documents received')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    expect(await screen.findByTestId('kyc-submitted')).toBeTruthy();
    const form = api.posted('/kyc')[0].form!;
    expect(form.get('type')).toBe('passport');
    expect((form.get('front') as File).name).toBe('front.jpg');
    expect((form.get('back') as File).name).toBe('back.png');
    expect((form.get('address') as File).name).toBe('bill.pdf');
  });

  it("shows the server's refusal and stays on the form", async () => {
    const { reload } = stubLocation();
    show(NOT_SUBMITTED, () => ({ status: 422, body: { message: 'Add at least one document' } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Add at least one document')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a pending submission as "KYC Submitted" with its chip and no form', async () => {
    show({ status: 'pending', type: 'national_id', declineReason: null, created_at: '2026-11-20T10:00:00Z' });
    expect(await screen.findByText('KYC Submitted')).toBeTruthy();
    expect(screen.getByText('Pending')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resubmit' })).toBeNull();
  });

  it('shows an approved submission with its chip', async () => {
    show({ status: 'approved', type: 'passport', declineReason: null, created_at: '2026-11-20T10:00:00Z' });
    expect(await screen.findByText('Approved')).toBeTruthy();
    expect(screen.getByText('Your identity is verified.')).toBeTruthy();
  });

  it('shows a declined submission with its reason; Resubmit reopens the form and Cancel goes back', async () => {
    show({ status: 'declined', type: 'passport', declineReason: 'Blurred photo', created_at: '2026-11-20T10:00:00Z' });
    expect(await screen.findByText('KYC Submitted')).toBeTruthy();
    expect(screen.getByText('Declined')).toBeTruthy();
    expect(screen.getByText('Blurred photo')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resubmit' }));
    expect(await screen.findByRole('button', { name: 'Submit' })).toBeTruthy();
    expect(fileInputs()).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Blurred photo')).toBeTruthy();
  });
});
