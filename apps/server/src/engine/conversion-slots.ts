import type { RiskEngine } from './risk-engine.ts';

type Rate = (quote: string, walletCurrency: string) => number | null;

/**
 * The risk engine's conversion slots: one per pair of an instrument's quote currency and a wallet currency that an
 * open position needs (slot 0 is the identity), created on first use and refreshed from the market on every tick.
 */
export class ConversionSlots {
  private readonly slots = new Map<string, number>();
  /** The same slots as a list walked on every tick (no key parsing there). */
  private readonly pairs: Array<{ quote: string; wallet: string; slot: number }> = [];

  constructor(
    private readonly engine: RiskEngine,
    private readonly rate: () => Rate,
  ) {}

  get size(): number {
    return this.slots.size;
  }

  /** The slot of quote → wallet currency; a new one starts at the market's rate, else the position's own. */
  slotOf(quote: string, walletCurrency: string, fallback: number): number {
    if (quote === walletCurrency) return 0;
    const key = `${quote}|${walletCurrency}`;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.slots.size + 1;
      this.slots.set(key, slot);
      this.pairs.push({ quote, wallet: walletCurrency, slot });
      this.engine.setConversion(slot, this.rate()(quote, walletCurrency) ?? fallback);
    }
    return slot;
  }

  refresh(): void {
    const rate = this.rate();
    for (const { quote, wallet, slot } of this.pairs) {
      const r = rate(quote, wallet);
      if (r && r > 0) this.engine.setConversion(slot, r);
    }
  }

  /** Each slot's wallet currency (slot 0, the identity, is not listed). */
  walletCurrencies(): Map<number, string> {
    return new Map(this.pairs.map((p) => [p.slot, p.wallet]));
  }
}
