import { eq, inArray } from 'drizzle-orm';
import { dec, KYC_DOCUMENT_TYPES, profitLoss, requiredMargin, type Decimal } from '@platform/domain';
import type { Db, DbOrTx } from '../client.ts';
import {
  balances,
  deposits,
  instruments,
  kycDocuments,
  ledgerEntries,
  orders,
  pricingPlans,
  userProfiles,
  users,
  withdrawals,
} from '../schema.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { recomputeFirstDeposits } from '../../modules/deposits/first-deposit.ts';
import { recomputeKycListStatuses } from '../../modules/kyc/list-status.ts';
import { BANKS, FIRST, LAST, PLACES, random } from './demo-people.ts';
import { DEFAULT_LEVERAGE, UNIVERSE } from './instruments.ts';

/**
 * A month of believable broker activity for the demo: customers who signed up over the last weeks, their deposits,
 * withdrawals and closed trades, and a few open positions, so the dashboard and the back-office lists look like a
 * working broker. Everything goes through the same tables and ledger rules as the product: each wallet's balance is
 * the sum of its ledger entries and every money row has the entry that moved it. The demo accounts of each role are
 * left as they were seeded, so their own screens stay predictable. Deterministic: the same demo every time.
 */

const GATEWAYS = ['stripe', 'bank', 'btc', 'paypal', 'usdt', 'stripe', 'bank'];
const CUSTOMERS = 48;
const DAY = 86_400_000;

type Event =
  | { at: number; kind: 'deposit'; amount: Decimal; gateway: string; status: 'approved' | 'pending' | 'declined' }
  | { at: number; kind: 'withdrawal'; amount: Decimal; status: 'approved' | 'pending' | 'declined' }
  | {
      at: number;
      kind: 'trade';
      name: string;
      side: 'buy' | 'sell';
      amount: Decimal;
      move: number;
      hours: number;
      open: boolean;
      demo: boolean;
    };

interface Tradable {
  id: number;
  name: string;
  base: string;
  quote: string;
  category: string;
  mid: number;
  spread: number;
  digits: number;
}

/** When a demo customer was last seen, and their last sign-in a little before it. */
const lastSeen = (at: number) => ({ lastSeenAt: new Date(at), lastLoginAt: new Date(at - (at % 7) * 60_000) });

export async function seedDemoActivity(db: Db, now = Date.now()): Promise<void> {
  const rnd = random(20261123);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const tradables = await loadTradables(db);
  if (tradables.length === 0) return;
  const [plan] = await db.select({ id: pricingPlans.id }).from(pricingPlans).where(eq(pricingPlans.name, 'Basic'));
  const [manager] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'manager@demo.test'));
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@demo.test'));
  const passwordHash = await hashPassword(`demo-${now}-${rnd()}`);

  for (let i = 0; i < CUSTOMERS; i++) {
    const first = FIRST[i % FIRST.length];
    const last = LAST[(i * 7) % LAST.length];
    const [country, city] = pick(PLACES);
    const joined = now - Math.floor((2 + rnd() * 40) * DAY);
    const events = planEvents(rnd, pick, tradables, joined, now);
    await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          fullName: `${first} ${last}`,
          email: `${first}.${last}.${i + 1}@example.com`
            .toLowerCase()
            .normalize('NFD')
            .replace(/[\u0300-\u036f]/g, ''),
          passwordHash,
          roleId: 3,
          isEmailVerified: rnd() > 0.1,
          isActive: i % 16 !== 5,
          pricingTableId: plan?.id ?? null,
          createdAt: new Date(joined),
          ...lastSeen(now - Math.floor(rnd() * 5 * DAY)),
        })
        .returning({ id: users.id });
      await tx.insert(userProfiles).values({
        userId: user.id,
        phone: `+${30 + (i % 60)} ${String(600000000 + Math.floor(rnd() * 399999999))}`,
        birthDate: `19${60 + Math.floor(rnd() * 40)}-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}`,
        country,
        city,
        address: `${10 + i} Market Street`,
        postalCode: String(10000 + Math.floor(rnd() * 89999)),
        managerId: i % 3 === 0 ? (manager?.id ?? null) : null,
      });
      const [demo, real] = await tx
        .insert(balances)
        .values([
          { userId: user.id, mode: 'demo', currency: 'USD', balance: '0', createdAt: new Date(joined) },
          { userId: user.id, mode: 'real', currency: 'USD', balance: '0', createdAt: new Date(joined) },
        ])
        .returning({ id: balances.id });
      await tx.update(users).set({ activeBalanceId: real.id }).where(eq(users.id, user.id));
      if (events.some((e) => e.kind === 'deposit' && e.status === 'approved'))
        await tx.insert(kycDocuments).values({
          userId: user.id,
          type: pick(KYC_DOCUMENT_TYPES),
          status: 'approved',
          createdAt: new Date(joined + DAY / 4),
        });
      // Some who have not funded yet sent documents that wait for review or were declined (no draw from `rnd`, so
      // the rest of the month stays as it was).
      else if (i % 3 !== 0)
        await tx.insert(kycDocuments).values({
          userId: user.id,
          type: KYC_DOCUMENT_TYPES[i % KYC_DOCUMENT_TYPES.length],
          status: i % 3 === 1 ? 'pending' : 'declined',
          declineReason: i % 3 === 1 ? null : 'The photo is not readable.',
          createdAt: new Date(joined + DAY / 2),
        });
      const wallets = { demo: new Wallet(tx, demo.id), real: new Wallet(tx, real.id) };
      await wallets.demo.move(dec(10000), 'seed', null, null, null, 'Demo funding', joined);
      for (const e of events) await apply(tx, e, user.id, wallets, tradables, admin?.id ?? null, rnd);
      await wallets.demo.save();
      await wallets.real.save();
    });
  }
  // The month was written straight into the tables: the lists' first deposits and KYC states are read from it.
  await recomputeFirstDeposits(db);
  await recomputeKycListStatuses(db);
}

/** One customer's month: a few deposits, trades after the money arrived, perhaps a withdrawal. */
function planEvents(
  rnd: () => number,
  pick: <T>(xs: readonly T[]) => T,
  tradables: Tradable[],
  joined: number,
  now: number,
): Event[] {
  const events: Event[] = [];
  const span = now - joined;
  const deposits = rnd() < 0.8 ? 1 + Math.floor(rnd() * 3) : 0;
  for (let d = 0; d < deposits; d++) {
    const last = d === deposits - 1;
    const status = last && rnd() < 0.2 ? 'pending' : rnd() < 0.1 ? 'declined' : 'approved';
    const amount = dec(pick([250, 500, 1000, 1500, 2500, 5000])).plus(Math.floor(rnd() * 10) * 50);
    events.push({
      at: joined + span * (0.05 + 0.3 * d + rnd() * 0.1),
      kind: 'deposit',
      amount,
      gateway: pick(GATEWAYS),
      status,
    });
  }
  const trades = deposits > 0 ? Math.floor(rnd() * 9) : 0;
  for (let t = 0; t < trades; t++) {
    const ins = pick(tradables);
    const at = joined + span * (0.15 + rnd() * 0.8);
    const open = t === trades - 1 && rnd() < 0.35;
    events.push({
      at,
      kind: 'trade',
      name: ins.name,
      side: rnd() < 0.55 ? 'buy' : 'sell',
      amount: tradeSize(ins, rnd),
      move: (rnd() - 0.45) * 0.012,
      hours: 1 + rnd() * 40,
      open,
      demo: rnd() < 0.25,
    });
  }
  if (deposits > 0 && rnd() < 0.35) {
    const status = rnd() < 0.4 ? 'pending' : rnd() < 0.2 ? 'declined' : 'approved';
    events.push({
      at: joined + span * (0.85 + rnd() * 0.1),
      kind: 'withdrawal',
      amount: dec(pick([100, 200, 300, 500])),
      status,
    });
  }
  return events.sort((a, b) => a.at - b.at);
}

/** A size a retail client would pick: a tenth of a lot of forex, a few ounces of gold, a few shares, a slice of a coin. */
function tradeSize(ins: Tradable, rnd: () => number): Decimal {
  const notional = 2000 + rnd() * 18000;
  const units = notional / ins.mid;
  if (ins.category === 'forex') return dec(Math.max(1, Math.round(units / 1000)) * 1000);
  if (units >= 10) return dec(Math.round(units));
  return dec(units.toFixed(2)).gt(0) ? dec(units.toFixed(2)) : dec('0.01');
}

async function apply(
  tx: DbOrTx,
  e: Event,
  userId: number,
  wallets: { demo: Wallet; real: Wallet },
  tradables: Tradable[],
  adminId: number | null,
  rnd: () => number,
): Promise<void> {
  const at = Math.floor(e.at);
  if (e.kind === 'deposit') {
    const fee = e.gateway === 'bank' ? dec(0) : e.amount.times('0.02').toDecimalPlaces(2);
    const [row] = await tx
      .insert(deposits)
      .values({
        userId,
        balanceId: wallets.real.id,
        gateway: e.gateway,
        amount: e.amount.toString(),
        fee: fee.toString(),
        total: e.amount.plus(fee).toString(),
        currency: 'USD',
        status: e.status,
        reference: `DEMO-${userId}-${at}`,
        bankName: e.gateway === 'bank' ? BANKS[userId % BANKS.length] : null,
        accountName: e.gateway === 'bank' ? 'Account holder' : null,
        accountNumber: e.gateway === 'bank' ? `GB${String(10 + (userId % 89))}DEMO${String(at).slice(-8)}` : null,
        declineReason: e.status === 'declined' ? 'Payment not received' : null,
        reviewedBy: e.status === 'pending' ? null : adminId,
        reviewedAt: e.status === 'pending' ? null : new Date(at + 3_600_000),
        createdAt: new Date(at),
      })
      .returning({ id: deposits.id });
    if (e.status !== 'approved') return;
    const after = await wallets.real.move(
      e.amount,
      'deposit',
      'deposit',
      row.id,
      adminId,
      `Deposit #${row.id}`,
      at + 3_600_000,
    );
    await tx.update(deposits).set({ balanceAfter: after.toString() }).where(eq(deposits.id, row.id));
    return;
  }
  if (e.kind === 'withdrawal') {
    const w = wallets.real;
    if (w.free().lt(e.amount)) return;
    const [row] = await tx
      .insert(withdrawals)
      .values({
        userId,
        balanceId: w.id,
        amount: e.amount.toString(),
        fee: '0',
        total: e.amount.toString(),
        currency: 'USD',
        status: e.status,
        bankName: BANKS[userId % BANKS.length],
        accountName: 'Account holder',
        accountNumber: `DE${String(100000 + userId)}DEMO`,
        swiftCode: 'DEMOGB2L',
        bankCountry: 'United Kingdom',
        balanceAfter: w.balance.minus(e.amount).toString(),
        declineReason: e.status === 'declined' ? 'Bank details do not match the account holder' : null,
        reviewedBy: e.status === 'pending' ? null : adminId,
        reviewedAt: e.status === 'pending' ? null : new Date(at + 7_200_000),
        createdAt: new Date(at),
      })
      .returning({ id: withdrawals.id });
    await w.move(
      e.amount.negated(),
      'withdrawal_hold',
      'withdrawal',
      row.id,
      userId,
      `Withdrawal #${row.id} requested`,
      at,
    );
    if (e.status === 'declined')
      await w.move(
        e.amount,
        'withdrawal_release',
        'withdrawal',
        row.id,
        adminId,
        `Withdrawal #${row.id} declined: hold released`,
        at + 7_200_000,
      );
    if (e.status === 'approved')
      await w.move(
        dec(0),
        'withdrawal_payout',
        'withdrawal',
        row.id,
        adminId,
        `Withdrawal #${row.id} paid out`,
        at + 7_200_000,
      );
    return;
  }
  const w = e.demo ? wallets.demo : wallets.real;
  const ins = tradables.find((t) => t.name === e.name)!;
  const leverage = DEFAULT_LEVERAGE[ins.category as keyof typeof DEFAULT_LEVERAGE];
  const round = (x: Decimal) => x.toDecimalPlaces(ins.digits);
  // Open positions sit at today's price so their live P/L is small; closed ones opened where the market was then.
  const mid = dec(ins.mid).times(e.open ? 1 : 1 + (rnd() - 0.5) * 0.02);
  const bid = round(mid.minus(ins.spread / 2));
  const ask = round(mid.plus(ins.spread / 2));
  const openRate = e.side === 'buy' ? ask : bid;
  const spread = ask.minus(bid).times(e.amount).toDecimalPlaces(8);
  const margin = requiredMargin({ price: openRate, amount: e.amount, leverage, conversionRate: 1 }).toDecimalPlaces(
    2,
    0,
  );
  if (w.free().lt(margin.times(3))) return;
  const closeMid = mid.times(1 + e.move);
  const closeRate = round(e.side === 'buy' ? closeMid.minus(ins.spread / 2) : closeMid.plus(ins.spread / 2));
  const pl = profitLoss({
    side: e.side,
    openRate,
    closeRate,
    amount: e.amount,
    spread,
    conversionRate: 1,
  }).toDecimalPlaces(2);
  const closeAt = Math.floor(e.at + e.hours * 3_600_000);
  const [row] = await tx
    .insert(orders)
    .values({
      userId,
      balanceId: w.id,
      balanceMode: e.demo ? 'demo' : 'real',
      balanceCurrency: 'USD',
      instrumentId: ins.id,
      instrument: ins.name,
      baseSymbol: ins.base,
      quoteSymbol: ins.quote,
      kind: ins.category,
      type: e.side,
      tradeAmount: e.amount.toString(),
      openRate: openRate.toString(),
      openBid: bid.toString(),
      openAsk: ask.toString(),
      spread: spread.toString(),
      exchangeRate: '1',
      marginUsed: margin.toString(),
      leverage,
      createdAt: new Date(at),
      ...(e.open
        ? {}
        : {
            closeRate: closeRate.toString(),
            closeTime: new Date(closeAt),
            proLoss: pl.toString(),
            closeReason: 'manual',
          }),
    })
    .returning({ id: orders.id });
  if (e.open) {
    w.margin = w.margin.plus(margin);
    return;
  }
  const spreadCharge = spread.toDecimalPlaces(2);
  await w.move(
    pl.plus(spreadCharge),
    'trade_pl',
    'order',
    row.id,
    null,
    `P/L of order #${row.id} ${ins.name}`,
    closeAt,
  );
  await w.move(spreadCharge.negated(), 'spread', 'order', row.id, null, `Spread on ${ins.name}`, closeAt);
}

/** A wallet followed in memory while its history is written: each move is one ledger entry with the running balance. */
class Wallet {
  balance = dec(0);
  margin = dec(0);
  constructor(
    private readonly tx: DbOrTx,
    readonly id: number,
  ) {}
  free(): Decimal {
    return this.balance.minus(this.margin);
  }
  async move(
    amount: Decimal,
    kind: string,
    refType: string | null,
    refId: number | null,
    actorId: number | null,
    note: string,
    at: number,
  ): Promise<Decimal> {
    // A loss never takes a demo wallet below zero: negative balance protection, as the close statement applies it.
    const next = this.balance.plus(amount);
    const applied = next.lt(0) ? this.balance.negated() : amount;
    this.balance = this.balance.plus(applied);
    await this.tx.insert(ledgerEntries).values({
      balanceId: this.id,
      kind,
      amount: applied.toString(),
      balanceAfter: this.balance.toString(),
      refType,
      refId,
      actorId,
      note,
      createdAt: new Date(at),
    });
    return this.balance;
  }
  async save(): Promise<void> {
    await this.tx
      .update(balances)
      .set({ balance: this.balance.toString(), margin: this.margin.toString() })
      .where(eq(balances.id, this.id));
  }
}

/** Instruments quoted in USD (the demo wallets' currency), with the seeded mid prices the simulated feed starts from. */
async function loadTradables(db: Db): Promise<Tradable[]> {
  const seeded = new Map(
    Object.entries(UNIVERSE).flatMap(([category, rows]) =>
      rows.map((r) => [r[0], { category, digits: r[5], mid: r[6], spread: r[7] }] as const),
    ),
  );
  const names = [...seeded.keys()].filter((n) => n.endsWith('_USD'));
  const rows = await db
    .select({ id: instruments.id, name: instruments.name, base: instruments.base, quote: instruments.quote })
    .from(instruments)
    .where(inArray(instruments.name, names));
  return rows.map((r) => ({ ...r, ...seeded.get(r.name)! }));
}
