import { sql } from 'drizzle-orm';
import {
  type Decimal,
  dec,
  maskEmail,
  type PartnerClientDto,
  type PartnerCommissionDto,
  type PartnerPeriodQuery,
  type PartnerReportRow,
  type PartnerSubpartnerDto,
  type PartnerSummaryResponse,
} from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { getSettings, isOn } from '../settings/service.ts';
import { clientSourceSql, clientsOfSql } from './clients.ts';
import { descendantsOf } from './tree.ts';
import { commissionWallets } from './wallets.ts';

/**
 * What partners and admins read: figures per partner over a period of whole UTC days, from the accrued commissions
 * (partner_commissions, by partner and accrual time, and their daily roll-up partner_commission_days), and the
 * partner's clients by the rules of clients.ts.
 * Volume is the lots of the partner's own clients' deals that paid commission (level 1), less those voided.
 */

const DAY_MS = 86_400_000;
const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;

export interface Period {
  dateStart: string;
  dateEnd: string;
  from: Date;
  /** Exclusive: the start of the day after dateEnd. */
  to: Date;
}

/** The period asked for; by default the 30 days up to today. */
export function periodOf(q: PartnerPeriodQuery, now = new Date()): Period {
  const today = now.toISOString().slice(0, 10);
  const dateEnd = q.dateEnd ?? (q.dateStart && q.dateStart > today ? q.dateStart : today);
  const dateStart = q.dateStart ?? new Date(Date.parse(dateEnd) - 29 * DAY_MS).toISOString().slice(0, 10);
  return { dateStart, dateEnd, from: new Date(`${dateStart}T00:00:00Z`), to: new Date(Date.parse(dateEnd) + DAY_MS) };
}

type Money = Array<{ currency: string; amount: string }>;

interface Figures {
  activeTraders: number;
  lots: string;
  commission: Money;
}

type Day = { day: string; currency: string; amount: string; lots: string };

/**
 * One partner's traders, lots and commission (per currency) over the period, and the same by day: the days from the
 * daily roll-up (kept by a trigger on the commissions, migration 0038; one row per day and currency, grouping sets for the period's total), the traders from
 * their first and last deals (activeTraders). The same figures, to the digit, as grouping the partner's commission
 * rows themselves.
 */
async function figuresOf(db: DbOrTx, partnerId: number, p: Period): Promise<Figures & { byDay: Day[] }> {
  const rows = rowsOf<Day & { whole: number }>(
    await db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day, currency, sum(amount)::text as amount,
             coalesce(sum(lots), 0)::text as lots, grouping(day, currency)::int as whole
        from partner_commission_days
       where partner_id = ${partnerId} and day >= ${p.dateStart}::date and day <= ${p.dateEnd}::date
       group by grouping sets ((day, currency), ())
       order by day, currency`),
  );
  const byDay = rows
    .filter((r) => r.whole === 0)
    .map(({ day, currency, amount, lots }) => ({ day, currency, amount, lots }));
  const total = rows.find((r) => r.whole !== 0);
  const perCurrency = new Map<string, Decimal>();
  for (const d of byDay) perCurrency.set(d.currency, (perCurrency.get(d.currency) ?? dec(0)).plus(d.amount));
  return {
    activeTraders: await activeTraders(db, partnerId, p),
    lots: total?.lots ?? '0',
    commission: [...perCurrency]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, amount]) => ({ currency, amount: amount.toFixed(8) })),
    byDay,
  };
}

/**
 * The partner's active traders over the period: their own clients with a deal that paid them (level 1) in it.
 * Counting distinct clients over the rows reads every row of the period (a year: 333,000 for a partner in
 * bench/partners.ts), and walking the clients on an index then probing each for a row in the period still costs two
 * probes per client (25 ms for 2,000 clients there). So each client's first and last such deal are kept
 * (partner_traders, kept by the same trigger): a client whose first or last deal falls in the period traded in it,
 * one whose deals all fall outside did not, and only a client who traded before and after a past period is probed
 * (partner_commissions_trader_idx). A period up to today reads the partner's rows there and probes nothing (1 ms for
 * 2,000 clients). A per-client, per-day table would be no smaller than the detail: a partner's clients trade most days.
 */
async function activeTraders(db: DbOrTx, partnerId: number, p: Period): Promise<number> {
  const from = sql`${p.from.toISOString()}::timestamptz`;
  const to = sql`${p.to.toISOString()}::timestamptz`;
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from partner_traders t
       where t.partner_id = ${partnerId} and t.last_at >= ${from} and t.first_at < ${to}
         and (t.first_at >= ${from} or t.last_at < ${to}
              or exists (select 1 from partner_commissions c
                          where c.partner_id = t.partner_id and c.customer_id = t.customer_id
                            and c.level = 1 and c.kind = 'trade' and c.deal_id is not null
                            and c.accrued_at >= ${from} and c.accrued_at < ${to}))`),
  );
  return row.n;
}

async function clientCount(db: DbOrTx, partnerId: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from ${clientsOfSql(partnerId)} c`),
  );
  return row.n;
}

/** GET /admin/partners/report: every partner's clients, traders, lots and commission over the period. */
export async function partnersReport(db: DbOrTx, p: Period): Promise<PartnerReportRow[]> {
  const partners = rowsOf<{ id: number; name: string; email: string; parent_id: number | null }>(
    await db.execute(sql`
      select l.user_id as id, u.full_name as name, u.email, l.parent_id
        from partner_links l join users u on u.id = l.user_id order by l.user_id`),
  );
  const out: PartnerReportRow[] = [];
  for (const partner of partners)
    out.push({
      partnerId: partner.id,
      name: partner.name,
      email: partner.email,
      parentId: partner.parent_id,
      clients: await clientCount(db, partner.id),
      ...(({ byDay: _, ...f }) => f)(await figuresOf(db, partner.id, p)),
    });
  return out;
}

/** GET /affiliate/partner/summary: the partner's own figures, by day, with their plan, code and wallets. */
export async function partnerSummary(db: DbOrTx, partnerId: number, p: Period): Promise<PartnerSummaryResponse> {
  const figures = await figuresOf(db, partnerId, p);
  const [plan] = rowsOf<{ id: number; name: string; currency: string }>(
    await db.execute(sql`
      select p.id, p.name, v.currency from partner_links l join partner_plans p on p.id = l.plan_id
        join lateral (select currency from partner_plan_versions v where v.plan_id = p.id
                       order by v.effective_from desc limit 1) v on true
       where l.user_id = ${partnerId}`),
  );
  const [code] = rowsOf<{ code: string }>(
    await db.execute(sql`select code from promo_codes where user_id = ${partnerId} and replaced_at is null limit 1`),
  );
  return {
    dateStart: p.dateStart,
    dateEnd: p.dateEnd,
    clients: await clientCount(db, partnerId),
    activeTraders: figures.activeTraders,
    lots: figures.lots,
    commission: figures.commission,
    byDay: figures.byDay,
    plan: plan ?? null,
    promoCode: code?.code ?? null,
    wallets: await commissionWallets(db, partnerId),
  };
}

/**
 * GET /affiliate/partner/clients: the partner's own clients, newest first, with the lots that paid them. Emails are
 * masked while the site shows agents masked contacts (Show Email & Phone in Agent Dashboard off).
 */
export async function partnerClientsPage(
  db: DbOrTx,
  partnerId: number,
  q: { page: number; limit: number; only?: number },
  /** Admins read the contacts whole; partners as the site setting says. */
  viewer: 'partner' | 'admin' = 'partner',
): Promise<{ data: PartnerClientDto[]; meta: { total: number; per_page: number; page: number } }> {
  const s = await getSettings(db, ['showUserInfoAgent']);
  const masked = viewer === 'partner' && !isOn(s.showUserInfoAgent);
  const [{ total }] = rowsOf<{ total: number }>(
    await db.execute(sql`select count(*)::int as total from ${clientsOfSql(partnerId)} c`),
  );
  const rows = rowsOf<{
    id: number;
    name: string;
    email: string;
    country: string | null;
    joined_at: Date | string;
    source: 'staff' | 'promo' | 'lead';
    ftd_at: Date | string | null;
    lots: string;
  }>(
    await db.execute(sql`
      select u.id, u.full_name as name, u.email, up.country, u.created_at as joined_at,
             ${clientSourceSql(sql`u.id`)} as source, u.ftd_at,
             (select coalesce(sum(case kind when 'trade' then lots else -lots end), 0)::text from partner_commissions pc
               where pc.customer_id = u.id and pc.partner_id = ${partnerId} and pc.level = 1 and pc.deal_id is not null) as lots
        from users u left join user_profiles up on up.user_id = u.id
       where u.id in ${clientsOfSql(partnerId)} and (${q.only ?? null}::int is null or u.id = ${q.only ?? null}::int)
       order by u.id desc limit ${q.limit} offset ${(q.page - 1) * q.limit}`),
  );
  const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    data: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: masked ? maskEmail(r.email) : r.email,
      country: r.country,
      joinedAt: new Date(r.joined_at).toISOString(),
      source: r.source,
      ftdAt: iso(r.ftd_at),
      lots: r.lots,
      masked,
    })),
    meta: { total, per_page: q.limit, page: q.page },
  };
}

/** GET /affiliate/partner/subpartners: every partner below the caller, their clients, lots, and what they earned them. */
export async function partnerSubpartners(db: DbOrTx, partnerId: number): Promise<PartnerSubpartnerDto[]> {
  const below = await descendantsOf(db, partnerId);
  const out: PartnerSubpartnerDto[] = [];
  for (const sub of below) {
    const [u] = rowsOf<{ name: string }>(
      await db.execute(sql`select full_name as name from users where id = ${sub.id}`),
    );
    const [own] = rowsOf<{ lots: string }>(
      await db.execute(sql`
        select coalesce(sum(case kind when 'trade' then lots else -lots end), 0)::text as lots from partner_commissions
         where partner_id = ${sub.id} and level = 1 and deal_id is not null`),
    );
    // What the caller earned on deals whose level-1 partner is this sub-partner.
    const earned = rowsOf<{ currency: string; amount: string }>(
      await db.execute(sql`
        select mine.currency, sum(mine.amount)::text as amount
          from partner_commissions mine
          join partner_commissions first on first.level = 1 and first.kind = mine.kind
               and (first.deal_id = mine.deal_id or (first.kind = 'cpa' and first.customer_id = mine.customer_id))
         where mine.partner_id = ${partnerId} and mine.level > 1 and first.partner_id = ${sub.id}
         group by mine.currency order by mine.currency`),
    );
    out.push({
      userId: sub.id,
      name: u?.name ?? '',
      parentId: sub.parentId,
      level: sub.level,
      clients: await clientCount(db, sub.id),
      lots: own.lots,
      earnedYou: earned,
    });
  }
  return out;
}

/** The partner's commission statement over the period, newest first: one row per deal (or deposit) and level. */
export async function partnerCommissionsPage(
  db: DbOrTx,
  partnerId: number,
  p: Period,
  q: { page: number; limit: number },
): Promise<{ data: PartnerCommissionDto[]; meta: { total: number; per_page: number; page: number } }> {
  const where = sql`c.partner_id = ${partnerId}
    and c.accrued_at >= ${p.from.toISOString()}::timestamptz and c.accrued_at < ${p.to.toISOString()}::timestamptz`;
  const [{ total }] = rowsOf<{ total: number }>(
    await db.execute(sql`select count(*)::int as total from partner_commissions c where ${where}`),
  );
  const rows = rowsOf<{
    id: number;
    kind: 'trade' | 'cpa' | 'reversal';
    deal_id: number | null;
    deposit_id: number | null;
    client: string;
    instrument: string | null;
    lots: string;
    level: number;
    amount: string;
    currency: string;
    accrued_at: Date | string;
  }>(
    await db.execute(sql`
      select c.id, c.kind, c.deal_id, c.deposit_id, u.full_name as client, c.instrument, c.lots::text, c.level,
             c.amount::text, c.currency, c.accrued_at
        from partner_commissions c join users u on u.id = c.customer_id
       where ${where}
       order by c.accrued_at desc, c.id desc limit ${q.limit} offset ${(q.page - 1) * q.limit}`),
  );
  return {
    data: rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      dealId: r.deal_id,
      depositId: r.deposit_id,
      client: r.client,
      instrument: r.instrument,
      lots: r.lots,
      level: r.level,
      amount: r.amount,
      currency: r.currency,
      accruedAt: new Date(r.accrued_at).toISOString(),
    })),
    meta: { total, per_page: q.limit, page: q.page },
  };
}
