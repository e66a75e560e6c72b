import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { RecordsPage } from './RecordsPage.tsx';

afterEach(cleanup);

const CHECKPOINTS = [
  { id: 2, day: '2026-11-26', at: '2026-11-26T00:03:01.000Z', audit_seq: 812, wallets: 40, signed: true },
  { id: 1, day: '2026-11-25', at: '2026-11-25T00:03:02.000Z', audit_seq: 790, wallets: 38, signed: false },
];
const FILE = {
  at: '2026-11-26T00:03:01.000Z',
  audit: { seq: 812, hash: 'ab'.repeat(32) },
  ledger: [],
  signature: 'cd',
};

describe('RecordsPage', () => {
  it('verifies the chains on demand and lists the daily checkpoints to download or check', async () => {
    let broken = false;
    const { calls } = mockFetch((c) => {
      if (c.path === '/admin/records/verify')
        return {
          ok: !broken,
          audit: { rows: 812, firstBroken: null },
          ledger: { rows: 5120, firstBroken: broken ? 4711 : null },
        };
      if (c.path === '/admin/records/checkpoints')
        return { data: CHECKPOINTS, meta: { total: 2, per_page: 15, page: 1 } };
      if (c.path === '/admin/records/checkpoints/2') return FILE;
      if (c.path === '/admin/records/checkpoint/verify') return { ok: true, signed: true, changed: [] };
      return { status: 404, body: { message: 'Not found.' } };
    });
    renderWithProviders(<RecordsPage />);

    expect(await screen.findByText('2026-11-25')).toBeTruthy();
    expect(screen.getByText('Not signed')).toBeTruthy();
    const row = screen.getByText('2026-11-26').closest('tr') as HTMLElement;
    expect(within(row).getByText('Download').getAttribute('href')).toBe('/api/admin/records/checkpoints/2');

    fireEvent.click(screen.getByRole('button', { name: 'Verify records' }));
    const ok = await screen.findByTestId('records-verify-result');
    expect(ok.textContent).toContain('The records are intact');
    expect(ok.textContent).toContain('Ledger: 5120 rows, every link holds');

    broken = true;
    fireEvent.click(screen.getByRole('button', { name: 'Verify records' }));
    expect(await screen.findByText('The records were changed')).toBeTruthy();
    expect(screen.getByTestId('records-verify-result').textContent).toContain(
      'Ledger: 5120 rows, first broken at row #4711',
    );

    // A stored checkpoint checked against the chains now: its file is fetched and sent back to the check.
    fireEvent.click(within(row).getByRole('button', { name: 'Check' }));
    expect(await within(row).findByText('Still in place')).toBeTruthy();
    expect(calls.find((c) => c.path === '/admin/records/checkpoint/verify')?.body).toEqual(FILE);
  });
});
