import type { Category, MarketStatus } from '@platform/domain';
import { marketOfCategory } from '@platform/domain';

export type MarketHoursMode = 'exchange' | 'open' | 'closed';

/** Real trading hours (UTC approximation refined in the market module). */
export function marketStatusAt(now: Date): MarketStatus {
  const day = now.getUTCDay();
  const minutes = now.getUTCHours() * 60 + now.getUTCMinutes();
  const fxOpen = !(day === 6 || (day === 5 && minutes >= 22 * 60) || (day === 0 && minutes < 22 * 60));
  const stockOpen = day >= 1 && day <= 5 && minutes >= 14 * 60 + 30 && minutes < 21 * 60;
  return { fx: fxOpen ? 'open' : 'closed', stock: stockOpen ? 'open' : 'closed', crypto: 'open' };
}

export class MarketClock {
  constructor(
    private readonly mode: MarketHoursMode,
    private readonly now: () => Date = () => new Date(),
  ) {}

  status(): MarketStatus {
    if (this.mode === 'open') return { fx: 'open', stock: 'open', crypto: 'open' };
    if (this.mode === 'closed') return { fx: 'closed', stock: 'closed', crypto: 'closed' };
    return marketStatusAt(this.now());
  }

  isOpen(category: Category): boolean {
    return this.status()[marketOfCategory(category)] === 'open';
  }
}
