import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { PartnerSummaryResponse } from '@platform/domain';
import { mockFetch, renderWithProviders } from '../../ui/data-table/testing.tsx';
import { PartnerPortalPage } from './PartnerPortalPage.tsx';

// The chart needs a measured box jsdom does not have; the figures around it are what this test reads.
vi.mock('@mantine/charts', () => ({ BarChart: () => <div data-testid="chart" /> }));

const SUMMARY: PartnerSummaryResponse = {
  dateStart: '2026-10-28',
  dateEnd: '2026-11-26',
  clients: 3,
  activeTraders: 2,
  lots: '4.50000000',
  commission: [{ currency: 'USD', amount: '57.25000000' }],
  byDay: [{ day: '2026-11-25', currency: 'USD', amount: '57.25000000', lots: '4.50000000' }],
  plan: { id: 1, name: 'IB Gold', currency: 'USD' },
  promoCode: 'ABC123',
  wallets: [{ id: 77, currency: 'USD', balance: '57.25000000' }],
};

describe('PartnerPortalPage', () => {
  it('shows the figures, the link with the code, and the statement with its exports', async () => {
    mockFetch((c) => {
      if (c.path === '/affiliate/partner/summary') return SUMMARY;
      if (c.path === '/affiliate/partner/commissions')
        return {
          data: [
            {
              id: 1,
              kind: 'trade',
              dealId: 501,
              depositId: null,
              client: 'Jane Client',
              instrument: 'EUR_USD',
              lots: '1.00000000',
              level: 2,
              amount: '2.40',
              currency: 'USD',
              accruedAt: '2026-11-25T10:00:00Z',
            },
          ],
          meta: { total: 1, per_page: 50, page: 1 },
        };
      return { status: 404, body: { message: 'Not found.' } };
    });
    renderWithProviders(<PartnerPortalPage />);
    expect(await screen.findByText('57.25 USD')).toBeTruthy();
    expect(screen.getByText('4.50')).toBeTruthy();
    expect(screen.getByText('ABC123')).toBeTruthy();
    expect(screen.getByText(/\/signup\?promo=ABC123$/)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Commission statement' }));
    expect(await screen.findByText('Jane Client')).toBeTruthy();
    expect(screen.getByText('EUR/USD')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'CSV' }).getAttribute('href')).toContain('format=csv');
    expect(screen.getByRole('link', { name: 'XLSX' }).getAttribute('href')).toContain('format=xlsx');
  });

  it('invites a sub-partner from the Sub-partners tab, shows the field error, then the list again', async () => {
    let subs: unknown[] = [];
    const { calls } = mockFetch((c) => {
      if (c.path === '/affiliate/partner/summary') return SUMMARY;
      if (c.path === '/affiliate/partner/subpartners' && c.method === 'GET') return { data: subs };
      if (c.path === '/affiliate/partner/subpartners' && c.method === 'POST') {
        const body = c.body as { fullName: string; email: string };
        if (!body.email.includes('@'))
          return { status: 400, body: { message: 'Invalid email', errors: { email: 'Invalid email' } } };
        subs = [{ userId: 9, name: body.fullName, level: 1, clients: 0, lots: '0', earnedYou: [] }];
        return { message: `Invitation sent to ${body.email}` };
      }
      return { status: 404, body: { message: 'Not found.' } };
    });
    renderWithProviders(<PartnerPortalPage />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Sub-partners' }));
    expect(await screen.findByText('No sub-partners yet')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Sam Sub' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect((await screen.findAllByText('Invalid email')).length).toBeGreaterThan(0);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@sub.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to sam@sub.test')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Sam Sub')).toBeTruthy());
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.at(-1)?.body).toEqual({ fullName: 'Sam Sub', email: 'sam@sub.test' });
  });
});
