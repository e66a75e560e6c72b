import { z } from 'zod';

/** One hash chain's check: rows walked, and the id of the first row whose link or hash does not hold (null: none). */
export const ChainCheck = z.object({ rows: z.number().int(), firstBroken: z.number().int().nullable() });
export type ChainCheck = z.infer<typeof ChainCheck>;

/** GET /admin/records/verify: the audit trail's chain and the ledger's (one chain per wallet). */
export const RecordsVerifyResponse = z.object({ ok: z.boolean(), audit: ChainCheck, ledger: ChainCheck });
export type RecordsVerifyResponse = z.infer<typeof RecordsVerifyResponse>;

/** A chain's head at a checkpoint: its place and hash (hex). */
const Head = z.object({
  seq: z.number().int().nonnegative(),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});

/**
 * GET /admin/records/checkpoint: the heads of every chain now, to keep outside the database; `signature` is the
 * HMAC-SHA256 (hex) of the JSON of the other fields with RECORDS_SIGNING_KEY, null when no key is set. POST
 * /admin/records/checkpoint/verify takes one back and says whether every head it names is still in its chain.
 */
export const RecordsCheckpoint = z.object({
  at: z.string(),
  audit: Head,
  ledger: z.array(Head.extend({ wallet: z.number().int().positive() })).max(5_000_000),
  signature: z.string().nullable(),
});
export type RecordsCheckpoint = z.infer<typeof RecordsCheckpoint>;

export const CheckpointVerifyResponse = z.object({
  ok: z.boolean(),
  /** Whether the signature matched the key set now (null: no signature or no key). */
  signed: z.boolean().nullable(),
  /** Chains whose head at the checkpoint is missing or changed: 'audit' or 'wallet {id}'. */
  changed: z.array(z.string()),
});
export type CheckpointVerifyResponse = z.infer<typeof CheckpointVerifyResponse>;

/** One stored daily checkpoint as GET /admin/records/checkpoints lists it (the heads themselves come with its download). */
export const StoredCheckpointDto = z.object({
  id: z.number().int(),
  /** The UTC day it stands for (YYYY-MM-DD), one checkpoint a day. */
  day: z.string(),
  /** When the heads were read. */
  at: z.string(),
  audit_seq: z.number().int(),
  /** Wallet chains whose head it holds. */
  wallets: z.number().int(),
  signed: z.boolean(),
});
export type StoredCheckpointDto = z.infer<typeof StoredCheckpointDto>;

/** GET /admin/records/checkpoints: newest first, paged (15 by default, at most 100). */
export const StoredCheckpointsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000, { error: 'Page is out of range' }).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(15),
});
export type StoredCheckpointsQuery = z.input<typeof StoredCheckpointsQuery>;

export const StoredCheckpointsResponse = z.object({
  data: z.array(StoredCheckpointDto),
  meta: z.object({ total: z.number().int(), per_page: z.number().int(), page: z.number().int() }),
});
export type StoredCheckpointsResponse = z.infer<typeof StoredCheckpointsResponse>;
