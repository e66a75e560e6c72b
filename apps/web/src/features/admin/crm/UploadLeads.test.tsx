import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LeadCsvReport } from '@platform/domain';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { UploadLeadsButton } from './UploadLeads.tsx';

const REPORT: LeadCsvReport = {
  message: 'Leads added successfully', total: 4, accepted: 2, rejectedCount: 1, duplicateCount: 1,
  rejected: [{ row: 3, reasons: ['email: Invalid email'] }],
  duplicates: [{ row: 5, field: 'phone', matches: 'customer' }],
  ignoredColumns: ['Colour'],
};

describe('Upload Leads', () => {
  it('asks for a file, posts it as multipart and shows the report with each left-out row and why', async () => {
    const calls: FetchCall[] = [];
    mockFetch((c) => {
      calls.push(c);
      return REPORT;
    });
    const imported = vi.fn();
    renderWithProviders(<UploadLeadsButton onImported={imported} />);
    fireEvent.click(screen.getByRole('button', { name: 'Upload CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload Leads' });
    expect(within(dialog).getByRole('link', { name: 'Download an example CSV' }).getAttribute('href')).toBe('/api/admin/leads/csv/example');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Choose a CSV file to upload.')).toBeTruthy();
    expect(calls).toHaveLength(0);

    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['firstName,email\nA,a@example.com\n'], 'leads.csv', { type: 'text/csv' })] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));

    const report = await within(dialog).findByTestId('csv-report');
    expect(within(report).getByText('2 / 4 leads imported')).toBeTruthy();
    expect(within(report).getByText('email: Invalid email')).toBeTruthy();
    expect(within(report).getByText('phone matches an existing customer')).toBeTruthy();
    expect(within(report).getByText(/Colour/)).toBeTruthy();
    expect(await screen.findByText('Leads added successfully')).toBeTruthy();
    await waitFor(() => expect(imported).toHaveBeenCalledOnce());
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/admin/leads/csv' });
    expect((calls[0].body as FormData).get('file')).toBeInstanceOf(File);
  });
});
