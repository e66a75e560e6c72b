import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { AuditLogPage, changedKeys } from './AuditLogPage.tsx';
import { ServerInfoPage } from './ServerInfoPage.tsx';

afterEach(cleanup);

const info = (cpuUsage: number) => ({
  cpuModel: 'Test CPU @ 3.0GHz',
  cpuUsage,
  cpuCores: 2,
  usedMemPercentage: 41.5,
  totalMemMb: 24000,
  processMemMb: 180,
  uptimeSeconds: 3720,
  osUptimeSeconds: 90000,
  loadAverage: [0.5, 0.4, 0.3],
  nodeVersion: 'v20.20.2',
  database: { kind: 'pglite', sizeMb: 52.3 },
  eventLoop: { p50Ms: 10.1, p99Ms: 12.4 },
  websocketClients: 3,
  instances: { clustered: false, leader: true },
});

const entry = {
  id: 7,
  created_at: '2026-11-20T10:00:00.000Z',
  action: 'customer.update',
  actor: { id: 1, email: 'admin@demo.test', full_name: 'Ada' },
  target: { id: 9, email: 'cara@demo.test', full_name: 'Cara' },
  subject_type: null,
  subject_id: null,
  before: { city: 'London', phone: '1' },
  after: { city: 'Paris', phone: '1' },
  ip: '10.0.0.1',
};

describe('ServerInfoPage', () => {
  it('shows the spec figures and the operator extras, read again while open', async () => {
    let n = 0;
    const { calls } = mockFetch(() => info(++n === 1 ? 12.5 : 30));
    renderWithProviders(<ServerInfoPage />);
    expect(await screen.findByText('Test CPU @ 3.0GHz')).toBeTruthy();
    expect(screen.getByText('12.5/100%')).toBeTruthy();
    expect(screen.getByText('41.5/100%')).toBeTruthy();
    expect(screen.getByText('24000 MB')).toBeTruthy();
    expect(screen.getByText('Embedded PostgreSQL, 52.3 MB')).toBeTruthy();
    expect(screen.getByText('10.1 / 12.4 ms')).toBeTruthy();
    expect(screen.getByText('Single instance')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('30/100%')).toBeTruthy(), { timeout: 5000 });
    expect(calls.every((c) => c.path === '/admin/status/server')).toBe(true);
  });
});

describe('AuditLogPage', () => {
  it('lists entries with the changed fields and sends the filters to the server', async () => {
    const { calls } = mockFetch((c: FetchCall) =>
      c.path === '/admin/audit/actions'
        ? { data: ['customer.update', 'order.void'] }
        : { data: [entry], meta: { total: 1, per_page: 15, page: 1 } },
    );
    renderWithProviders(<AuditLogPage />);
    expect(await screen.findByText('admin@demo.test')).toBeTruthy();
    expect(screen.getByText('cara@demo.test')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'city' })).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Subject' }), { target: { value: 'order:42' } });
    await waitFor(
      () =>
        expect(
          calls
            .filter((c) => c.path === '/admin/audit/api')
            .at(-1)
            ?.query.get('subject'),
        ).toBe('order:42'),
      { timeout: 3000 },
    );
    const link = screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')!;
    expect(link).toContain('subject=order%3A42');
    expect(link).toContain('format=csv');
  });

  it('names only the keys that changed', () => {
    expect(changedKeys({ a: 1, b: 2 }, { a: 1, b: 3, c: 4 })).toEqual(['b', 'c']);
    expect(changedKeys(null, { a: 1 })).toEqual(['a']);
  });
});
