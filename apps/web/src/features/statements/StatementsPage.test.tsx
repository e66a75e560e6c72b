import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { StatementDto, StopoutReportDto } from '@platform/domain';
import { renderScreen } from '../../test/render.tsx';
import { callsTo, mockTradingFetch, tradingApi } from '../trading/testing.ts';
import { exportUrl, StatementsPage } from './StatementsPage.tsx';
import { statementUrl } from './StatementExport.tsx';

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

const STOPOUT: StopoutReportDto = {
  id: 5,
  wallet_id: 12,
  currency: 'USD',
  mode: 'real',
  created_at: '2025-03-06T10:20:00Z',
  margin_level: '31.75',
  equity: '45.5',
  balance: '1000',
  protection_credit: '12.5',
  positions: [
    { id: 101, instrument: 'EUR_USD', side: 'buy', amount: '100000', price: '1.0712', pl: '-842.3' },
    { id: 102, instrument: 'XAU_USD', side: 'sell', amount: '2', price: '2671.4', pl: '-120.25' },
  ],
};

function api() {
  return mockTradingFetch(
    tradingApi({
      extra: (_m, path, _b, query) => {
        if (path === '/statements/stopouts')
          return { body: { data: [STOPOUT], meta: { total: 1, per_page: Number(query.get('limit')), page: 1 } } };
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

  it('downloads the account statement of the chosen wallet and period as PDF or XLSX beside the CSV', async () => {
    api();
    renderScreen(<StatementsPage />);
    await waitFor(() => expect(rows()).toBe(15));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-01' } });
    fireEvent.blur(screen.getByLabelText('From'));
    const href = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
    await waitFor(() => expect(href('PDF')).toBe('/api/statements/export?walletId=11&dateStart=2025-03-01&format=pdf'));
    expect(href('XLSX')).toBe('/api/statements/export?walletId=11&dateStart=2025-03-01&format=xlsx');
    expect(href('Export')).toBe('/api/statements/export?walletId=11&dateStart=2025-03-01');
    // A reversed period downloads nothing until it is fixed.
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-02-01' } });
    fireEvent.blur(screen.getByLabelText('To'));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'PDF' })).toBeNull());
    expect(screen.getByRole('button', { name: 'PDF' }).hasAttribute('disabled')).toBe(true);
  });

  it('lists the stop-out reports under Stop-outs with each closed position and the protection credit', async () => {
    const fetchMock = api();
    renderScreen(<StatementsPage />);
    await waitFor(() => expect(rows()).toBe(15));
    expect(callsTo(fetchMock, 'GET', '/statements/stopouts')).toHaveLength(0);
    fireEvent.click(screen.getByRole('tab', { name: 'Stop-outs' }));
    const card = await screen.findByTestId('stopout-5');
    expect(card.textContent).toContain('USD Real wallet #12');
    expect(card.textContent).toContain('31.75 %');
    expect(card.textContent).toContain('$45.50');
    expect(card.textContent).toContain('$12.50');
    expect(card.textContent).toContain('EUR/USD');
    expect(card.textContent).toContain('1.0712');
    expect(card.textContent).toContain('-$842.30');
    expect(card.textContent).toContain('XAU/USD');
    expect(card.textContent).toContain('SELL');
    expect(callsTo(fetchMock, 'GET', '/statements/stopouts').at(-1)?.query.get('page')).toBe('1');
  });

  it('builds the statement links of staff and of every format', () => {
    const range = { dateStart: '2025-01-01', dateEnd: '2025-01-31', walletId: 11 };
    expect(statementUrl(range, 'xlsx', '/api/admin/customers/7/statement')).toBe(
      '/api/admin/customers/7/statement?walletId=11&dateStart=2025-01-01&dateEnd=2025-01-31&format=xlsx',
    );
    expect(statementUrl({ dateStart: '', dateEnd: '' }, 'pdf')).toBe('/api/statements/export?format=pdf');
  });

  it('builds the export link without empty dates', () => {
    expect(exportUrl({ dateStart: '', dateEnd: '' })).toBe('/api/statements/export');
    expect(exportUrl({ dateStart: '2025-01-01', dateEnd: '' })).toBe('/api/statements/export?dateStart=2025-01-01');
    expect(exportUrl({ dateStart: '', dateEnd: '', walletId: 12 })).toBe('/api/statements/export?walletId=12');
  });
});
