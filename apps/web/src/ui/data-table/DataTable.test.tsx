import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DataTable } from './DataTable.tsx';
import type { DataTableColumn, RowKey } from './cells.ts';
import { mockFetch, renderWithProviders, type FetchCall } from './testing.tsx';

interface Row {
  id: number;
  name: string;
  note: string | null;
  created_at: string | null;
}

const columns: DataTableColumn<Row>[] = [
  { key: 'id', label: 'ID', sortable: true },
  { key: 'name', label: 'NAME', sortable: true },
  { key: 'note', label: 'NOTE' },
  { key: 'created_at', label: 'DATE', type: 'date' },
];

const rows = (n: number, from = 1): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, name: `User ${from + i}`, note: null, created_at: null }));

const listCalls = (calls: FetchCall[]) => calls.filter((c) => c.path === '/things/api');

afterEach(cleanup);

describe('DataTable', () => {
  it('shows "No data found" when the list is empty', async () => {
    mockFetch(() => ({ data: [], meta: { total: 0, per_page: 15, page: 1 } }));
    renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    expect(await screen.findByText('No data found')).toBeTruthy();
  });

  it('requests page, limit and filters, fills empty cells with "-" and formats dates', async () => {
    const { calls } = mockFetch(() => ({
      data: [
        { id: 7, name: 'Ada', note: '', created_at: '2024-03-05T14:07:00' },
        { id: 8, name: 'Bob', note: null, created_at: null },
      ],
      meta: { total: 2, per_page: 15, page: 1 },
    }));
    renderWithProviders(<DataTable url="/things/api" columns={columns} filters={{ status: 'pending', empty: '' }} />);
    await screen.findByText('Ada');
    const first = listCalls(calls)[0];
    expect(first.query.get('page')).toBe('1');
    expect(first.query.get('limit')).toBe('15');
    expect(first.query.get('status')).toBe('pending');
    expect(first.query.has('empty')).toBe(false);
    expect(screen.getByText('05/03/2024 2:07 PM')).toBeTruthy();
    const bobRow = screen.getByText('Bob').closest('tr') as HTMLElement;
    // note and date of Bob are both empty
    expect(within(bobRow).getAllByText('-')).toHaveLength(2);
    expect(screen.getByTestId('table-total').textContent).toContain('2');
  });

  it('shows ceil(total / per_page) pages and falls back to 15 per page without meta', async () => {
    mockFetch(() => ({ data: rows(15), meta: { total: 31, per_page: 15, page: 1 } }));
    renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    await screen.findByText('User 1');
    expect(screen.getByRole('button', { name: '3' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '4' })).toBeNull();
    cleanup();

    mockFetch(() => ({ data: rows(3) }));
    renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    await screen.findByText('User 1');
    expect(screen.getByRole('button', { name: '1' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '2' })).toBeNull();
  });

  it('says "at least" when a very long list stopped counting, and counts further as the pages go', async () => {
    mockFetch((c) =>
      c.query.get('page') === '1'
        ? { data: rows(15), meta: { total: 10_015, per_page: 15, page: 1, total_capped: true } }
        : { data: rows(15, 9991), meta: { total: 20_005, per_page: 15, page: 667, total_capped: true } },
    );
    renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    await screen.findByText('User 1');
    expect(screen.getByTestId('table-total').textContent).toBe('Total: 10,015+');
    fireEvent.click(screen.getByRole('button', { name: '668' }));
    await screen.findByText('User 9991');
    expect(screen.getByTestId('table-total').textContent).toBe('Total: 20,005+');
  });

  it('offers a CSV export of every row matching the search and filters, only where asked', async () => {
    mockFetch(() => ({ data: rows(3), meta: { total: 3, per_page: 15, page: 1 } }));
    const { unmount } = renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    await screen.findByText('User 1');
    expect(screen.queryByRole('link', { name: 'Export CSV' })).toBeNull();
    unmount();
    renderWithProviders(
      <DataTable url="/things/api" columns={columns} filters={{ status: 'pending', empty: '' }} exportable />,
    );
    await screen.findByText('User 1');
    const link = () => new URL(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')!, 'http://x');
    expect(link().pathname).toBe('/api/things/api');
    expect(Object.fromEntries(link().searchParams)).toEqual({ status: 'pending', format: 'csv' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'ada' } });
    await waitFor(() => expect(link().searchParams.get('search')).toBe('ada'), { timeout: 2500 });
  });

  it('debounces the search for 1500 ms and goes back to page 1', async () => {
    const { calls } = mockFetch((c) => {
      const page = Number(c.query.get('page'));
      return { data: rows(15, (page - 1) * 15 + 1), meta: { total: 45, per_page: 15, page } };
    });
    renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    await screen.findByText('User 1');
    fireEvent.click(screen.getByRole('button', { name: '2' }));
    await screen.findByText('User 16');
    expect(listCalls(calls).at(-1)?.query.get('page')).toBe('2');

    const before = listCalls(calls).length;
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'ada' } });
    await new Promise((r) => setTimeout(r, 1000));
    // Still typing as far as the table knows: nothing sent yet.
    expect(listCalls(calls)).toHaveLength(before);
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(before), { timeout: 2000 });
    const searched = listCalls(calls).at(-1);
    expect(searched?.query.get('search')).toBe('ada');
    expect(searched?.query.get('page')).toBe('1');
  });

  it('goes back to page 1 with the new size when rows-per-page changes', async () => {
    const { calls } = mockFetch((c) => {
      const page = Number(c.query.get('page'));
      return { data: rows(15, (page - 1) * 15 + 1), meta: { total: 60, per_page: Number(c.query.get('limit')), page } };
    });
    renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    await screen.findByText('User 1');
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    await screen.findByText('User 31');
    fireEvent.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    fireEvent.click(await screen.findByRole('option', { name: '25', hidden: true }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.get('limit')).toBe('25'));
    expect(listCalls(calls).at(-1)?.query.get('page')).toBe('1');
  });

  it('sorts only the loaded page when a sortable header is clicked', async () => {
    const { calls } = mockFetch(() => ({
      data: [
        { id: 1, name: 'Charlie', note: null, created_at: null },
        { id: 2, name: 'alice', note: null, created_at: null },
        { id: 3, name: 'Bob', note: null, created_at: null },
      ],
      meta: { total: 3, per_page: 15, page: 1 },
    }));
    renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    await screen.findByText('Charlie');
    const count = listCalls(calls).length;
    fireEvent.click(screen.getByRole('button', { name: /NAME/ }));
    const names = () => screen.getAllByText(/^(alice|Bob|Charlie)$/).map((e) => e.textContent);
    expect(names()).toEqual(['alice', 'Bob', 'Charlie']);
    fireEvent.click(screen.getByRole('button', { name: /NAME/ }));
    expect(names()).toEqual(['Charlie', 'Bob', 'alice']);
    expect(listCalls(calls)).toHaveLength(count);
  });

  it('selects rows with checkboxes for bulk actions', async () => {
    mockFetch(() => ({ data: rows(3), meta: { total: 3, per_page: 15, page: 1 } }));
    let latest: RowKey[] = [];
    // biome-ignore lint/correctness/noComponentHookFactories: a test harness that reports the selection to the test
    function Harness() {
      const [selected, setSelected] = useState<RowKey[]>([]);
      latest = selected;
      return <DataTable url="/things/api" columns={columns} selection={{ selected, onChange: setSelected }} />;
    }
    renderWithProviders(<Harness />);
    await screen.findByText('User 1');
    fireEvent.click(screen.getAllByRole('checkbox', { name: 'Select row' })[1]);
    await waitFor(() => expect(latest).toEqual([2]));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await waitFor(() => expect([...latest].sort()).toEqual([1, 2, 3]));
  });
});
