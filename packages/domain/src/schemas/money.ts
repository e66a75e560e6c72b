import { z } from 'zod';
import { AccountType, PricingTableDto } from './auth.ts';
import { DEFAULT_RETAIL_CAPS, RETAIL_CLASSES, type RetailClass, retailIssues } from '../retail.ts';
import {
  IdParam,
  MoneyString,
  PagedQuery,
  isSafeText,
  optionalString,
  paged,
  requiredString,
  UNSAFE_TEXT_MESSAGE,
} from './common.ts';
import { AUTOMATIC_GATEWAYS } from './gateways.ts';
import { idField, MONEY_STATUSES, moneyAmount, nonNegativeMoney, percentField } from './money-fields.ts';

/**
 * Money and compliance (client-area §2 Deposits, Withdraws, KYC, Pricing; back-office §2 "Deposits and
 * withdrawals", gateways, external payments, KYC Documents, Pricing Plans, Withdraw Settings). Payloads here are
 * validated by the server and, with the same schema, by the screens' forms.
 */

// The amount fields and the gateways live in files of their own; this module still exports them.
export * from './money-fields.ts';
export * from './gateways.ts';

// ---------------------------------------------------------------------------------------------------------------
// Deposits

/** POST /deposits. */
export const DepositRequest = z.object({
  balance_id: idField('Wallet is required'),
  amount: moneyAmount('Amount is required'),
  gateway: requiredString('Gateway is required', 40),
});
export type DepositRequest = z.input<typeof DepositRequest>;

/** A hidden form the browser posts to the provider (Perfect Money's SCI). */
export const PaymentFormDto = z.object({
  action: z.string(),
  method: z.literal('POST'),
  fields: z.record(z.string(), z.string()),
});
export type PaymentFormDto = z.infer<typeof PaymentFormDto>;

export const DepositCreatedResponse = z.object({
  message: z.string(),
  /** Where the browser goes next: the bank or crypto page, the provider's checkout, or the sandbox payment page. */
  paymentLink: z.string(),
  /** Present when the browser must post a hidden form instead of following the link. */
  form: PaymentFormDto.nullable(),
  id: z.number().nullable(),
});
export type DepositCreatedResponse = z.infer<typeof DepositCreatedResponse>;

export const BankDetailsDto = z.object({
  key1: z.string(),
  key2: z.string(),
  key3: z.string(),
  key4: z.string(),
  key5: z.string(),
});
export type BankDetailsDto = z.infer<typeof BankDetailsDto>;

/** GET /deposits/{id}: what the bank, crypto and sandbox pages need about one of the caller's deposits. */
export const DepositDetailResponse = z.object({
  id: z.number(),
  gateway: z.string(),
  gateway_name: z.string(),
  status: z.enum(MONEY_STATUSES),
  amount: z.string(),
  fee: z.string(),
  total: z.string(),
  currency: z.string(),
  /** Bank gateway: where to transfer to. */
  bank: BankDetailsDto.nullable(),
  /** Crypto gateways: the wallet to pay to, its QR image (data URL) and the total converted to the coin. */
  crypto: z
    .object({
      coin: z.string(),
      walletCode: z.string(),
      qrCode: z.string(),
      convertedAmount: z.string(),
      rate: z.string(),
    })
    .nullable(),
  /** True once the client sent the bank transfer details. */
  proof_sent: z.boolean(),
});
export type DepositDetailResponse = z.infer<typeof DepositDetailResponse>;

/** PUT /deposits/bank/{id} (multipart, with the proof file). */
export const BankDepositRequest = z.object({
  bank_name: requiredString('Bank name is required', 120),
  account_name: requiredString('Account name is required', 120),
  account_number: requiredString('Account number is required', 64),
});
export type BankDepositRequest = z.input<typeof BankDepositRequest>;

export const FormattedBankDto = z.object({
  bankName: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  swiftCode: z.string(),
  bankCountry: z.string(),
});
export type FormattedBankDto = z.infer<typeof FormattedBankDto>;

/** A deposit or withdrawal as its history lists show it (client-area §3, back-office §3). */
export const MoneyRecordDto = z.object({
  id: z.number(),
  created_at: z.string(),
  amount: z.string(),
  fee: z.string(),
  total: z.string(),
  balance: z.object({ id: z.number(), currency: z.string(), mode: z.string() }),
  balance_after: z.string().nullable(),
  gateway: z.string(),
  status: z.enum(MONEY_STATUSES),
  description: z.string().nullable(),
  reference: z.string().nullable(),
  /** URL of the bank transfer proof (deposits). */
  proof: z.string().nullable(),
  /** A pending bank deposit whose transfer details and proof the client has not sent yet (deposits only). */
  awaiting_proof: z.boolean().optional(),
  decline_reason: z.string().nullable(),
  formattedDescription: FormattedBankDto.nullable(),
  user: z.object({ id: z.number(), email: z.string(), full_name: z.string() }),
  reviewed_at: z.string().nullable(),
});
export type MoneyRecordDto = z.infer<typeof MoneyRecordDto>;
export const MoneyHistoryResponse = paged(MoneyRecordDto);
export type MoneyHistoryResponse = z.infer<typeof MoneyHistoryResponse>;

export const MoneyHistoryQuery = PagedQuery;
export const UserIdParam = z.object({ userId: IdParam.shape.id });

// ---------------------------------------------------------------------------------------------------------------
// Payments (card and wallet gateways)

export const TxRefParam = z.object({
  tx_ref: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'Invalid payment reference' }),
});
export const OrderIdParam = z.object({
  orderID: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'Invalid order id' }),
});
export const PaymentKindParam = z.object({ kind: z.enum(AUTOMATIC_GATEWAYS, { error: 'Unknown gateway' }) });

/** POST /payments/paypal/{tx_ref}: the PayPal order id the buttons approve. */
export const PaypalOrderResponse = z.object({ id: z.string() });
/** Where the browser goes once a payment returns: /deposits?status&amount&message. */
export const PaymentResultResponse = z.object({
  status: z.enum(['success', 'pending', 'failed']),
  amount: z.string(),
  message: z.string(),
  redirect: z.string(),
});
export type PaymentResultResponse = z.infer<typeof PaymentResultResponse>;

/** GET /payments/sandbox/{tx_ref}: the sandbox payment page. */
export const SandboxCheckoutResponse = z.object({
  tx_ref: z.string(),
  amount: z.string(),
  currency: z.string(),
  merchant: z.string(),
  status: z.enum(MONEY_STATUSES),
});
export type SandboxCheckoutResponse = z.infer<typeof SandboxCheckoutResponse>;
export const SandboxDecisionParam = z.object({
  tx_ref: TxRefParam.shape.tx_ref,
  decision: z.enum(['approve', 'decline']),
});

// ---------------------------------------------------------------------------------------------------------------
// Withdrawals

/** POST /withdraws/bank (client-area §3 "Withdraw payload"). */
export const WithdrawRequest = z.object({
  balance_id: idField('Wallet is required'),
  amount: moneyAmount('Amount is required'),
  bank_name: requiredString('Bank name is required', 120),
  account_name: requiredString('Account name is required', 120),
  account_number: requiredString('Account number is required', 64),
  swift_code: requiredString('Swift code is required', 20),
  bank_country: requiredString('Bank country is required', 100),
});
export type WithdrawRequest = z.input<typeof WithdrawRequest>;

/** Withdraw fees: percentage/100 × amount + fixed (client-area §9). */
export const WithdrawFeesResponse = z.object({ percentage: z.string(), fixed: z.string() });
export type WithdrawFeesResponse = z.infer<typeof WithdrawFeesResponse>;

/** POST /admin/withdraws/settings. */
export const WithdrawSettingsRequest = z.object({
  feePercentage: percentField('Fee percentage is required'),
  feeFixed: nonNegativeMoney('Fixed fee is required', 1_000_000),
});
export type WithdrawSettingsRequest = z.input<typeof WithdrawSettingsRequest>;

/** POST /admin/withdraws/{id}/decline and /admin/kyc/{id}/decline: an optional reason. */
export const DeclineRequest = z.object({ declineReason: optionalString(500) });
export type DeclineRequest = z.input<typeof DeclineRequest>;

/**
 * POST /admin/deposits/{id}/approve. A bank deposit still waiting for its transfer details and proof is approved only
 * with an override reason (audited); other deposits need no body.
 */
export const DepositApproveRequest = z.object({
  overrideReason: z
    .string()
    .trim()
    .max(500)
    .optional()
    .nullable()
    .transform((s) => s || undefined)
    .pipe(z.string().min(5, { error: 'Give a reason of at least 5 characters' }).optional()),
});
export type DepositApproveRequest = z.input<typeof DepositApproveRequest>;

// ---------------------------------------------------------------------------------------------------------------
// External payments

export const ExternalPaymentDto = z.object({
  id: z.number(),
  logo: z.string().nullable(),
  name: z.string(),
  link: z.string(),
  custom_label: z.string().nullable(),
  custom_value: z.string().nullable(),
});
export type ExternalPaymentDto = z.infer<typeof ExternalPaymentDto>;
export const ExternalPaymentListResponse = paged(ExternalPaymentDto);

const httpUrl = (message: string) =>
  requiredString(message, 500).refine((s) => /^https?:\/\/[^\s]+$/i.test(s), {
    error: 'Link must start with http:// or https://',
  });

/** POST /admin/externalPayments and PUT .../{id} (multipart; the logo is a file part, required on create). */
export const ExternalPaymentRequest = z.object({
  name: requiredString('Name is required', 120),
  link: httpUrl('Link is required'),
  customLabel: optionalString(120),
  customValue: optionalString(255),
});
export type ExternalPaymentRequest = z.input<typeof ExternalPaymentRequest>;

// ---------------------------------------------------------------------------------------------------------------
// KYC

export const KYC_DOCUMENT_TYPES = ['national_id', 'passport', 'driver_license'] as const;
export const KYC_STATUSES = ['not_submitted', 'pending', 'approved', 'declined'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** POST /kyc (multipart type, front, back, address). */
export const KycSubmitRequest = z.object({ type: z.enum(KYC_DOCUMENT_TYPES, { error: 'Document type is required' }) });

/** GET /kyc: the caller's latest submission. */
export const KycStatusResponse = z.object({
  status: z.enum(KYC_STATUSES),
  type: z.enum(KYC_DOCUMENT_TYPES).nullable(),
  declineReason: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type KycStatusResponse = z.infer<typeof KycStatusResponse>;

/** An uploaded file: where to fetch it and what it is (an image or a PDF), so a viewer can show it right. */
const fileRef = z.object({ url: z.string(), mime: z.string() }).nullable();
export const AdminKycDto = z.object({
  id: z.number(),
  type: z.enum(KYC_DOCUMENT_TYPES),
  status: z.enum(['pending', 'approved', 'declined']),
  created_at: z.string(),
  user: z.object({ id: z.number(), full_name: z.string(), email: z.string() }),
  front: fileRef,
  back: fileRef,
  address: fileRef,
  decline_reason: z.string().nullable(),
});
export type AdminKycDto = z.infer<typeof AdminKycDto>;
export const AdminKycListResponse = paged(AdminKycDto);

// ---------------------------------------------------------------------------------------------------------------
// Pricing plans

const leverageField = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return null;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 5000) {
      ctx.addIssue({ code: 'custom', message: 'Leverage must be a whole number from 1 to 5000' });
      return z.NEVER;
    }
    return n;
  });
const stopoutField = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return null;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 100) {
      ctx.addIssue({ code: 'custom', message: 'Stop out must be a whole percent from 0 to 100' });
      return z.NEVER;
    }
    return n;
  });

/** A whole number in [min, max] from a JSON number or a form's text, or an issue with the field's message. */
function wholeIn(v: number | string, label: string, min: number, max: number, ctx: z.RefinementCtx): number {
  const n = v === '' ? Number.NaN : Number(v);
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  ctx.addIssue({ code: 'custom', message: `${label} must be a whole number from ${min} to ${max}` });
  return z.NEVER;
}
/** A whole number, or undefined when missing (the plan's stays). */
const wholeNumber = (label: string, min: number, max: number) =>
  z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => (v === undefined ? undefined : wholeIn(v, label, min, max, ctx)));
/** The same, where null or '' turns the setting off. */
const levelOrOff = (label: string, min: number, max: number) =>
  z
    .union([z.number(), z.string(), z.null()])
    .optional()
    .transform((v, ctx) =>
      v === undefined ? undefined : v === null || v === '' ? null : wholeIn(v, label, min, max, ctx),
    );
/** A commission or fee: 0 or more, at most 1,000,000 with 4 decimals; a missing field keeps the plan's. */
const chargeField = (label: string) => nonNegativeMoney(`${label} is required`, 1_000_000, 4).optional();

/** A retail leverage cap: a whole leverage from 1 to 5000. */
const capField = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = v === '' ? Number.NaN : Number(v);
  if (Number.isInteger(n) && n >= 1 && n <= 5000) return n;
  ctx.addIssue({ code: 'custom', message: 'A leverage cap must be a whole number from 1 to 5000' });
  return z.NEVER;
});

/** A plan's retail caps as its form and API send them: every class, each 1 to 5000. */
export const RetailCapsInput = z.object(
  Object.fromEntries(RETAIL_CLASSES.map((c) => [c, capField])) as Record<RetailClass, typeof capField>,
  { error: 'Leverage caps are required for every class' },
);

export const COMMISSION_BASES = ['lot', 'million'] as const;
export type CommissionBasis = (typeof COMMISSION_BASES)[number];
export const COMMISSION_CHARGES = ['open', 'close', 'both'] as const;
export type CommissionCharge = (typeof COMMISSION_CHARGES)[number];
/** The stop-out level a plan without one uses (percent, spec §9). */
export const DEFAULT_STOPOUT_LEVEL = 50;

/**
 * POST /admin/pricing and PUT /admin/pricing/{id}: camelCase payload (back-office §3). The trading terms added after
 * the spec (commission, margin call, swap-free) are optional: a plan created without them charges no commission, has
 * no margin call and pays swaps; an edit without them keeps the plan's.
 */
export const PricingPlanRequest = z
  .object({
    name: requiredString('Name is required', 120),
    description: optionalString(2000),
    price: nonNegativeMoney('Price is required').default('0.00'),
    forexLeverage: leverageField,
    commodityLeverage: leverageField,
    indexLeverage: leverageField,
    stockLeverage: leverageField,
    cryptoLeverage: leverageField,
    forexStopout: stopoutField,
    commodityStopout: stopoutField,
    indexStopout: stopoutField,
    stockStopout: stopoutField,
    cryptoStopout: stopoutField,
    /** Hedging (the default for a new plan) or netting; an edit without it keeps the plan's. */
    accountType: AccountType.optional(),
    /** Commission per lot, or per million of notional (commissionBasis), of each category's deals. */
    forexCommission: chargeField('Forex commission'),
    commodityCommission: chargeField('Commodity commission'),
    indexCommission: chargeField('Index commission'),
    stockCommission: chargeField('Stock commission'),
    cryptoCommission: chargeField('Crypto commission'),
    commissionBasis: z.enum(COMMISSION_BASES, { error: 'Choose per lot or per million' }).optional(),
    commissionCharge: z.enum(COMMISSION_CHARGES, { error: 'Choose open, close or both' }).optional(),
    /** Margin level (percent) of a margin call, above every stop-out level; null or '' turns it off. */
    marginCallLevel: levelOrOff('Margin call level', 1, 1000),
    /** Points above the margin-call level the margin level must recover to before a new margin call. */
    marginCallRearm: wholeNumber('Margin call re-arm', 0, 1000),
    /** Swap-free (Islamic): no swap; after swapFreeDays days each position pays swapFreeFee a day instead. */
    swapFree: z.boolean({ error: 'Choose on or off' }).optional(),
    swapFreeFee: chargeField('Swap-free fee'),
    swapFreeDays: wholeNumber('Free days', 0, 3650),
    /** Retail protections (ESMA-style): on by default for a new plan; an edit without it keeps the plan's. */
    retail: z.boolean({ error: 'Choose on or off' }).optional(),
    /** The retail leverage caps per instrument class; a missing field keeps the plan's (a new plan: the defaults). */
    retailCaps: RetailCapsInput.optional(),
  })
  .superRefine((v, ctx) => {
    for (const issue of retailIssues(v.retail === true, v.retailCaps ?? DEFAULT_RETAIL_CAPS, v))
      ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  })
  .refine(
    (v) =>
      v.marginCallLevel == null ||
      [v.forexStopout, v.commodityStopout, v.indexStopout, v.stockStopout, v.cryptoStopout].every(
        (s) => (s ?? DEFAULT_STOPOUT_LEVEL) < (v.marginCallLevel as number),
      ),
    { path: ['marginCallLevel'], error: 'The margin call level must be above every stop-out level' },
  );
export type PricingPlanRequest = z.input<typeof PricingPlanRequest>;

/**
 * What choosing a plan charges the caller: the plan's price converted into the currency of the real wallet it is
 * charged from (the active wallet when real, else the first real one), at the server's rate, rounded up to the cent.
 * `rate` is units of the plan's currency per one unit of the wallet's (1 when they are the same).
 */
export const PlanChargeDto = z.object({
  wallet_id: z.number().int(),
  amount: MoneyString,
  currency: z.string(),
  rate: z.string(),
});
export type PlanChargeDto = z.infer<typeof PlanChargeDto>;

/**
 * A plan as lists show it: the current user's pricingTable fields (snake_case) plus its currency and subscribers.
 * For a customer, `charge` is what choosing it would take from their real wallet (null when they have no real
 * wallet or no rate is known); staff get none.
 */
export const PricingPlanDto = PricingTableDto.extend({
  currency: z.string(),
  subscribers: z.number(),
  charge: PlanChargeDto.nullable().optional(),
});
export type PricingPlanDto = z.infer<typeof PricingPlanDto>;

/**
 * POST /dashboard/pricing/subscribe/{planId}: `amount` and `currency` are the charge the customer confirmed. The
 * server charges exactly that when it is within PLAN_PRICE_TOLERANCE of the price at the current rate, else
 * refuses (409) with the new price so the customer can confirm again. Without them, the current price is charged.
 */
export const PlanSubscribeRequest = z
  .object({
    amount: nonNegativeMoney('Amount is required').optional(),
    currency: z.string().trim().min(3).max(10).optional(),
  })
  .nullish();
export type PlanSubscribeRequest = z.input<typeof PlanSubscribeRequest>;
/** How far a confirmed plan charge may be from the price at the current rate (a fraction: 1%). */
export const PLAN_PRICE_TOLERANCE = '0.01';
export const PricingPlanListResponse = paged(PricingPlanDto);
export type PricingPlanListResponse = z.infer<typeof PricingPlanListResponse>;
export const PricingListQuery = PagedQuery.extend({ limit: z.coerce.number().int().min(1).max(100).default(100) });

export const PlanIdParam = z.object({ planId: IdParam.shape.id });

/** Text that is safe to store, for reasons typed by staff. */
export const reasonText = z.string().max(500).refine(isSafeText, { error: UNSAFE_TEXT_MESSAGE });

/** GET /admin/withdraws/settings. */
export const WithdrawSettingsResponse = z.object({ feePercentage: z.string(), feeFixed: z.string() });
export type WithdrawSettingsResponse = z.infer<typeof WithdrawSettingsResponse>;
