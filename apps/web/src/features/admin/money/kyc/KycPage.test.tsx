import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../../ui/data-table/testing.tsx';
import { kycDocument, paged } from '../fixtures.ts';
import { KycPage } from './KycPage.tsx';

afterEach(cleanup);

const LIST = paged([
  kycDocument(),
  kycDocument({
    id: 8,
    type: 'national_id',
    status: 'approved',
    user: { id: 43, full_name: 'Dan Doe', email: 'dan@demo.test' },
  }),
  kycDocument({
    id: 9,
    type: 'driver_license',
    status: 'declined',
    decline_reason: 'Blurred photo',
    front: null,
    address: null,
    user: { id: 44, full_name: 'Eve Example', email: 'eve@demo.test' },
  }),
]);

const render = (handler: (c: FetchCall) => unknown = () => LIST) => {
  const mock = mockFetch(handler);
  renderWithProviders(<KycPage />);
  return mock;
};

const row = async (email: string) => (await screen.findByText(email)).closest('tr') as HTMLElement;

describe('KycPage', () => {
  it('lists documents with type, client, status chip, upload date, file buttons and decline reason', async () => {
    const { calls } = render();
    const carla = await row('carla@demo.test');
    for (const h of [
      'DOCUMENT TYPE',
      'FULL NAME',
      'CLIENT EMAIL',
      'STATUS',
      'UPLOAD DATE',
      'VIEW',
      'DECLINE REASON',
      'ACTIONS',
    ])
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    expect(calls[0].path).toBe('/admin/kyc/api');
    expect(within(carla).getByText('Passport')).toBeTruthy();
    expect(within(carla).getByText('Carla Client')).toBeTruthy();
    expect(within(carla).getByText('Pending')).toBeTruthy();
    expect(within(carla).getByText('05/03/2025 2:07 PM')).toBeTruthy();
    expect(within(carla).getByRole('button', { name: 'Front' })).toBeTruthy();
    expect(within(carla).queryByRole('button', { name: 'Back' })).toBeNull();
    expect(within(carla).getByRole('button', { name: 'Address' })).toBeTruthy();
    const dan = await row('dan@demo.test');
    expect(within(dan).getByText('National ID')).toBeTruthy();
    expect(within(dan).getByText('Approved')).toBeTruthy();
    const eve = await row('eve@demo.test');
    expect(within(eve).getByText("Driver's License")).toBeTruthy();
    expect(within(eve).getByText('Declined')).toBeTruthy();
    expect(within(eve).getByText('Blurred photo')).toBeTruthy();
    // Eve uploaded no file: the VIEW cell is "-".
    expect(within(eve).getAllByRole('cell')[5].textContent).toBe('-');
  });

  it('hides Approve once a document is approved; Decline is always offered', async () => {
    render();
    expect(within(await row('carla@demo.test')).getByRole('button', { name: 'Approve' })).toBeTruthy();
    const dan = await row('dan@demo.test');
    expect(within(dan).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(dan).getByRole('button', { name: 'Decline' })).toBeTruthy();
    const eve = await row('eve@demo.test');
    expect(within(eve).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(eve).getByRole('button', { name: 'Decline' })).toBeTruthy();
  });

  it('approves after the confirmation, toasts and reloads', async () => {
    const { calls } = render((c) => (c.method === 'POST' ? { message: 'Document approved successfully' } : LIST));
    fireEvent.click(within(await row('carla@demo.test')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Are you sure to approve this document?')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Document approved successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.path).toBe('/admin/kyc/7/approve');
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1));
  });

  it('declines with the typed reason', async () => {
    const { calls } = render((c) => (c.method === 'POST' ? { message: 'KYC declined successfully' } : LIST));
    fireEvent.click(within(await row('dan@demo.test')).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Are you sure to decline this document?')).toBeTruthy();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Decline Reason', hidden: true }), {
      target: { value: 'Expired document' },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('KYC declined successfully')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/kyc/8/decline');
    expect(post?.body).toEqual({ declineReason: 'Expired document' });
  });

  it('shows an uploaded image in the viewer, and offers a PDF to open, each with a link to open it', async () => {
    render();
    fireEvent.click(within(await row('carla@demo.test')).getByRole('button', { name: 'Front' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Carla Client: Front')).toBeTruthy();
    expect(within(dialog).getByRole('img', { name: 'Front' }).getAttribute('src')).toBe('/api/files/front-7');
    expect(
      within(dialog)
        .getByRole('link', { name: /Open in new tab/ })
        .getAttribute('href'),
    ).toBe('/api/files/front-7');
    fireEvent.click(within(await row('carla@demo.test')).getByRole('button', { name: 'Address' }));
    expect(await screen.findByText('This document is a PDF. Open it in a new tab.')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Open in new tab/ }).getAttribute('href')).toBe('/api/files/address-7');
  });
});
