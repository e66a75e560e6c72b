import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import {
  Decimal,
  GATEWAY_KINDS,
  GATEWAY_SPECS,
  dec,
  formatMoney,
  isAutomaticGateway,
  isCryptoGateway,
  type BankDepositRequest,
  type DepositCreatedResponse,
  type DepositDetailResponse,
  type DepositRequest,
  type GatewayKind,
} from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { balances, deposits } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { UploadedFile } from '../../lib/multipart.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { isKycApproved } from '../auth/current-user.ts';
import { prepareFile, recordFile } from '../files/storage.ts';
import { adapterOf, isOffered, keysOf, loadGateway } from '../gateways/service.ts';
import { emitAll, insertStaffNotifications } from '../notifications/service.ts';
import { getSettingsCached, isOn } from '../settings/service.ts';
import { ProviderError } from '../../integrations/payments/types.ts';
import { gatewayName, type DepositRow } from './records.ts';

type Ctx = Pick<AppContext, 'db' | 'config' | 'dbKind' | 'market' | 'realtime' | 'risk' | 'objectStore'>;

/** The deposit fee: the gateway's percent of the amount, to the cent (half up). */
export const depositFee = (amount: string, percent: string): string =>
  dec(amount).mul(percent).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);

/** Our payment reference: random, URL-safe, what providers echo back. */
export const newReference = (): string => `dp_${randomBytes(15).toString('base64url')}`;

/** The KYC-for-deposit switch (kyc.value1) and the caller's verification. */
async function checkKyc(
  ctx: Ctx,
  userId: number,
  setting: 'value1' | 'value2',
  code: 'KYC_REQUIRED_DEPOSIT' | 'KYC_REQUIRED_WITHDRAW',
) {
  const s = await getSettingsCached(ctx.db, ['kyc']);
  if (isOn(s.kyc, setting) && !(await isKycApproved(ctx.db, userId))) throw new AppError(code);
}
export const checkKycForDeposit = (ctx: Ctx, userId: number) => checkKyc(ctx, userId, 'value1', 'KYC_REQUIRED_DEPOSIT');
export const checkKycForWithdraw = (ctx: Ctx, userId: number) =>
  checkKyc(ctx, userId, 'value2', 'KYC_REQUIRED_WITHDRAW');

/** The caller's own real wallet, or a 404 (another user's id) / 422 (a demo wallet). */
export async function ownRealWallet(ctx: Pick<AppContext, 'db'>, userId: number, balanceId: number) {
  const [w] = await ctx.db
    .select()
    .from(balances)
    .where(and(eq(balances.id, balanceId), eq(balances.userId, userId)))
    .limit(1);
  if (!w) throw new AppError('WALLET_NOT_FOUND');
  if (w.mode !== 'real') throw new AppError('REAL_WALLET_ONLY');
  return w;
}

/** The total converted to a coin at the server's own price: coins per wallet unit, and the amount rounded up. */
function cryptoQuote(ctx: Ctx, coin: string, walletCurrency: string, total: string): { rate: string; amount: string } {
  // USDT is a dollar token: priced as USD when no market quotes it.
  const perUnit =
    ctx.market.conversionRate(coin, walletCurrency) ??
    (coin === 'USDT' ? ctx.market.conversionRate('USD', walletCurrency) : null);
  if (!perUnit || !(perUnit > 0)) throw new AppError('RATE_UNAVAILABLE');
  const coinsPerUnit = dec(perUnit);
  return {
    rate: dec(1).div(coinsPerUnit).toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toFixed(8),
    amount: dec(total).mul(coinsPerUnit).toDecimalPlaces(8, Decimal.ROUND_UP).toFixed(8),
  };
}

/**
 * POST /deposits: a pending deposit on the caller's real wallet through an offered gateway, and where the browser
 * goes next. Nothing is credited here: staff approve manual deposits, providers confirm card payments.
 */
export async function createDeposit(
  ctx: Ctx,
  user: SessionUser,
  input: z.output<typeof DepositRequest>,
): Promise<DepositCreatedResponse> {
  if (input.gateway.startsWith('external:')) throw new AppError('EXTERNAL_PAYMENT');
  if (!(GATEWAY_KINDS as readonly string[]).includes(input.gateway)) throw new AppError('UNKNOWN_GATEWAY');
  const kind = input.gateway as GatewayKind;
  await checkKycForDeposit(ctx, user.id);
  const wallet = await ownRealWallet(ctx, user.id, input.balance_id);
  const gateway = await loadGateway(ctx.db, kind);
  if (!isOffered(ctx, gateway)) throw new AppError('GATEWAY_UNAVAILABLE');
  const spec = GATEWAY_SPECS[kind];
  const fee = spec.hasFee ? depositFee(input.amount, gateway.fee) : '0.00';
  const total = dec(input.amount).add(fee).toFixed(2);
  const crypto = isCryptoGateway(kind) ? cryptoQuote(ctx, spec.coin!, wallet.currency, total) : null;
  const reference = newReference();
  const [row] = await ctx.db
    .insert(deposits)
    .values({
      userId: user.id,
      balanceId: wallet.id,
      gateway: kind,
      amount: input.amount,
      fee,
      total,
      currency: wallet.currency,
      reference,
      coin: crypto ? spec.coin : null,
      walletAddress: crypto ? gateway.key1 : null,
      coinRate: crypto?.rate ?? null,
      coinAmount: crypto?.amount ?? null,
    })
    .returning();

  if (kind === 'bank' || crypto) {
    const notices = await insertStaffNotifications(
      ctx.db,
      user.id,
      {
        title: 'New deposit',
        description: `${user.fullName}: ${formatMoney(total, wallet.currency)} by ${spec.name} (#${row.id})`,
        url: '/admin/deposits',
      },
      true,
    );
    emitAll(ctx, notices);
    return {
      message: 'Deposit created',
      paymentLink: kind === 'bank' ? `/deposits/bank/${row.id}` : `/deposits/crypto/${row.id}`,
      form: null,
      id: row.id,
    };
  }
  if (kind === 'sandbox')
    return { message: 'Deposit created', paymentLink: `/payments/sandbox/${reference}`, form: null, id: row.id };
  return startCheckout(ctx, user, row);
}

/** Asks the provider for its checkout; a provider that fails leaves the deposit declined (nothing was paid). */
async function startCheckout(ctx: Ctx, user: SessionUser, row: DepositRow): Promise<DepositCreatedResponse> {
  const kind = row.gateway as GatewayKind;
  const adapter = adapterOf(ctx, kind);
  if (!adapter || !isAutomaticGateway(kind)) throw new AppError('GATEWAY_UNAVAILABLE');
  const gateway = await loadGateway(ctx.db, kind);
  const base = ctx.config.appUrl.replace(/\/$/, '');
  try {
    const checkout = await adapter.createCheckout(keysOf(gateway), {
      reference: row.reference,
      amount: dec(row.total).toFixed(2),
      currency: row.currency,
      customer: { id: user.id, email: user.email, fullName: user.fullName },
      description: `Deposit #${row.id}`,
      urls: {
        returnUrl: `${base}/payments/return/${row.reference}`,
        cancelUrl: `${base}/payments/return/${row.reference}?cancelled=1`,
        callbackUrl: `${base}/api/payments/${kind}/callback`,
      },
    });
    if (checkout.providerRef)
      await ctx.db
        .update(deposits)
        .set({ providerRef: checkout.providerRef.slice(0, 128) })
        .where(eq(deposits.id, row.id));
    if (checkout.type === 'form')
      return {
        message: 'Deposit created',
        paymentLink: checkout.action,
        form: { action: checkout.action, method: 'POST', fields: checkout.fields },
        id: row.id,
      };
    return { message: 'Deposit created', paymentLink: checkout.url, form: null, id: row.id };
  } catch (err) {
    await ctx.db
      .update(deposits)
      .set({
        status: 'declined',
        declineReason: 'The payment provider could not start the payment.',
        reviewedAt: new Date(),
      })
      .where(and(eq(deposits.id, row.id), eq(deposits.status, 'pending')));
    if (err instanceof ProviderError) throw new AppError('PROVIDER_UNAVAILABLE');
    throw err;
  }
}

/** One of the caller's deposits (another user's id is a 404). */
export async function ownDeposit(ctx: Pick<AppContext, 'db'>, userId: number, id: number): Promise<DepositRow> {
  const [row] = await ctx.db
    .select()
    .from(deposits)
    .where(and(eq(deposits.id, id), eq(deposits.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('DEPOSIT_NOT_FOUND');
  return row;
}

/** GET /deposits/{id}: the bank details or crypto address to pay to, for the caller's own deposit. */
export async function depositDetail(ctx: Ctx, userId: number, id: number): Promise<DepositDetailResponse> {
  const d = await ownDeposit(ctx, userId, id);
  const kind = d.gateway as GatewayKind;
  const gateway = await loadGateway(ctx.db, kind);
  const bank =
    kind === 'bank'
      ? {
          key1: gateway.key1 ?? '',
          key2: gateway.key2 ?? '',
          key3: gateway.key3 ?? '',
          key4: gateway.key4 ?? '',
          key5: gateway.key5 ?? '',
        }
      : null;
  const crypto =
    d.coin && d.walletAddress
      ? {
          coin: d.coin,
          walletCode: d.walletAddress,
          qrCode: await QRCode.toDataURL(d.walletAddress, { margin: 1, width: 240 }),
          convertedAmount: d.coinAmount ?? '',
          rate: d.coinRate ?? '',
        }
      : null;
  return {
    id: d.id,
    gateway: kind,
    gateway_name: gatewayName(kind),
    status: d.status as DepositDetailResponse['status'],
    amount: d.amount,
    fee: d.fee,
    total: d.total,
    currency: d.currency,
    bank,
    crypto,
    proof_sent: Boolean(d.proofFileId),
  };
}

/** PUT /deposits/bank/{id}: the account the transfer came from and its proof, on the caller's pending bank deposit (sent again, they replace the earlier ones). */
export async function submitBankTransfer(
  ctx: Ctx,
  user: SessionUser,
  id: number,
  input: z.output<typeof BankDepositRequest>,
  proof: UploadedFile | undefined,
): Promise<string> {
  if (!proof) throw new AppError('VALIDATION', 'Proof is required', { proof: 'Proof is required' });
  const d = await ownDeposit(ctx, user.id, id);
  if (d.gateway !== 'bank' || d.status !== 'pending') throw new AppError('NOT_BANK_DEPOSIT');
  const upload = await prepareFile(ctx, proof, 'proof');
  await ctx.db.transaction(async (tx) => {
    const fileId = await recordFile(tx, upload, user.id);
    const [updated] = await tx
      .update(deposits)
      .set({
        bankName: input.bank_name,
        accountName: input.account_name,
        accountNumber: input.account_number,
        proofFileId: fileId,
      })
      .where(and(eq(deposits.id, id), eq(deposits.status, 'pending')))
      .returning({ id: deposits.id });
    if (!updated) throw new AppError('NOT_BANK_DEPOSIT');
  });
  return 'Your transfer details were sent. We will credit your wallet when the money arrives.';
}
