import type { ClientSums, ExposureFilter, InstrumentSums } from './exposure.ts';
import type { RiskWalletState } from './risk-types.ts';
import type { orders } from '../db/schema.ts';

type OrderColumnsRow = typeof orders.$inferSelect;
/**
 * An order as the order path and the engine pass it. Swap and commission are optional: rows mapped from the order
 * path's hand-written statements may not carry them (a new position has none; answers read them as 0 then).
 */
export type OrderRow = Omit<OrderColumnsRow, 'swap' | 'commission'> &
  Partial<Pick<OrderColumnsRow, 'swap' | 'commission'>>;

/** The wallet a position belongs to, as the engine tracks it. */
export interface WalletRef {
  id: number;
  balance: string;
  currency: string;
  /** The owner's plan stop-out percent (null: the default 50). */
  stopoutPercent: number | null;
  /** The plan's margin-call level and re-arm points (null: none; left out: as the engine knew it). */
  marginCall?: { level: number; rearm: number } | null;
}

/**
 * What the order service tells the risk engine after each committed change, and the one figure it asks back
 * (the wallet's live profit or loss, for the free-margin check). The engine lives in this process only.
 */
export interface RiskHooks {
  opened(order: OrderRow, wallet: WalletRef): void;
  /** Many positions opened together (a burst of pending fills), told at once. */
  openedMany(positions: ReadonlyArray<{ order: OrderRow; wallet: WalletRef }>): void;
  closed(order: OrderRow, wallet: { id: number; balance: string }): void;
  /** A partial close left the position with the smaller amount, spread and margin of `order`. */
  resized(order: OrderRow, wallet: { id: number; balance: string }): void;
  /** New take-profit, stop-loss or trailing stop (the order's own columns). */
  levelsChanged(order: OrderRow): void;
  /** A wallet's balance changed outside trading (deposit, withdrawal, plan charge, staff adjustment). */
  balanceChanged(walletId: number, balance: string): void;
  /** Many wallets' balances changed at once (the rollover's swaps of a batch). */
  balancesChanged(changes: ReadonlyArray<{ walletId: number; balance: string }>): void;
  /** Live P/L of a wallet's open positions in its currency; 0 when the engine does not track it. */
  unrealizedPl(walletId: number): number;
  /** Wallets holding margin, lowest margin level first, with the engine's figures (accounts at risk). */
  walletsAtRisk(): Array<RiskWalletState & { walletId: number; marginCall: boolean }>;
  /** Open positions the engine tracks for a wallet. */
  openPositions(walletId: number): number;
  /** Open positions the engine tracks in all (the rollover's expected work). */
  trackedPositions(): number;
  /** Floating P/L of one open position in its wallet's currency at the last price; null when not tracked. */
  positionPl(orderId: number): number | null;
  /** The clients' net volume (long − short units) on an instrument in one mode's wallets (the limits' check). */
  netVolume(instrumentId: number, mode: 'real' | 'demo'): number;
  /** A number that changes whenever an open position is added, resized or removed (caches of the desk's scans). */
  exposureVersion(): number;
  /** Called after every change of a net volume; returns the unsubscribe. */
  onNetChange(fn: (instrumentId: number, mode: 'real' | 'demo', net: number) => void): () => void;
  /** The exposure desk's sums per instrument (and per client on request), P/L and notionals in `siteCurrency`. */
  exposure(
    filter: ExposureFilter,
    siteCurrency: string,
    withClients: boolean,
  ): { instruments: InstrumentSums[]; clients: ClientSums[] };
}

/** Used until the risk engine is attached (tests of other modules, tools). */
export const noRisk: RiskHooks = {
  opened() {},
  openedMany() {},
  closed() {},
  resized() {},
  levelsChanged() {},
  balanceChanged() {},
  balancesChanged() {},
  unrealizedPl: () => 0,
  walletsAtRisk: () => [],
  openPositions: () => 0,
  trackedPositions: () => 0,
  positionPl: () => null,
  netVolume: () => 0,
  exposureVersion: () => 0,
  onNetChange: () => () => undefined,
  exposure: () => ({ instruments: [], clients: [] }),
};
