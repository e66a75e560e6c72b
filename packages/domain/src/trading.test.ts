import { describe, expect, it } from 'vitest';
import {
  marginLevel,
  newOrderBounds,
  openOrderBounds,
  pipValue,
  profitLoss,
  requiredMargin,
  resolveLeverage,
  resolveStopout,
  spreadCost,
  triggeredExit,
  withinBounds,
} from './trading.ts';

const fixed = (d: { toFixed(n: number): string }, n = 2) => d.toFixed(n);

// Golden trades: every figure worked out by hand.
describe('EUR/USD buy on a USD wallet', () => {
  const q = { bid: '1.08490', ask: '1.08500' };
  const amount = '10000';
  it('margin 1.085 × 10000 / 100 / 1 = 108.50', () => {
    expect(fixed(requiredMargin({ price: q.ask, amount, leverage: 100, conversionRate: 1 }))).toBe('108.50');
  });
  it('pip value 0.0001 × 10000 / 1 = 1.00; spread cost 0.0001 × 1 × 10000 = 1.00', () => {
    expect(fixed(pipValue({ quote: 'USD', amount, conversionRate: 1 }))).toBe('1.00');
    expect(fixed(spreadCost({ ask: q.ask, bid: q.bid, spreadSetting: 1, amount }))).toBe('1.00');
  });
  it('closing at bid 1.08700: (10000 × 0.002 − 1) / 1 = 19.00', () => {
    expect(
      fixed(profitLoss({ side: 'buy', openRate: q.ask, closeRate: '1.08700', amount, spread: '1', conversionRate: 1 })),
    ).toBe('19.00');
  });
});

describe('USD/JPY sell on a USD wallet (conversion rate 150 JPY per USD)', () => {
  const amount = '10000';
  it('margin 150 × 10000 / 100 / 150 = 100.00; pip value 0.01 × 10000 / 150 = 0.67', () => {
    expect(fixed(requiredMargin({ price: '150.000', amount, leverage: 100, conversionRate: '150' }))).toBe('100.00');
    expect(fixed(pipValue({ quote: 'JPY', amount, conversionRate: '150' }))).toBe('0.67');
  });
  it('opened at bid 150.000 with a 0.020 spread, closed at ask 149.500: (5000 − 200) / 150 = 32.00', () => {
    const spread = spreadCost({ ask: '150.020', bid: '150.000', spreadSetting: 1, amount });
    expect(fixed(spread)).toBe('200.00');
    expect(
      fixed(
        profitLoss({ side: 'sell', openRate: '150.000', closeRate: '149.500', amount, spread, conversionRate: '150' }),
      ),
    ).toBe('32.00');
  });
});

describe('gold buy losing: XAU/USD 2350.00 → 2340.50, 10 oz, spread 0.50 × 2', () => {
  it('margin 2350 × 10 / 50 = 470.00; P/L (10 × −9.5 − 10) / 1 = −105.00', () => {
    expect(fixed(requiredMargin({ price: '2350.00', amount: 10, leverage: 50, conversionRate: 1 }))).toBe('470.00');
    const spread = spreadCost({ ask: '2350.00', bid: '2349.50', spreadSetting: 2, amount: 10 });
    expect(
      fixed(
        profitLoss({ side: 'buy', openRate: '2350.00', closeRate: '2340.50', amount: 10, spread, conversionRate: 1 }),
      ),
    ).toBe('-105.00');
  });
});

describe('index buy in EUR on a USD wallet: DE30/EUR, 10 contracts, 0.90 EUR per USD', () => {
  it('margin 19305 × 10 / 50 / 0.9 = 4290.00; spread (19305 − 19304) × 1 × 10 = 10 EUR', () => {
    expect(fixed(requiredMargin({ price: '19305', amount: '10', leverage: 50, conversionRate: '0.9' }))).toBe(
      '4290.00',
    );
    expect(fixed(spreadCost({ ask: '19305', bid: '19304', spreadSetting: 1, amount: '10' }))).toBe('10.00');
  });
  it('closing at bid 19400: ((19400 − 19305) × 10 − 10) / 0.9 = 1044.44 USD', () => {
    const pl = profitLoss({
      side: 'buy',
      openRate: '19305',
      closeRate: '19400',
      amount: '10',
      spread: '10',
      conversionRate: '0.9',
    });
    expect(fixed(pl, 8)).toBe('1044.44444444');
  });
});

describe('BTC/USD sell: 0.5 BTC at bid 91000 (ask 91012), leverage 5', () => {
  it('margin 91000 × 0.5 / 5 = 9100.00; spread 12 × 1 × 0.5 = 6.00; pip value 0.0001 × 0.5 = 0.00005', () => {
    expect(fixed(requiredMargin({ price: '91000', amount: '0.5', leverage: 5, conversionRate: 1 }))).toBe('9100.00');
    expect(fixed(spreadCost({ ask: '91012', bid: '91000', spreadSetting: 1, amount: '0.5' }))).toBe('6.00');
    expect(fixed(pipValue({ quote: 'USD', amount: '0.5', conversionRate: 1 }), 5)).toBe('0.00005');
  });
  it('closing at ask 90000: (0.5 × 1000 − 6) / 1 = 494.00; at ask 92000: (0.5 × −1000 − 6) = −506.00', () => {
    expect(
      fixed(
        profitLoss({
          side: 'sell',
          openRate: '91000',
          closeRate: '90000',
          amount: '0.5',
          spread: '6',
          conversionRate: 1,
        }),
      ),
    ).toBe('494.00');
    expect(
      fixed(
        profitLoss({
          side: 'sell',
          openRate: '91000',
          closeRate: '92000',
          amount: '0.5',
          spread: '6',
          conversionRate: 1,
        }),
      ),
    ).toBe('-506.00');
  });
});

describe('plan and instrument settings', () => {
  it('takes the plan leverage, else the instrument leverage; the plan stop-out, else 50', () => {
    expect(resolveLeverage(200, 100)).toBe(200);
    expect(resolveLeverage(null, 100)).toBe(100);
    expect(resolveStopout(null)).toBe(50);
    expect(resolveStopout(30)).toBe(30);
  });
  it('margin level is equity ÷ used margin in percent, none without margin', () => {
    expect(marginLevel('500', '250')?.toFixed(2)).toBe('200.00');
    expect(marginLevel('500', '0')).toBeNull();
  });
});

describe('take-profit and stop-loss rules', () => {
  it('bounds new orders around the current price (spec §5)', () => {
    const buy = newOrderBounds('buy', { bid: '1.1', ask: '1.2' });
    expect(withinBounds('1.25', buy.takeProfit)).toBe(true);
    expect(withinBounds('1.15', buy.takeProfit)).toBe(false);
    expect(withinBounds('1.15', buy.stopLoss)).toBe(true);
    expect(withinBounds('1.21', buy.stopLoss)).toBe(false);
    const sell = newOrderBounds('sell', { bid: '1.1', ask: '1.2' });
    expect(withinBounds('1.05', sell.takeProfit)).toBe(true);
    expect(withinBounds('1.11', sell.takeProfit)).toBe(false);
    expect(withinBounds('1.11', sell.stopLoss)).toBe(true);
    expect(withinBounds('-1', sell.takeProfit)).toBe(false);
  });
  it('bounds changes on open orders around the open rate', () => {
    const buy = openOrderBounds('buy', '1.2');
    expect(withinBounds('1.2', buy.stopLoss)).toBe(true);
    expect(withinBounds('1.3', buy.stopLoss)).toBe(false);
    const sell = openOrderBounds('sell', '1.2');
    expect(withinBounds('1.3', sell.stopLoss)).toBe(true);
    expect(withinBounds('1.3', sell.takeProfit)).toBe(false);
  });
  it('closes a buy at the bid and a sell at the ask when a level is reached', () => {
    const levels = { takeProfit: '1.2100', stopLoss: '1.1900' };
    expect(triggeredExit('buy', { bid: '1.1900', ask: '1.1902' }, levels)).toBe('stop_loss');
    expect(triggeredExit('buy', { bid: '1.2100', ask: '1.2102' }, levels)).toBe('take_profit');
    expect(triggeredExit('buy', { bid: '1.2000', ask: '1.2002' }, levels)).toBeNull();
    const sellLevels = { takeProfit: '1.1900', stopLoss: '1.2100' };
    expect(triggeredExit('sell', { bid: '1.2098', ask: '1.2100' }, sellLevels)).toBe('stop_loss');
    expect(triggeredExit('sell', { bid: '1.1898', ask: '1.1900' }, sellLevels)).toBe('take_profit');
    // Spec §4(c) as written would close a winning sell whose ask falls below its stop-loss; the §5 bounds show the intent.
    expect(
      triggeredExit('sell', { bid: '1.1998', ask: '1.2000' }, { takeProfit: null, stopLoss: '1.2100' }),
    ).toBeNull();
  });
});
