import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { DataTable } from './DataTable.tsx';
import type { DataTableColumn } from './cells.ts';
import { mockFetch, renderWithProviders } from './testing.tsx';

interface Row {
  id: number;
  level: number;
}

afterEach(cleanup);

describe('DataTable refreshing itself', () => {
  it('reloads the page on screen and draws again only the rows whose data changed, without the loading veil', async () => {
    let answer = 0;
    const { calls } = mockFetch(() => {
      answer += 1;
      // The second wallet's level moves on every answer; the first one's stays.
      return {
        data: [
          { id: 1, level: 150 },
          { id: 2, level: 80 - answer },
        ],
        meta: { total: 2, per_page: 15, page: 1 },
      };
    });
    const drawn = vi.fn((r: Row) => `${r.level}%`);
    const columns: DataTableColumn<Row>[] = [
      { key: 'id', label: 'ID' },
      { key: 'level', label: 'LEVEL', render: drawn },
    ];
    renderWithProviders(<DataTable url="/risk/api" columns={columns} searchable={false} refreshMs={300} />);
    await screen.findByText('79%');
    const firstDraws = () => drawn.mock.calls.filter(([r]) => r.id === 1).length;
    const before = firstDraws();
    await waitFor(() => expect(screen.getByText('77%')).toBeTruthy(), { timeout: 3000 });
    expect(calls.filter((c) => c.path === '/risk/api').length).toBeGreaterThanOrEqual(3);
    // The unchanged row was not drawn again; the table never showed the veil of a page change.
    expect(firstDraws()).toBe(before);
    expect(document.querySelector('.mantine-LoadingOverlay-root')).toBeNull();
    expect(screen.getByText('150%')).toBeTruthy();
  });
});
