import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import {
  GATEWAY_SPECS,
  type GatewayKind,
  type MoneyHistoryResponse,
  type MoneyRecordDto,
  type PagedQuery,
} from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { balances, deposits, users } from '../../db/schema.ts';
import { escapeLike, offsetOf, pageMeta } from '../../lib/paging.ts';
import { fileUrl } from '../files/storage.ts';

export type DepositRow = typeof deposits.$inferSelect;

export const gatewayName = (kind: string): string => GATEWAY_SPECS[kind as GatewayKind]?.name ?? kind;

/** The bank account a client says a transfer came from, as lists describe it. */
export function depositDescription(d: DepositRow): string | null {
  if (d.gateway === 'bank')
    return d.bankName
      ? [d.bankName, d.accountName, d.accountNumber].filter(Boolean).join(', ')
      : 'Awaiting transfer details';
  if (d.coin) return `${d.coinAmount ?? ''} ${d.coin} to ${d.walletAddress ?? ''}`.trim();
  return d.providerRef ? `${gatewayName(d.gateway)} payment ${d.providerRef}` : `${gatewayName(d.gateway)} payment`;
}

/** A pending bank deposit whose client has not sent the transfer details and proof yet. */
export const awaitsProof = (d: DepositRow): boolean => d.gateway === 'bank' && d.status === 'pending' && !d.proofFileId;

type Joined = {
  d: DepositRow;
  b: { id: number; currency: string; mode: string };
  u: { id: number; email: string; fullName: string };
};

export function depositDto({ d, b, u }: Joined): MoneyRecordDto {
  return {
    id: d.id,
    created_at: d.createdAt.toISOString(),
    amount: d.amount,
    fee: d.fee,
    total: d.total,
    balance: { id: b.id, currency: b.currency, mode: b.mode },
    balance_after: d.balanceAfter,
    gateway: gatewayName(d.gateway),
    status: d.status as MoneyRecordDto['status'],
    description: depositDescription(d),
    reference: d.reference,
    proof: fileUrl(d.proofFileId),
    awaiting_proof: awaitsProof(d),
    decline_reason: d.declineReason,
    formattedDescription:
      d.gateway === 'bank' && d.bankName
        ? {
            bankName: d.bankName,
            accountName: d.accountName ?? '',
            accountNumber: d.accountNumber ?? '',
            swiftCode: '',
            bankCountry: '',
          }
        : null,
    user: { id: u.id, email: u.email, full_name: u.fullName },
    reviewed_at: d.reviewedAt?.toISOString() ?? null,
  };
}

/** A page of deposits matching `where` (the caller's own, or a staff member's scope), newest first. */
export async function depositPage(db: DbOrTx, where: SQL | undefined, q: PagedQuery): Promise<MoneyHistoryResponse> {
  const s = q.search?.trim();
  // A payment reference is a random token: it is found whole, so the search never scans every deposit for it.
  // Matching customers are found first (few), then their deposits by index; a reference is found whole.
  const pattern = `%${escapeLike(s ?? '')}%`;
  const customers = db
    .select({ id: users.id })
    .from(users)
    .where(or(ilike(users.email, pattern), ilike(users.fullName, pattern)));
  const search = s ? or(inArray(deposits.userId, customers), eq(deposits.reference, s)) : undefined;
  const filter = and(where, search);
  const rows = await db
    .select({
      d: deposits,
      b: { id: balances.id, currency: balances.currency, mode: balances.mode },
      u: { id: users.id, email: users.email, fullName: users.fullName },
    })
    .from(deposits)
    .innerJoin(balances, eq(balances.id, deposits.balanceId))
    .innerJoin(users, eq(users.id, deposits.userId))
    .where(filter)
    .orderBy(desc(deposits.id))
    .limit(q.limit)
    .offset(offsetOf(q));
  const [{ n }] = await db
    .select({ n: count() })
    .from(deposits)
    .innerJoin(users, eq(users.id, deposits.userId))
    .where(filter);
  return { data: rows.map(depositDto), meta: pageMeta(q, n) };
}
