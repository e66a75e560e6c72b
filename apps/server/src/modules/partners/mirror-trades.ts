import { sql } from 'drizzle-orm';
import type { PartnerMirrorPair } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { clientsOfSql } from './clients.ts';
import type { Period } from './reports.ts';

/**
 * Clients of one partner who trade against each other (a fraud pattern: two accounts hedge each other so the pair
 * risks nothing while the partner earns on both): positions on the same instrument, opposite sides, opened by two
 * different clients of the same partner within `windowSeconds` of each other, in the period. Real wallets only.
 */

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;

/** The most pairs one report lists. */
const MAX_PAIRS = 1000;

export async function mirrorTrades(db: DbOrTx, p: Period, windowSeconds: number): Promise<PartnerMirrorPair[]> {
  const partners = rowsOf<{ id: number; name: string }>(
    await db.execute(sql`select l.user_id as id, u.full_name as name
                           from partner_links l join users u on u.id = l.user_id order by l.user_id`),
  );
  const out: PartnerMirrorPair[] = [];
  for (const partner of partners) {
    const pairs = rowsOf<{
      instrument: string;
      first_order: number;
      first_client: number;
      first_side: string;
      second_order: number;
      second_client: number;
      seconds: string;
      opened_at: Date | string;
    }>(
      await db.execute(sql`
        with c as ${clientsOfSql(partner.id)},
        o as (
          select o.id, o.user_id, o.instrument_id, o.instrument, o.type, o.created_at
            from c join balances b on b.user_id = c.id and b.mode = 'real'
            join orders o on o.balance_id = b.id
           where o.partial_of is null
             and o.created_at >= ${p.from.toISOString()}::timestamptz and o.created_at < ${p.to.toISOString()}::timestamptz
        )
        select a.instrument, a.id as first_order, a.user_id as first_client, a.type as first_side,
               b.id as second_order, b.user_id as second_client,
               abs(extract(epoch from (b.created_at - a.created_at)))::text as seconds, a.created_at as opened_at
          from o a join o b on b.instrument_id = a.instrument_id and b.user_id <> a.user_id and b.type <> a.type
               and b.created_at between a.created_at - ${windowSeconds} * interval '1 second'
                                    and a.created_at + ${windowSeconds} * interval '1 second'
               and (b.created_at, b.id) > (a.created_at, a.id)
         order by a.created_at desc limit ${MAX_PAIRS}`),
    );
    for (const r of pairs)
      out.push({
        partnerId: partner.id,
        partnerName: partner.name,
        instrument: r.instrument,
        firstOrderId: r.first_order,
        firstClientId: r.first_client,
        firstSide: r.first_side === 'sell' ? 'sell' : 'buy',
        secondOrderId: r.second_order,
        secondClientId: r.second_client,
        secondsApart: Number(Number(r.seconds).toFixed(3)),
        openedAt: new Date(r.opened_at).toISOString(),
      });
    if (out.length >= MAX_PAIRS) break;
  }
  return out.slice(0, MAX_PAIRS);
}
