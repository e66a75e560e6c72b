import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../../ui/data-table/testing.tsx';
import { moneyRecord, paged } from '../fixtures.ts';
import { DepositsPage } from './DepositsPage.tsx';

afterEach(cleanup);

const LIST = paged([
  moneyRecord({
    id: 21,
    gateway: 'bank',
    description: 'Awaiting transfer details',
    proof: null,
    formattedDescription: null,
    awaiting_proof: true,
  }),
]);

describe('DepositsPage: a bank deposit still waiting for its transfer details and proof', () => {
  it('is approved only with an override reason, sent to the server', async () => {
    const { calls } = mockFetch((c) => (c.method === 'POST' ? { message: 'Deposit approved successfully' } : LIST));
    renderWithProviders(<DepositsPage />);
    const row = (await screen.findByRole('cell', { name: '21' })).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Approve' }));
    expect(
      await screen.findByText('The client has not sent the transfer details and proof yet. Approve anyway?'),
    ).toBeTruthy();
    const yes = await screen.findByRole('button', { name: 'Yes', hidden: true });
    expect((yes as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Override reason/), {
      target: { value: 'Seen on the bank statement' },
    });
    expect((yes as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(yes);
    expect(await screen.findByText('Deposit approved successfully')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/admin/deposits/21/approve');
    expect(post?.body).toEqual({ overrideReason: 'Seen on the bank statement' });
  }, 20_000);
});
