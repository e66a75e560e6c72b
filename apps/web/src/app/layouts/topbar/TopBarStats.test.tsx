import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../../test/render.tsx';
import { accountFigures, formatMarginLevel, marginLevel, marginLevelState } from './accountFigures.ts';
import { TopBarStats } from './TopBarStats.tsx';

describe('margin level', () => {
  it('is equity ÷ used margin × 100 with 2 decimals', () => {
    expect(marginLevel('1000', '250')).toBe('400.00');
    expect(marginLevel('333.333', '1000')).toBe('33.33');
    expect(formatMarginLevel(marginLevel('1000', '250'))).toBe('400.00%');
  });

  it('shows "-" when no margin is used', () => {
    expect(marginLevel('1000', '0')).toBeNull();
    expect(formatMarginLevel(null)).toBe('-');
  });

  it('derives free margin and equity from balance, margin and P/L', () => {
    const f = accountFigures('5000', '250', '12.5');
    expect(f.freeMargin).toBe('4762.5');
    expect(f.equity).toBe('5012.5');
    expect(f.marginLevel).toBe('2005.00');
  });
});

describe('TopBarStats', () => {
  it('formats every figure of the active wallet', () => {
    renderScreen(<TopBarStats balance="5000" margin="250" currency="USD" />);
    const bar = within(screen.getByTestId('top-bar-stats'));
    expect(bar.getByText('$5,000.00')).toBeTruthy();
    expect(bar.getByText('$0.000')).toBeTruthy(); // P/L with 3 decimals
    expect(bar.getByText('$5,000.000')).toBeTruthy(); // equity with 3 decimals
    expect(bar.getByText('$250.00')).toBeTruthy();
    expect(bar.getByText('$4,750.00')).toBeTruthy();
    expect(bar.getByText('2000.00%')).toBeTruthy();
  });

  it('shows "-" as margin level without used margin', () => {
    renderScreen(<TopBarStats balance="10000" margin="0" currency="EUR" />);
    const bar = within(screen.getByTestId('top-bar-stats'));
    expect(bar.getByText('Margin Level').nextSibling?.textContent).toBe('-');
    expect(bar.getAllByText('€10,000.00')).toHaveLength(2); // balance and free margin
  });
});

describe('margin level colours', () => {
  const terms = { marginCallLevel: 100, stopoutLevel: 50 };
  it('warns at or below the margin-call level and is in danger at or below the stop-out level', () => {
    expect(marginLevelState('100.01', terms)).toBe('ok');
    expect(marginLevelState('100.00', terms)).toBe('warning');
    expect(marginLevelState('50.01', terms)).toBe('warning');
    expect(marginLevelState('50.00', terms)).toBe('danger');
    expect(marginLevelState(null, terms)).toBe('ok');
  });

  it('makes no call on a plan without one, but warns while the server says the call is on', () => {
    expect(marginLevelState('60.00', { marginCallLevel: null, stopoutLevel: 50 })).toBe('ok');
    expect(marginLevelState('120.00', { ...terms, called: true })).toBe('warning');
    expect(marginLevelState('40.00', { ...terms, called: true })).toBe('danger');
  });

  const level = () => within(screen.getByTestId('top-bar-stats')).getByText('Margin Level').parentElement!;

  it('colours the margin level of the top bar', () => {
    // Equity 900 on 1000 used: 90% — under a call at 100%.
    const { unmount } = renderScreen(
      <TopBarStats balance="1000" margin="1000" profitLoss="-100" currency="USD" {...terms} />,
    );
    expect(level().getAttribute('data-state')).toBe('warning');
    expect(level().getAttribute('title')).toContain('Margin call');
    expect(level().lastElementChild?.textContent).toBe('90.00%');
    expect(level().lastElementChild?.getAttribute('style')).toContain('orange');
    unmount();
    renderScreen(<TopBarStats balance="1000" margin="1000" profitLoss="-520" currency="USD" {...terms} />);
    expect(level().getAttribute('data-state')).toBe('danger');
    expect(level().getAttribute('title')).toContain('stop-out level of 50%');
    expect(level().lastElementChild?.getAttribute('style')).toContain('red');
  });

  it('keeps the plain colour above the call level', () => {
    renderScreen(<TopBarStats balance="5000" margin="250" currency="USD" {...terms} />);
    expect(level().getAttribute('data-state')).toBe('ok');
    expect(level().getAttribute('title')).toBeNull();
  });
});
