import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LeadCsvReport, LeadCsvUploadResponse, LeadImportResponse } from '@platform/domain';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { UploadLeadsButton } from './UploadLeads.tsx';
import { LEAD_IMPORT_POLL_MS } from './useLeadImport.ts';

const REPORT: LeadCsvReport = {
  message: 'Leads added successfully',
  total: 4,
  accepted: 2,
  rejectedCount: 1,
  duplicateCount: 1,
  rejected: [{ row: 3, reasons: ['email: Invalid email'] }],
  duplicates: [{ row: 5, field: 'phone', matches: 'customer' }],
  ignoredColumns: ['Colour'],
};
const QUEUED: LeadCsvUploadResponse = {
  message: 'The file is being imported',
  id: 7,
  status: 'queued',
  fileName: 'leads.csv',
  rowCount: 4,
};
const statusOf = (
  status: LeadImportResponse['status'],
  more: Partial<LeadImportResponse> = {},
): LeadImportResponse => ({
  id: 7,
  status,
  fileName: 'leads.csv',
  rowCount: 4,
  report: null,
  error: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  finishedAt: null,
  ...more,
});

/** A server whose import runs for `runningPolls` status reads and then ends as `end`. */
function importServer(end: LeadImportResponse, runningPolls = 1) {
  const calls: FetchCall[] = [];
  let polls = 0;
  mockFetch((c) => {
    calls.push(c);
    if (c.method === 'POST') return { status: 202, body: QUEUED };
    polls++;
    return polls <= runningPolls ? statusOf('running') : end;
  });
  return { calls, polls: () => calls.filter((c) => c.method === 'GET' && c.path === '/admin/leads/csv/7').length };
}

async function openAndSubmit() {
  fireEvent.click(screen.getByRole('button', { name: 'Upload CSV' }));
  const dialog = await screen.findByRole('dialog', { name: 'Upload Leads' });
  const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, {
    target: { files: [new File(['firstName,email\nA,a@example.com\n'], 'leads.csv', { type: 'text/csv' })] },
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
  return dialog;
}
const settle = () => new Promise((r) => setTimeout(r, LEAD_IMPORT_POLL_MS * 1.5));

describe('Upload Leads', () => {
  it('asks for a file, posts it, shows the import under way, polls it and shows the report with each left-out row and why', async () => {
    const server = importServer(statusOf('done', { report: REPORT, finishedAt: '2026-11-25T10:00:02.000Z' }));
    const imported = vi.fn();
    renderWithProviders(<UploadLeadsButton onImported={imported} />);
    fireEvent.click(screen.getByRole('button', { name: 'Upload CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload Leads' });
    expect(within(dialog).getByRole('link', { name: 'Download an example CSV' }).getAttribute('href')).toBe(
      '/api/admin/leads/csv/example',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Choose a CSV file to upload.')).toBeTruthy();
    expect(server.calls).toHaveLength(0);

    await openAndSubmit();
    const importing = await within(dialog).findByTestId('csv-importing');
    expect(within(importing).getByText('The file is being imported')).toBeTruthy();
    expect(within(importing).getByText(/leads\.csv: 4 rows/)).toBeTruthy();
    expect(within(importing).getByText(/the import continues/)).toBeTruthy();
    expect(imported).not.toHaveBeenCalled();

    const report = await within(dialog).findByTestId('csv-report', {}, { timeout: 5_000 });
    expect(within(report).getByText('2 / 4 leads imported')).toBeTruthy();
    expect(within(report).getByText('email: Invalid email')).toBeTruthy();
    expect(within(report).getByText('phone matches an existing customer')).toBeTruthy();
    expect(within(report).getByText(/Colour/)).toBeTruthy();
    expect(within(dialog).queryByTestId('csv-importing')).toBeNull();
    expect(await screen.findByText('Leads added successfully')).toBeTruthy();
    await waitFor(() => expect(imported).toHaveBeenCalledOnce());
    expect(server.calls[0]).toMatchObject({ method: 'POST', path: '/admin/leads/csv' });
    expect((server.calls[0].body as FormData).get('file')).toBeInstanceOf(File);
    // Polling stops once the import is done.
    const polls = server.polls();
    expect(polls).toBe(2);
    await settle();
    expect(server.polls()).toBe(polls);
    expect(imported).toHaveBeenCalledOnce();
  });

  it('keeps following an import after the modal is closed, then toasts and refreshes the lists', async () => {
    const server = importServer(statusOf('done', { report: REPORT }), 2);
    const imported = vi.fn();
    renderWithProviders(<UploadLeadsButton onImported={imported} />);
    const dialog = await openAndSubmit();
    await within(dialog).findByTestId('csv-importing');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upload Leads' })).toBeNull());
    expect(await screen.findByText('Leads added successfully', {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(imported).toHaveBeenCalledOnce());
    expect(server.polls()).toBe(3);
    // Opened again, the modal starts afresh.
    fireEvent.click(screen.getByRole('button', { name: 'Upload CSV' }));
    const again = await screen.findByRole('dialog', { name: 'Upload Leads' });
    expect(within(again).queryByTestId('csv-report')).toBeNull();
    expect(within(again).queryByTestId('csv-importing')).toBeNull();
  });

  it('shows the server’s reason when the import fails, and when the upload is refused', async () => {
    importServer(statusOf('failed', { error: 'Sales status not found.' }), 0);
    const imported = vi.fn();
    renderWithProviders(<UploadLeadsButton onImported={imported} />);
    const dialog = await openAndSubmit();
    expect(
      await screen.findByText('Sales status not found.', { selector: '.mantine-Notification-description' }),
    ).toBeTruthy();
    expect(within(dialog).getByText('The import failed')).toBeTruthy();
    expect(imported).not.toHaveBeenCalled();

    mockFetch(() => ({ status: 400, body: { message: 'The file is empty.' } }));
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([''], 'empty.csv', { type: 'text/csv' })] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The file is empty.')).toBeTruthy();
  });
});
