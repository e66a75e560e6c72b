import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ChainCheck, CheckpointVerifyResponse, RecordsCheckpoint, RecordsVerifyResponse } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The records' hash chains (migration 0027): each ledger entry links to the previous entry of its wallet, each audit
 * row to the previous audit row, by hash = sha256(prev_hash || the row's fields). Walking a chain recomputes every
 * hash and checks every link and place; the first row where one fails is where the record was changed (or the row
 * after one removed). Checkpoints of the chains' heads, kept outside the database, show the tails were not rewritten.
 */

const CHECK_LEDGER = sql`
  SELECT count(*)::int AS rows, min(id) FILTER (WHERE broken)::int AS first_broken FROM (
    SELECT e.id,
           e.hash IS DISTINCT FROM sha256(COALESCE(e.prev_hash, ''::bytea) || convert_to(ledger_entry_body(e), 'UTF8'))
           OR e.prev_hash IS DISTINCT FROM lag(e.hash) OVER w
           OR e.chain_seq <> row_number() OVER w AS broken
      FROM ledger_entries e
    WINDOW w AS (PARTITION BY e.balance_id ORDER BY e.chain_seq)) x`;

const CHECK_AUDIT = sql`
  SELECT count(*)::int AS rows, min(id) FILTER (WHERE broken)::int AS first_broken FROM (
    SELECT a.id,
           a.hash IS DISTINCT FROM sha256(COALESCE(a.prev_hash, ''::bytea) || convert_to(audit_row_body(a), 'UTF8'))
           OR a.prev_hash IS DISTINCT FROM lag(a.hash) OVER w
           OR a.chain_seq <> row_number() OVER w AS broken
      FROM audit_logs a
    WINDOW w AS (ORDER BY a.chain_seq)) x`;

type CheckRow = { rows: number; first_broken: number | null };

/** The rows of a query on either driver (node-postgres and PGlite both answer { rows }). */
async function rowsOf<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(res) ? res : (res.rows ?? []);
}

async function check(db: DbOrTx, query: ReturnType<typeof sql>): Promise<ChainCheck> {
  const [row] = await rowsOf<CheckRow>(db, query);
  return { rows: Number(row?.rows ?? 0), firstBroken: row?.first_broken ?? null };
}

/** GET /admin/records/verify and npm run verify-records: both chains walked in full. */
export async function verifyRecords(db: DbOrTx): Promise<RecordsVerifyResponse> {
  const audit = await check(db, CHECK_AUDIT);
  const ledger = await check(db, CHECK_LEDGER);
  return { ok: audit.firstBroken === null && ledger.firstBroken === null, audit, ledger };
}

const hex = (v: unknown): string | null =>
  v === null || v === undefined ? null : Buffer.from(v as Uint8Array).toString('hex');

/**
 * The HMAC-SHA256 (hex) of a checkpoint's fields in a fixed text form ("at|audit seq:hash|wallet:seq:hash,..."), so
 * the signature does not depend on how a JSON tool orders keys.
 */
const signatureOf = (key: string, cp: Omit<RecordsCheckpoint, 'signature'>): string =>
  createHmac('sha256', key)
    .update(
      `${cp.at}|${cp.audit.seq}:${cp.audit.hash ?? ''}|${cp.ledger.map((h) => `${h.wallet}:${h.seq}:${h.hash ?? ''}`).join(',')}`,
    )
    .digest('hex');

/** GET /admin/records/checkpoint: the head of the audit chain and of every wallet's ledger chain, signed when a key is set. */
export async function checkpoint(db: DbOrTx, signingKey: string | undefined): Promise<RecordsCheckpoint> {
  const [audit] = await rowsOf<{ seq: string | number; hash: unknown }>(
    db,
    sql`SELECT chain_seq AS seq, hash FROM audit_logs ORDER BY chain_seq DESC LIMIT 1`,
  );
  const heads = await rowsOf<{ wallet: number; seq: string | number; hash: unknown }>(
    db,
    sql`SELECT DISTINCT ON (balance_id) balance_id AS wallet, chain_seq AS seq, hash
          FROM ledger_entries ORDER BY balance_id, chain_seq DESC`,
  );
  const body = {
    at: new Date().toISOString(),
    audit: { seq: Number(audit?.seq ?? 0), hash: hex(audit?.hash) },
    ledger: heads.map((h) => ({ wallet: Number(h.wallet), seq: Number(h.seq), hash: hex(h.hash) })),
  };
  return { ...body, signature: signingKey ? signatureOf(signingKey, body) : null };
}

/**
 * POST /admin/records/checkpoint/verify: whether every head a checkpoint names is still in its chain with the same
 * hash (rows added since are fine; a head changed or gone means the chain was rewritten after it), and whether its
 * signature matches the key set now.
 */
export async function verifyCheckpoint(
  db: DbOrTx,
  signingKey: string | undefined,
  cp: RecordsCheckpoint,
): Promise<CheckpointVerifyResponse> {
  const { signature, ...body } = cp;
  let signed: boolean | null = null;
  if (signature && signingKey) {
    const expected = Buffer.from(signatureOf(signingKey, body), 'hex');
    const given = Buffer.from(signature, 'hex');
    signed = expected.length === given.length && timingSafeEqual(expected, given);
  }
  const changed: string[] = [];
  if (cp.audit.seq > 0) {
    const [row] = await rowsOf<{ hash: unknown }>(
      db,
      sql`SELECT hash FROM audit_logs WHERE chain_seq = ${cp.audit.seq}`,
    );
    if (hex(row?.hash) !== cp.audit.hash) changed.push('audit');
  }
  // The heads in slices: one query per 5,000 wallets.
  for (let i = 0; i < cp.ledger.length; i += 5000) {
    const part = cp.ledger.slice(i, i + 5000);
    const wallets = `{${part.map((h) => h.wallet).join(',')}}`;
    const seqs = `{${part.map((h) => h.seq).join(',')}}`;
    const found = await rowsOf<{ wallet: number; hash: unknown }>(
      db,
      sql`SELECT e.balance_id AS wallet, e.hash FROM ledger_entries e
            JOIN unnest(${wallets}::int[], ${seqs}::bigint[]) AS h(wallet, seq)
              ON e.balance_id = h.wallet AND e.chain_seq = h.seq`,
    );
    const now = new Map(found.map((r) => [Number(r.wallet), hex(r.hash)]));
    for (const h of part) if (now.get(h.wallet) !== h.hash) changed.push(`wallet ${h.wallet}`);
  }
  return { ok: changed.length === 0 && signed !== false, signed, changed };
}
