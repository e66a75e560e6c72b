import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { StatementDto } from '@platform/domain';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, mockTradingFetch, tradingApi } from '../trading/testing.ts';
import { exportUrl, StatementsPage } from './StatementsPage.tsx';

function statement(id: number): StatementDto {
  return {
    id,
    created_at: '2025-03-04T09:15:00Z',
    close_time: '2025-03-05T14:30:00Z',
    instrument: 'EUR_USD',
    type: id % 2 ? 'buy' : 'sell',
    trade_amount: '10000',
    open_rate: '1.08',
    close_rate: '1.085',
    spread: '2',
    pro_loss: id % 2 ? '48' : '-52',
    status: 'closed',
    close_reason: id === 1 ? 'stop_out' : 'manual',
  };
}

const ALL = Array.from({ length: 32 }, (_, i) => statement(i + 1));

function api() {
  return mockTradingFetch(
    tradingApi({
      extra: (_m, path, _b, query) => {
        if (path !== '/statements/history') return undefined;
        const page = Number(query.get('page'));
        const limit = Number(query.get('limit'));
        const rows = query.get('dateStart') ? ALL.slice(0, 3) : ALL;
        return {
          body: {
            data: rows.slice((page - 1) * limit, page * limit),
            meta: { total: rows.length, per_page: limit, page },
          },
        };
      },
    }),
  );
}

const rows = () => screen.getAllByRole('row').length - 1;

// Each test renders the page a few times over; a busy machine needs more than the default 5 s.
describe('StatementsPage', { timeout: 20_000 }, () => {
  it('pages closed trades 15 at a time', async () => {
    const fetchMock = api();
    renderScreen(<StatementsPage />);
    await waitFor(() => expect(rows()).toBe(15));
    expect(screen.getByTestId('statements-total').textContent).toBe('Total: 32');
    expect(screen.getAllByText('$48.00000').length).toBeGreaterThan(0);
    expect(screen.getAllByText('-$52.00000').length).toBeGreaterThan(0);
    expect(screen.getByText('Stop out')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() => expect(rows()).toBe(2));
    const last = callsTo(fetchMock, 'GET', '/statements/history').at(-1);
    expect(last?.query.get('page')).toBe('3');
    expect(last?.query.get('limit')).toBe('15');
  });

  it('filters by date range and exports the same range', async () => {
    const fetchMock = api();
    renderScreen(<StatementsPage />);
    await waitFor(() => expect(rows()).toBe(15));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-01' } });
    fireEvent.blur(screen.getByLabelText('From'));
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-03-31' } });
    fireEvent.blur(screen.getByLabelText('To'));
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Export' }).getAttribute('href')).toBe(
        '/api/statements/export?walletId=11&dateStart=2025-03-01&dateEnd=2025-03-31',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(rows()).toBe(3));
    const last = callsTo(fetchMock, 'GET', '/statements/history').at(-1);
    expect(last?.query.get('dateStart')).toBe('2025-03-01');
    expect(last?.query.get('dateEnd')).toBe('2025-03-31');
    expect(last?.query.get('page')).toBe('1');
  });

  it('shows the active wallet first, says which wallet it shows, and lists and exports the one chosen', async () => {
    const fetchMock = api();
    renderScreen(<StatementsPage />);
    await waitFor(() => expect(rows()).toBe(15));
    expect(screen.getByText('Closed trades of your USD Demo wallet #11.')).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', '/statements/history').at(-1)?.query.get('walletId')).toBe('11');
    fireEvent.click(screen.getByTestId('statement-wallet'));
    expect(await screen.findByRole('option', { name: 'USD Demo wallet #11 (active)', hidden: true })).toBeTruthy();
    fireEvent.click(screen.getByRole('option', { name: 'USD Real wallet #12', hidden: true }));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'GET', '/statements/history').at(-1)?.query.get('walletId')).toBe('12'),
    );
    expect(screen.getByText('Closed trades of your USD Real wallet #12.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Export' }).getAttribute('href')).toBe(
      '/api/statements/export?walletId=12',
    );
  });

  it('shows each closed trade as a card with its P/L on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));
    api();
    renderScreen(<StatementsPage />);
    const card = await screen.findByTestId('statement-card-1');
    expect(screen.queryByRole('table')).toBeNull();
    expect(card.textContent).toContain('EUR/USD');
    expect(card.textContent).toContain('BUY');
    expect(card.textContent).toContain('$48.00000');
    expect(card.textContent).toContain('Stop out');
  });

  it('builds the export link without empty dates', () => {
    expect(exportUrl({ dateStart: '', dateEnd: '' })).toBe('/api/statements/export');
    expect(exportUrl({ dateStart: '2025-01-01', dateEnd: '' })).toBe('/api/statements/export?dateStart=2025-01-01');
    expect(exportUrl({ dateStart: '', dateEnd: '', walletId: 12 })).toBe('/api/statements/export?walletId=12');
  });
});
