import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { MailOutboxPage } from './MailOutboxPage.tsx';

afterEach(cleanup);

const mail = (id: number, sent_at: string | null, error: string | null) => ({
  id,
  to: `user${id}@demo.test`,
  subject: `Subject ${id}`,
  text: `Hello,\nverify here: http://localhost:3000/verify-email?token=abc${id}.\nThanks`,
  created_at: '2024-06-01T09:30:00',
  sent_at,
  error,
});

describe('MailOutboxPage', () => {
  it('shows Sent, Stored and Failed, and the full text with clickable links', async () => {
    mockFetch(() => ({
      data: [mail(3, '2024-06-01T09:31:00', null), mail(2, null, null), mail(1, null, 'connect ECONNREFUSED')],
      meta: { total: 3, per_page: 15, page: 1 },
    }));
    renderWithProviders(<MailOutboxPage />);
    const sent = (await screen.findByText('Subject 3')).closest('tr') as HTMLElement;
    expect(within(sent).getByText('Sent')).toBeTruthy();
    expect(within(sent).getByText('01/06/2024 9:30 AM')).toBeTruthy();
    expect(within(screen.getByText('Subject 2').closest('tr') as HTMLElement).getByText('Stored')).toBeTruthy();
    const failed = screen.getByText('Subject 1').closest('tr') as HTMLElement;
    expect(within(failed).getByText('Failed')).toBeTruthy();

    fireEvent.click(within(failed).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog');
    const link = within(dialog).getByRole('link');
    // The sentence's full stop is not part of the address.
    expect(link.getAttribute('href')).toBe('http://localhost:3000/verify-email?token=abc1');
    expect(within(dialog).getByText('connect ECONNREFUSED')).toBeTruthy();
    expect(within(dialog).getByTestId('mail-text').textContent).toContain('Thanks');
  });
});
