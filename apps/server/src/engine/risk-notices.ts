import { and, eq, inArray, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import type { AppContext } from '../context.ts';
import { ledgerEntries, type StopoutPosition, stopoutReports } from '../db/schema.ts';
import { marginCalled, marginCallRearmed } from '../modules/risk/margin-calls.ts';
import { notify } from '../modules/notifications/service.ts';
import type { OrderRow } from './hooks.ts';
import type { RiskEngine } from './risk-engine.ts';

type Ctx = Pick<AppContext, 'db' | 'realtime' | 'jobs'>;

/** A stop-out under way: the figures when it was decided and each position it closed so far. */
interface Episode {
  userId: number | null;
  marginLevel: number;
  equity: number;
  balance: number;
  positions: StopoutPosition[];
}

/**
 * What the leader's risk engine tells clients beside closing positions: margin calls (once per crossing, see
 * modules/risk/margin-calls.ts) and stop-out reports. A stop-out closes the worst position, then the next while the
 * wallet stays at or below its level; the report is written when the last close lands, with the margin level,
 * equity and balance at the decision, each close, and the negative-balance-protection credit they needed.
 */
export class RiskNotices {
  private readonly episodes = new Map<number, Episode>();

  constructor(
    private readonly engine: RiskEngine,
    private readonly ctx: () => Ctx,
    private readonly track: (work: Promise<unknown>) => void,
  ) {}

  /** Tells the clients of margin calls the engine fired or re-armed (the leader only; the others just drain them). */
  drain(acting: boolean): void {
    const { called, rearmed } = this.engine.wallets.drainCalls();
    if (!acting) return;
    for (const walletId of called) {
      const state = this.engine.walletState(walletId);
      const terms = this.engine.wallets.callTerms(walletId);
      if (!state || state.marginLevel === null || !terms) continue;
      this.track(
        marginCalled(this.ctx(), {
          walletId,
          marginLevel: state.marginLevel,
          equity: state.equity,
          callLevel: terms.level,
          stopoutLevel: terms.stopout,
        }).catch((err: unknown) => console.error(`margin call of wallet ${walletId} failed`, err)),
      );
    }
    for (const walletId of rearmed)
      this.track(
        marginCallRearmed(this.ctx(), walletId).catch((err: unknown) =>
          console.error(`re-arming the margin call of wallet ${walletId} failed`, err),
        ),
      );
  }

  /** A stop-out close is about to run: the first of an episode records the wallet's figures at the decision. */
  stopOutStarts(walletId: number): void {
    if (this.episodes.has(walletId)) return;
    const state = this.engine.walletState(walletId);
    this.episodes.set(walletId, {
      userId: null,
      marginLevel: state?.marginLevel ?? 0,
      equity: state?.equity ?? 0,
      balance: state?.balance ?? 0,
      positions: [],
    });
  }

  /** A stop-out close landed; when the engine decided no further one, the episode's report is written. */
  async stopOutClosed(walletId: number, order: OrderRow): Promise<void> {
    const episode = this.episodes.get(walletId);
    if (!episode) return;
    episode.userId = order.userId;
    episode.positions.push({
      id: order.id,
      instrument: order.instrument,
      side: order.type === 'sell' ? 'sell' : 'buy',
      amount: order.tradeAmount,
      price: order.closeRate ?? '0',
      pl: order.proLoss ?? '0',
    });
    if (this.engine.wallets.stopOutInFlight(walletId)) return;
    this.episodes.delete(walletId);
    await this.report(walletId, episode);
  }

  private async report(walletId: number, e: Episode): Promise<void> {
    if (e.userId === null) return;
    const { db } = this.ctx();
    const ids = e.positions.map((p) => p.id);
    const [{ credit }] = await db
      .select({ credit: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.kind, 'negative_balance_protection'),
          eq(ledgerEntries.refType, 'order'),
          inArray(ledgerEntries.refId, ids),
        ),
      );
    const fixed = (v: number) => (Number.isFinite(v) ? v.toFixed(8) : '0');
    const [row] = await db
      .insert(stopoutReports)
      .values({
        userId: e.userId,
        balanceId: walletId,
        marginLevel: fixed(e.marginLevel),
        equity: fixed(e.equity),
        balance: fixed(e.balance),
        positions: e.positions,
        protectionCredit: credit,
      })
      .returning({ id: stopoutReports.id });
    const result = e.positions.reduce((sum, p) => sum.plus(p.pl), dec(0));
    const protection = dec(credit).gt(0) ? ` Negative balance protection credited ${dec(credit).toFixed(2)}.` : '';
    await notify(this.ctx(), e.userId, {
      title: 'Stop-out report',
      description: `Your margin level fell to ${e.marginLevel.toFixed(2)} % (equity ${e.equity.toFixed(2)}): ${e.positions.length} position${e.positions.length === 1 ? '' : 's'} closed with a result of ${result.toFixed(2)}.${protection} Report #${row.id} is in Statements → Stop-outs.`,
      url: '/statements',
    });
  }
}
