import { asc, eq, sql } from 'drizzle-orm';
import {
  type Category,
  Decimal,
  PARTNER_MAX_LEVELS,
  dealCommissionBase,
  dec,
  levelAmounts,
  lotsOf,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { partnerCommissions, partnerPlanVersions } from '../../db/schema.ts';
import { moveMoney } from '../wallets/ledger.ts';
import { partnerOfSql } from './clients.ts';
import type { PlanVersion } from './plans.ts';
import { ancestorsOf } from './tree.ts';
import { commissionWallet } from './wallets.ts';

/**
 * Commission accrual (docs/decisions.md "Partners"). A closed deal of a partner's client pays every level of the
 * tree above it, by the plan of the client's own partner in effect when the deal closed: each level's row is
 * inserted under its unique key (deal, level, kind) and only an insert that happened credits the level's
 * commission wallet, in the same transaction, so a job run twice, two instances or a retry after a crash credit
 * once. The deal's row is read FOR SHARE first: a void waits for the accrual, and an accrual after a void pays nothing.
 * The partners' daily roll-up and clients' first and last deals follow the inserted rows by themselves (a statement
 * trigger, migration 0038): nothing here writes them.
 */

type Ctx = Pick<AppContext, 'db' | 'market' | 'risk'>;

interface DealFacts {
  id: number;
  user_id: number;
  balance_mode: string;
  balance_currency: string;
  instrument_id: number;
  instrument: string;
  trade_amount: string;
  commission: string;
  close_time: Date;
  created_at: Date;
  spread_paid: string;
  partner_id: number | null;
  /** When staff last set the client's partner (null: the promo code or lead decides). */
  assigned_at: Date | string | null;
}

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;
const asDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** The partner and plan a client's deal or deposit is paid by, with the partners of each level (level 1 first). */
interface Chain {
  version: PlanVersion;
  partners: number[];
}

/** A partner's plan (all its versions, oldest first) and the partners above them, read once per batch. */
interface PartnerFacts {
  versions: PlanVersion[];
  above: number[];
}

async function partnerFacts(db: DbOrTx, partnerId: number): Promise<PartnerFacts | null> {
  const link = rowsOf<{ plan_id: number }>(
    await db.execute(sql`select plan_id from partner_links where user_id = ${partnerId}`),
  )[0];
  if (!link) return null;
  const versions = await db
    .select()
    .from(partnerPlanVersions)
    .where(eq(partnerPlanVersions.planId, link.plan_id))
    .orderBy(asc(partnerPlanVersions.effectiveFrom));
  return { versions, above: await ancestorsOf(db, partnerId, PARTNER_MAX_LEVELS - 1) };
}

/** The chain paying a deal closed at `at`: the version then in effect and the partner of each level. */
function chainAt(partnerId: number, facts: PartnerFacts | null, at: Date): Chain | null {
  const version = facts?.versions.filter((v) => v.effectiveFrom.getTime() <= at.getTime()).at(-1);
  if (!facts || !version) return null;
  return { version, partners: [partnerId, ...facts.above].slice(0, version.levels.length) };
}

async function chainOf(db: DbOrTx, partnerId: number, at: Date): Promise<Chain | null> {
  return chainAt(partnerId, await partnerFacts(db, partnerId), at);
}

/** Units of `to` per unit of `from` at the market's rate now (1 for one currency). */
function rateOf(ctx: Ctx, from: string, to: string) {
  if (from === to) return dec(1);
  const rate = ctx.market.conversionRate(to, from);
  if (!rate || !(rate > 0)) throw new Error(`partners: no rate from ${from} to ${to}`);
  return dec(rate);
}

/** Credits one level's commission once (its row's insert decides); returns the wallet moved, or null. */
async function creditLevel(
  tx: DbOrTx,
  row: typeof partnerCommissions.$inferInsert,
  note: string,
  refType: 'order' | 'deposit',
  refId: number,
): Promise<{ walletId: number; balance: string } | null> {
  const inserted = await tx
    .insert(partnerCommissions)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: partnerCommissions.id });
  if (inserted.length === 0) return null;
  const moved = await moveMoney(tx, {
    balanceId: row.balanceId,
    amount: row.amount,
    kind: 'partner_commission',
    refType,
    refId,
    actorId: null,
    note,
  });
  if (!moved) throw new Error(`partners: commission wallet ${row.balanceId} refused a credit`);
  return { walletId: row.balanceId, balance: moved.balanceAfter };
}

function tellEngine(ctx: Ctx, moves: Array<{ walletId: number; balance: string } | null>): void {
  for (const m of moves) if (m) ctx.risk.balanceChanged(m.walletId, m.balance);
}

/** Why a deal pays no commission, or null when it does. */
function refusal(deal: DealFacts, version: PlanVersion): string | null {
  if (deal.balance_mode !== 'real' && !version.countDemo) return 'demo';
  const held = (asDate(deal.close_time).getTime() - asDate(deal.created_at).getTime()) / 1000;
  if (held < version.minHoldSeconds) return 'held too briefly';
  return null;
}

/** One level's commission on one deal, as the batch statement writes it. */
interface LevelRow {
  dealId: number;
  level: number;
  customerId: number;
  partnerId: number;
  versionId: number;
  walletId: number;
  instrument: string;
  lots: string;
  base: string;
  amount: string;
  currency: string;
  accruedAt: Date;
}

/**
 * Accrues the commissions of these closed deals (any that pay none, or paid already, change nothing). The levels of
 * every deal are computed here, then written in one transaction of two statements whatever the batch's size: the
 * live deals locked FOR SHARE, then one statement that inserts the levels under their unique keys, credits each
 * wallet once with the sum of the levels it won and one ledger entry per level with its running balance (the
 * insert's trigger adds the levels to the partners' daily roll-up and their clients' first and last deals).
 */
export async function accrueDeals(ctx: Ctx, dealIds: readonly number[]): Promise<number> {
  const ids = [...new Set(dealIds)].filter((id) => Number.isInteger(id) && id > 0);
  if (ids.length === 0) return 0;
  const idList = sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );
  // The spread a deal paid: its own column when the wallet is in the quote currency (the close booked it as is),
  // else its ledger entries (converted at the close's rate).
  const deals = rowsOf<DealFacts>(
    await ctx.db.execute(sql`
      select o.id, o.user_id, o.balance_mode, o.balance_currency, o.instrument_id, o.instrument, o.trade_amount,
             o.commission, o.close_time, o.created_at,
             case when o.quote_symbol = o.balance_currency then o.spread::text else
               (select coalesce(-sum(le.amount), 0) from ledger_entries le
                 where le.balance_id = o.balance_id and le.ref_type = 'order' and le.ref_id = o.id
                   and le.kind = 'spread')::text end as spread_paid,
             ${partnerOfSql(sql`o.user_id`)} as partner_id,
             (select pc.assigned_at from partner_clients pc where pc.customer_id = o.user_id) as assigned_at
        from orders o
       where o.id in (${idList}) and o.close_time is not null and o.voided_at is null`),
  );
  const facts = new Map<number, PartnerFacts | null>();
  const rows: LevelRow[] = [];
  for (const deal of deals) {
    if (deal.partner_id === null) continue;
    const closedAt = asDate(deal.close_time);
    // A partner staff gave the client is paid for deals closed from then on, never for earlier ones.
    if (deal.assigned_at !== null && closedAt < asDate(deal.assigned_at)) continue;
    if (!facts.has(deal.partner_id)) facts.set(deal.partner_id, await partnerFacts(ctx.db, deal.partner_id));
    const chain = chainAt(deal.partner_id, facts.get(deal.partner_id) ?? null, closedAt);
    if (!chain || refusal(deal, chain.version)) continue;
    rows.push(...(await levelRows(ctx, deal, chain, closedAt)));
  }
  if (rows.length === 0) return 0;
  const moves = await ctx.db.transaction(async (tx) => {
    const live = new Set(
      rowsOf<{ id: number }>(
        await tx.execute(sql`select id from orders where id in (${idList}) and voided_at is null for share`),
      ).map((r) => r.id),
    );
    const kept = rows.filter((r) => live.has(r.dealId));
    if (kept.length === 0) return { wallets: [], credited: 0 };
    // The wallets locked in id order first, so two batches at once (two workers, two instances) never deadlock.
    const wallets = [...new Set(kept.map((r) => r.walletId))].sort((a, b) => a - b);
    await tx.execute(
      sql`select id from balances where id in (${sql.join(
        wallets.map((id) => sql`${id}::int`),
        sql`, `,
      )}) order by id for update`,
    );
    const values = sql.join(
      kept.map(
        (r) =>
          sql`(${r.dealId}::int, ${r.level}::int, ${r.customerId}::int, ${r.partnerId}::int, ${r.versionId}::int,
               ${r.walletId}::int, ${r.instrument}::text, ${r.lots}::numeric, ${r.base}::numeric, ${r.amount}::numeric,
               ${r.currency}::text, ${r.accruedAt.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const out = rowsOf<{ wallet_id: number; balance: string; credited: number }>(
      await tx.execute(sql`
        with input (deal_id, level, customer_id, partner_id, version_id, wallet_id, instrument, lots, base, amount,
                    currency, accrued_at) as (values ${values}),
        ins as (
          insert into partner_commissions (kind, deal_id, level, customer_id, partner_id, plan_version_id, balance_id,
                                           instrument, lots, base, amount, currency, accrued_at)
          select 'trade', deal_id, level, customer_id, partner_id, version_id, wallet_id, instrument, lots, base, amount,
                 currency, accrued_at from input
          on conflict do nothing
          returning kind, deal_id, level, customer_id, partner_id, balance_id, amount, lots, instrument, currency,
                    accrued_at
        ), sums as (
          select balance_id, sum(amount) as total, count(*)::int as n from ins group by balance_id
        ), upd as (
          update balances b set balance = b.balance + sums.total from sums where b.id = sums.balance_id
          returning b.id, b.balance as after, sums.total, sums.n
        ), ledger as (
          insert into ledger_entries (balance_id, kind, amount, balance_after, ref_type, ref_id, note)
          select ins.balance_id, 'partner_commission', ins.amount,
                 upd.after - upd.total
                   + sum(ins.amount) over (partition by ins.balance_id order by ins.deal_id, ins.level
                                           rows between unbounded preceding and current row),
                 'order', ins.deal_id,
                 'Level ' || ins.level || ' commission on deal #' || ins.deal_id || ' (' || ins.instrument || ', '
                   || trim_scale(ins.lots)::text || ' lots)'
            from ins join upd on upd.id = ins.balance_id
           order by ins.balance_id, ins.deal_id, ins.level
        )
        select id as wallet_id, after::text as balance, n as credited from upd`),
    );
    return {
      wallets: out.map((r) => ({ walletId: r.wallet_id, balance: r.balance })),
      credited: out.reduce((n, r) => n + r.credited, 0),
    };
  });
  tellEngine(ctx, moves.wallets);
  return moves.credited;
}

/** A deal's commission per level by its chain's plan version (levels that pay nothing, or the client's own, left out). */
async function levelRows(ctx: Ctx, deal: DealFacts, chain: Chain, closedAt: Date): Promise<LevelRow[]> {
  const { version } = chain;
  const instrument = ctx.market.instruments.byIdOf(deal.instrument_id);
  if (!instrument) return [];
  const lots = lotsOf(deal.trade_amount, instrument);
  const base = dealCommissionBase({
    perLot: version.perLot[instrument.category as Category] ?? '0',
    lots,
    spreadShare: version.spreadShare,
    spreadPaid: deal.spread_paid,
    commissionShare: version.commissionShare,
    commissionPaid: dec(deal.commission).negated(),
    toPlanCurrency: rateOf(ctx, deal.balance_currency, version.currency),
  });
  const amounts = levelAmounts(base, version.levels);
  const out: LevelRow[] = [];
  for (const [i, partnerId] of chain.partners.entries()) {
    const amount = amounts[i];
    // None on a partner's own account, and nothing to write for a level the plan pays 0.
    if (partnerId === deal.user_id || !amount.gt(0)) continue;
    out.push({
      dealId: deal.id,
      level: i + 1,
      customerId: deal.user_id,
      partnerId,
      versionId: version.id,
      walletId: await knownWallet(ctx.db, partnerId, version.currency),
      instrument: deal.instrument,
      lots: lots.toFixed(8),
      base: base.toFixed(8),
      amount: amount.toFixed(2),
      currency: version.currency,
      accruedAt: closedAt,
    });
  }
  return out;
}

/** Commission wallets never change once opened: remembered per database for the batches. */
const walletIds = new WeakMap<object, Map<string, number>>();
async function knownWallet(db: Ctx['db'], partnerId: number, currency: string): Promise<number> {
  let known = walletIds.get(db);
  if (!known) walletIds.set(db, (known = new Map()));
  const key = `${partnerId}:${currency}`;
  const found = known.get(key);
  if (found) return found;
  const id = await db.transaction((tx) => commissionWallet(tx, partnerId, currency));
  known.set(key, id);
  return id;
}

/**
 * The CPA of a client's first approved deposit, when it reaches the plan's minimum (in the plan's currency at the
 * rate of the moment): each level its percent of the plan's CPA, once per client and level.
 */
export async function accrueCpa(ctx: Ctx, customerId: number): Promise<number> {
  const [first] = rowsOf<{ id: number; amount: string; currency: string; at: Date; partner_id: number | null }>(
    await ctx.db.execute(sql`
      select d.id, d.amount, d.currency, coalesce(d.reviewed_at, d.created_at) as at,
             ${partnerOfSql(sql`d.user_id`)} as partner_id
        from deposits d where d.user_id = ${customerId} and d.status = 'approved'
       order by coalesce(d.reviewed_at, d.created_at), d.id limit 1`),
  );
  if (!first || first.partner_id === null) return 0;
  const at = asDate(first.at);
  const chain = await chainOf(ctx.db, first.partner_id, at);
  if (!chain) return 0;
  const { version } = chain;
  if (!dec(version.cpa).gt(0)) return 0;
  const deposited = dec(first.amount).times(rateOf(ctx, first.currency, version.currency));
  if (deposited.lt(version.cpaMinDeposit)) return 0;
  const amounts = levelAmounts(version.cpa, version.levels);
  const moves = await ctx.db.transaction(async (tx) => {
    const levels: Array<{ i: number; partnerId: number; amount: Decimal; walletId: number }> = [];
    for (const [i, partnerId] of chain.partners.entries()) {
      const amount = amounts[i];
      if (partnerId === customerId || !amount.gt(0)) continue;
      levels.push({ i, partnerId, amount, walletId: await commissionWallet(tx, partnerId, version.currency) });
    }
    if (levels.length === 0) return [];
    // The wallets locked in id order before any row is inserted, as the accrual locks them: the insert's trigger
    // writes each partner's roll-up row of the day while its wallet is held, so a batch and a CPA never deadlock.
    await tx.execute(
      sql`select id from balances where id in (${sql.join(
        levels.map((l) => sql`${l.walletId}::int`),
        sql`, `,
      )}) order by id for update`,
    );
    const out = [];
    for (const { i, partnerId, amount, walletId } of levels) {
      out.push(
        await creditLevel(
          tx,
          {
            kind: 'cpa',
            depositId: first.id,
            customerId,
            level: i + 1,
            partnerId,
            planVersionId: version.id,
            balanceId: walletId,
            base: dec(version.cpa).toFixed(8),
            amount: amount.toFixed(2),
            currency: version.currency,
            accruedAt: at,
          },
          `Level ${i + 1} CPA on the first deposit #${first.id} of client #${customerId}`,
          'deposit',
          first.id,
        ),
      );
    }
    return out;
  });
  tellEngine(ctx, moves);
  return moves.filter(Boolean).length;
}

/**
 * Inside a void's transaction: takes back every commission the deal paid, level by level, once (the reversal's own
 * unique key). A partner who has already withdrawn it is debited what their wallet holds free; the rest is noted on
 * the entry. The wallets are locked before the reversal rows are inserted, whose trigger takes them off the daily
 * roll-up on the void's day. Returns the wallets moved, for the risk engine once the transaction commits.
 */
export async function reverseDealCommissions(
  tx: DbOrTx,
  dealId: number,
  actorId: number | null,
): Promise<Array<{ walletId: number; balance: string }>> {
  const paid = await tx.execute(sql`
    select c.* from partner_commissions c where c.deal_id = ${dealId} and c.kind = 'trade' order by c.level`);
  const rows = rowsOf<Record<string, unknown>>(paid);
  const out: Array<{ walletId: number; balance: string }> = [];
  if (rows.length === 0) return out;
  // Every wallet locked at once in id order, as the accrual locks them, so a void and an accrual batch never deadlock.
  const ids = [...new Set(rows.map((c) => c.balance_id as number))];
  const locked = rowsOf<{ id: number; free: string }>(
    await tx.execute(sql`
      select id, (balance - margin)::text as free from balances
       where id in (${sql.join(
         ids.map((id) => sql`${id}::int`),
         sql`, `,
       )}) order by id for update`),
  );
  const freeOf = new Map(locked.map((w) => [Number(w.id), w.free]));
  for (const c of rows) {
    const amount = dec(c.amount as string);
    const walletId = c.balance_id as number;
    const taken = Decimal.max(0, Decimal.min(amount, dec(freeOf.get(walletId) ?? '0')));
    const inserted = await tx
      .insert(partnerCommissions)
      .values({
        kind: 'reversal',
        dealId,
        customerId: c.customer_id as number,
        level: c.level as number,
        partnerId: c.partner_id as number,
        planVersionId: c.plan_version_id as number,
        balanceId: walletId,
        instrument: c.instrument as string | null,
        lots: c.lots as string,
        base: c.base as string,
        amount: taken.isZero() ? '0' : taken.negated().toFixed(2),
        currency: c.currency as string,
        accruedAt: new Date(),
      })
      .onConflictDoNothing()
      .returning({ id: partnerCommissions.id });
    if (inserted.length === 0 || !taken.gt(0)) continue;
    const short = amount.minus(taken);
    const moved = await moveMoney(tx, {
      balanceId: walletId,
      amount: taken.negated().toFixed(8),
      kind: 'partner_commission',
      refType: 'order',
      refId: dealId,
      actorId,
      note: `Level ${c.level} commission on deal #${dealId} reversed: the deal was voided${
        short.gt(0) ? ` (${short.toFixed(2)} ${c.currency} could not be taken back: already withdrawn)` : ''
      }`,
    });
    if (!moved) throw new Error(`partners: commission wallet ${walletId} refused the reversal`);
    freeOf.set(
      walletId,
      dec(freeOf.get(walletId) ?? '0')
        .minus(taken)
        .toFixed(8),
    );
    out.push({ walletId, balance: moved.balanceAfter });
  }
  return out;
}
