import { lazy } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IndicatorConfig } from '@platform/domain';
import { mockApi, renderScreen } from '../../../test/render.tsx';
import { type ChartLoaders, ChartTools } from '../ChartTools.tsx';

/** The server's chart settings: answers GET with the list and records each PUT. */
function serverWith(initial: IndicatorConfig[], refuse = false) {
  let saved = initial;
  const puts: IndicatorConfig[][] = [];
  const fetchMock = mockApi((method, path, body) => {
    if (path !== '/dashboard/chart/settings') return undefined;
    if (method === 'GET') return { body: { indicators: saved } };
    if (refuse) return { status: 400, body: { message: 'At most 10 indicators on a chart' } };
    saved = (body as { indicators: IndicatorConfig[] }).indicators;
    puts.push(saved);
    return { body: { indicators: saved } };
  });
  return { puts, fetchMock };
}

const loaders: ChartLoaders = {
  dialog: lazy(() => import('./IndicatorDialog.tsx')),
  toolbar: lazy(() => import('../drawings/DrawingToolbar.tsx')),
  studies: () => import('../studies.ts'),
};

/** The chart's buttons as the dashboard shows them; the menu itself loads when Indicators is first pressed. */
async function openMenu() {
  renderScreen(<ChartTools symbol="EUR_USD" tool={null} onTool={() => {}} loaders={loaders} />);
  fireEvent.click(screen.getByRole('button', { name: 'Indicators' }));
  return screen.findByRole('dialog', { name: 'Indicators' });
}

describe('indicator menu', () => {
  it('adds indicators with their usual settings and saves them for the user', async () => {
    const { puts } = serverWith([]);
    const dialog = await openMenu();
    await within(dialog).findByText('No indicators on the chart yet. Add one below.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Relative strength index (RSI)' }));
    await waitFor(() => expect(puts.at(-1)).toEqual([{ type: 'rsi', period: 14 }]));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Exponential moving average (EMA)' }));
    await waitFor(() =>
      expect(puts.at(-1)).toEqual([
        { type: 'rsi', period: 14 },
        { type: 'ema', period: 20 },
      ]),
    );
    const ema = within(dialog).getByRole('group', { name: 'Exponential moving average (EMA)' });
    expect(within(ema).getByLabelText('Period')).toHaveProperty('value', '20');
  });

  it('edits a parameter, refuses one out of bounds with the reason, and removes an indicator', async () => {
    const { puts } = serverWith([
      { type: 'macd', fast: 12, slow: 26, signal: 9 },
      { type: 'bb', period: 20, stdDev: 2 },
    ]);
    const dialog = await openMenu();
    const macd = await within(dialog).findByRole('group', { name: 'MACD' });

    fireEvent.change(within(macd).getByLabelText('Fast period'), { target: { value: '30' } });
    expect(await within(macd).findByText('The fast period must be shorter than the slow one')).toBeTruthy();
    fireEvent.change(within(macd).getByLabelText('Fast period'), { target: { value: '8' } });
    await waitFor(() =>
      expect(within(macd).queryByText('The fast period must be shorter than the slow one')).toBeNull(),
    );
    await waitFor(() => expect(puts.at(-1)?.[0]).toEqual({ type: 'macd', fast: 8, slow: 26, signal: 9 }));
    // The refused value never reached the server.
    expect(puts.some((list) => list[0]?.type === 'macd' && list[0].fast === 30)).toBe(false);

    const bands = within(dialog).getByRole('group', { name: 'Bollinger Bands' });
    fireEvent.change(within(bands).getByLabelText('Deviations'), { target: { value: '2.5' } });
    await waitFor(() => expect(puts.at(-1)?.[1]).toEqual({ type: 'bb', period: 20, stdDev: 2.5 }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove MACD' }));
    await waitFor(() => expect(puts.at(-1)).toEqual([{ type: 'bb', period: 20, stdDev: 2.5 }]));
    expect(within(dialog).queryByRole('group', { name: 'MACD' })).toBeNull();
    expect(
      within(within(dialog).getByRole('group', { name: 'Bollinger Bands' })).getByLabelText('Deviations'),
    ).toHaveProperty('value', '2.5');
  });

  it('offers no more indicators once the chart holds ten', async () => {
    serverWith(Array.from({ length: 10 }, (_, i) => ({ type: 'sma', period: i + 1 }) as IndicatorConfig));
    const dialog = await openMenu();
    await within(dialog).findByText('A chart holds 10 indicators at most.');
    for (const name of ['Simple moving average (SMA)', 'Average true range (ATR)'])
      expect(within(dialog).getByRole('button', { name })).toHaveProperty('disabled', true);
  });

  it("shows the server's refusal and goes back to the saved list", async () => {
    serverWith([{ type: 'atr', period: 14 }], true);
    const dialog = await openMenu();
    await within(dialog).findByRole('group', { name: 'Average true range (ATR)' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stochastic oscillator' }));
    expect(await screen.findByText('At most 10 indicators on a chart')).toBeTruthy();
    await waitFor(() => expect(within(dialog).queryByRole('group', { name: 'Stochastic oscillator' })).toBeNull());
  });
});
