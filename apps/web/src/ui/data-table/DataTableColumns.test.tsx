import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { DataTable } from './DataTable.tsx';
import type { DataTableColumn } from './cells.ts';
import { mockFetch, renderWithProviders } from './testing.tsx';

interface Row {
  id: number;
  email: string;
  note: string;
  status: string;
}

const columns: DataTableColumn<Row>[] = [
  { key: 'id', label: 'ID' },
  { key: 'email', label: 'EMAIL' },
  { key: 'note', label: 'NOTE', hidden: true },
  { key: 'status', label: 'STATUS' },
  { key: 'actions', label: 'ACTIONS', render: () => 'edit' },
];

const LONG = 'a.very.long.address.that.does.not.fit@example.com';
const serve = () =>
  mockFetch(() => ({
    data: [{ id: 1, email: LONG, note: 'secondary', status: 'pending' }],
    meta: { total: 1, per_page: 15, page: 1 },
  }));
const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);

afterEach(cleanup);

describe('DataTable columns', () => {
  it('hides secondary columns by default; the chooser shows them and remembers the choice per table', async () => {
    serve();
    const first = renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    await screen.findByText(LONG);
    expect(headers()).toEqual(['ID', 'EMAIL', 'STATUS', 'ACTIONS']);
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const group = await screen.findByRole('group', { name: 'Columns', hidden: true });
    // The actions column is not offered: it is always shown.
    expect(within(group).queryByRole('checkbox', { name: 'ACTIONS', hidden: true })).toBeNull();
    fireEvent.click(within(group).getByRole('checkbox', { name: 'NOTE', hidden: true }));
    fireEvent.click(within(group).getByRole('checkbox', { name: 'EMAIL', hidden: true }));
    expect(headers()).toEqual(['ID', 'NOTE', 'STATUS', 'ACTIONS']);
    expect(screen.getByText('secondary')).toBeTruthy();
    first.unmount();

    // The same table opened again keeps the choice; another table has its own.
    serve();
    renderWithProviders(<DataTable url="/things/api" columns={columns} />, { keepColumnChoices: true });
    await screen.findByText('secondary');
    expect(headers()).toEqual(['ID', 'NOTE', 'STATUS', 'ACTIONS']);
    cleanup();
    serve();
    renderWithProviders(<DataTable url="/other/api" columns={columns} />, { keepColumnChoices: true });
    await screen.findByText(LONG);
    expect(headers()).toEqual(['ID', 'EMAIL', 'STATUS', 'ACTIONS']);
  });

  it('cuts a long cell with an ellipsis and shows the whole text on hover; status and actions are never cut', async () => {
    serve();
    renderWithProviders(<DataTable url="/things/api" columns={columns} />);
    const text = await screen.findByText(LONG);
    const cell = text.closest('[data-truncate]') as HTMLElement;
    expect(cell.style.textOverflow).toBe('ellipsis');
    expect(cell.style.whiteSpace).toBe('nowrap');
    expect(cell.style.maxWidth).toBe('180px');
    // The browser lays the text out wider than the cell.
    Object.defineProperty(cell, 'scrollWidth', { configurable: true, value: 400 });
    Object.defineProperty(cell, 'clientWidth', { configurable: true, value: 180 });
    fireEvent.mouseEnter(cell);
    expect(cell.title).toBe(LONG);
    expect(screen.getByText('pending').closest('[data-truncate]')).toBeNull();
    expect(screen.getByText('edit').closest('[data-truncate]')).toBeNull();
  });
});
