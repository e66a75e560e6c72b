import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MailDto } from '@platform/domain';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { MailOutboxPage } from './MailOutboxPage.tsx';

afterEach(cleanup);

const WITHHELD = '[link hidden: open this mail to see it]';
const mail = (id: number, sent_at: string | null, error: string | null, more: Partial<MailDto> = {}): MailDto => ({
  id,
  to: `user${id}@demo.test`,
  subject: `Subject ${id}`,
  text: `Hello,\nverify here: ${WITHHELD}.\nThanks`,
  created_at: '2024-06-01T09:30:00',
  sent_at,
  error,
  link: 'withheld',
  link_live: true,
  ...more,
});

/** The outbox API: the list, the delivery mode and single reads (`reads` answers by id). */
function mockOutbox(mode: 'smtp' | 'offline', list: MailDto[], reads: Record<number, MailDto> = {}) {
  return mockFetch((call: FetchCall) => {
    if (call.path === '/admin/mail/delivery') return { mode };
    if (call.path === '/admin/mail/api') return { data: list, meta: { total: list.length, per_page: 15, page: 1 } };
    const id = Number(call.path.split('/').pop());
    return reads[id] ?? { status: 404, body: { message: 'Mail not found.' } };
  });
}

const openMail = async (subject: string) => {
  const row = (await screen.findByText(subject)).closest('tr') as HTMLElement;
  fireEvent.click(within(row).getByRole('button', { name: 'View' }));
  return screen.findByRole('dialog');
};

describe('MailOutboxPage', () => {
  it('shows Sent, Stored and Failed, and the opened mail with its clickable link', async () => {
    const live = mail(1, null, 'connect ECONNREFUSED', {
      text: 'Hello,\nverify here: http://localhost:3000/verify-email?token=abc1.\nThanks',
      link: 'shown',
    });
    const { calls } = mockOutbox(
      'offline',
      [mail(3, '2024-06-01T09:31:00', null), mail(2, null, null), mail(1, null, 'connect ECONNREFUSED')],
      { 1: live },
    );
    renderWithProviders(<MailOutboxPage />);
    const sent = (await screen.findByText('Subject 3')).closest('tr') as HTMLElement;
    expect(within(sent).getByText('Sent')).toBeTruthy();
    expect(within(sent).getByText('01/06/2024 9:30 AM')).toBeTruthy();
    expect(within(screen.getByText('Subject 2').closest('tr') as HTMLElement).getByText('Stored')).toBeTruthy();
    expect(within(screen.getByText('Subject 1').closest('tr') as HTMLElement).getByText('Failed')).toBeTruthy();

    const dialog = await openMail('Subject 1');
    // The link comes from the single read (audited on the server), not from the list.
    const link = await within(dialog).findByRole('link');
    // The sentence's full stop is not part of the address.
    expect(link.getAttribute('href')).toBe('http://localhost:3000/verify-email?token=abc1');
    expect(within(dialog).getByText('connect ECONNREFUSED')).toBeTruthy();
    expect(within(dialog).getByTestId('mail-text').textContent).toContain('Thanks');
    expect(within(dialog).getByTestId('mail-link-note').textContent).toMatch(/recorded in the audit log/);
    expect(calls.filter((c) => c.path === '/admin/mail/1')).toHaveLength(1);
  });

  it('says plainly that offline mail is for evaluation and that link reads are audited', async () => {
    mockOutbox('offline', [mail(1, null, null)]);
    renderWithProviders(<MailOutboxPage />);
    const notice = await screen.findByTestId('mail-offline-notice');
    expect(notice.textContent).toMatch(/for evaluation only/);
    expect(notice.textContent).toMatch(/mail is not sent/);
    expect(notice.textContent).toMatch(/links are shown here only for evaluation/);
    expect(notice.textContent).toMatch(/every opening of a mail with a live link is recorded in the audit log/);
  });

  it('has no evaluation notice when mail is delivered, and says the link went by email only', async () => {
    const emailed = mail(4, '2024-06-01T09:31:00', null, {
      text: 'Reset: [link removed: sent by email only]',
      link: 'emailed',
    });
    mockOutbox('smtp', [emailed], { 4: emailed });
    renderWithProviders(<MailOutboxPage />);
    const dialog = await openMail('Subject 4');
    expect((await within(dialog).findByTestId('mail-link-note')).textContent).toMatch(/sent by email only/);
    expect(within(dialog).queryByRole('link')).toBeNull();
    expect(screen.queryByTestId('mail-offline-notice')).toBeNull();
  });

  it('says when a kept link has been used or has expired', async () => {
    const used = mail(5, null, null, { text: 'Reset: [link no longer valid: used or expired]', link_live: false });
    mockOutbox('offline', [used], { 5: used });
    renderWithProviders(<MailOutboxPage />);
    const dialog = await openMail('Subject 5');
    expect((await within(dialog).findByTestId('mail-link-note')).textContent).toMatch(/used or has expired/);
    expect(within(dialog).queryByRole('link')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('mail-offline-notice')).toBeTruthy());
  });
});
