import type {
  AdminTradeDto,
  AuditEntryDto,
  AdminInstrumentDto,
  AdminKycDto,
  CustomerListItem,
  ExternalPaymentDto,
  LeadItem,
  MoneyRecordDto,
  StaffUserDto,
} from '@platform/domain';
import { ROLE_NAMES } from '@platform/domain';
import type { CsvColumn } from './csv-export.ts';

/** The columns of each back-office list's CSV export: what the screen shows, in its order, plus useful ids. */

export const MONEY_RECORD_CSV: ReadonlyArray<CsvColumn<MoneyRecordDto>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Date', value: (r) => r.created_at },
  { header: 'User ID', value: (r) => r.user.id },
  { header: 'User', value: (r) => r.user.email },
  { header: 'Gateway', value: (r) => r.gateway },
  { header: 'Description', value: (r) => r.description },
  { header: 'Reference', value: (r) => r.reference },
  { header: 'Wallet', value: (r) => `${r.balance.mode} ${r.balance.currency}` },
  { header: 'Amount', value: (r) => r.amount },
  { header: 'Fee', value: (r) => r.fee },
  { header: 'Total', value: (r) => r.total },
  { header: 'Status', value: (r) => r.status },
  { header: 'Decline Reason', value: (r) => r.decline_reason },
  { header: 'Reviewed At', value: (r) => r.reviewed_at },
];

export const KYC_CSV: ReadonlyArray<CsvColumn<AdminKycDto>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Document Type', value: (r) => r.type },
  { header: 'Full Name', value: (r) => r.user.full_name },
  { header: 'Client Email', value: (r) => r.user.email },
  { header: 'Status', value: (r) => r.status },
  { header: 'Upload Date', value: (r) => r.created_at },
  { header: 'Decline Reason', value: (r) => r.decline_reason },
];

export const CUSTOMER_CSV: ReadonlyArray<CsvColumn<CustomerListItem>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Full Name', value: (r) => r.full_name },
  { header: 'Email', value: (r) => r.email },
  { header: 'Phone', value: (r) => r.phone },
  { header: 'Birth Date', value: (r) => r.birth_date },
  { header: 'Country', value: (r) => r.country },
  { header: 'Role', value: (r) => ROLE_NAMES[r.role_id as keyof typeof ROLE_NAMES] ?? r.role_id },
  { header: 'Email Verified', value: (r) => (r.is_email_verified ? 'yes' : 'no') },
  { header: 'Status', value: (r) => (r.is_active ? 'active' : 'inactive') },
  { header: 'Currency', value: (r) => r.currency },
  { header: 'Balance', value: (r) => r.balance },
  { header: 'Equity', value: (r) => r.equity },
  { header: 'FTD At', value: (r) => r.ftd_at },
  { header: 'FTD Amount', value: (r) => r.ftd_amount },
  { header: 'KYC Status', value: (r) => r.kyc_status },
  { header: 'Last Login', value: (r) => r.last_login_at },
];

export const STAFF_USER_CSV: ReadonlyArray<CsvColumn<StaffUserDto>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Full Name', value: (r) => r.full_name },
  { header: 'Email', value: (r) => r.email },
  { header: 'Role', value: (r) => ROLE_NAMES[r.role_id as keyof typeof ROLE_NAMES] ?? r.role_id },
  { header: 'Email Verified', value: (r) => (r.is_email_verified ? 'yes' : 'no') },
  { header: 'Status', value: (r) => (r.is_active ? 'active' : 'inactive') },
  { header: 'IP Whitelist', value: (r) => r.whitelists.map((w) => w.ip_address).join(' ') },
  { header: 'Created At', value: (r) => r.created_at },
];

export const INSTRUMENT_CSV: ReadonlyArray<CsvColumn<AdminInstrumentDto>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Instrument Name', value: (r) => r.name },
  { header: 'Base', value: (r) => r.base },
  { header: 'Quote', value: (r) => r.quote },
  { header: 'Bids', value: (r) => r.bids },
  { header: 'Asks', value: (r) => r.asks },
  { header: 'Chart Provider', value: (r) => r.tradingview },
  { header: 'Alias', value: (r) => r.alias },
  { header: 'Leverage', value: (r) => r.leverage },
  { header: 'Tradable', value: (r) => (r.tradable ? 'yes' : 'no') },
  { header: 'Swap', value: (r) => r.swap },
  { header: 'Swap Long', value: (r) => r.swap_long },
  { header: 'Swap Short', value: (r) => r.swap_short },
];

export const EXTERNAL_PAYMENT_CSV: ReadonlyArray<CsvColumn<ExternalPaymentDto>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Name', value: (r) => r.name },
  { header: 'Link', value: (r) => r.link },
  { header: 'Custom Label', value: (r) => r.custom_label },
  { header: 'Custom Value', value: (r) => r.custom_value },
];

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

export const AUDIT_CSV: ReadonlyArray<CsvColumn<AuditEntryDto>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Time', value: (r) => r.created_at },
  { header: 'Actor', value: (r) => r.actor?.email },
  { header: 'Action', value: (r) => r.action },
  { header: 'Subject User', value: (r) => r.target?.email },
  {
    header: 'Subject',
    value: (r) => (r.subject_type ? `${r.subject_type}${r.subject_id === null ? '' : `:${r.subject_id}`}` : ''),
  },
  { header: 'Before', value: (r) => json(r.before) },
  { header: 'After', value: (r) => json(r.after) },
  { header: 'IP', value: (r) => r.ip },
];

export const TRADE_CSV: ReadonlyArray<CsvColumn<AdminTradeDto>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'User', value: (r) => r.user.email },
  { header: 'Wallet', value: (r) => `${r.balance.mode} ${r.balance.currency}` },
  { header: 'Type', value: (r) => r.type },
  { header: 'Instrument', value: (r) => r.instrument },
  { header: 'Amount', value: (r) => r.trade_amount },
  { header: 'Open Rate', value: (r) => r.open_rate },
  { header: 'Close Rate', value: (r) => r.close_rate },
  { header: 'Spread', value: (r) => r.spread },
  { header: 'Margin Used', value: (r) => r.margin_used },
  { header: 'Pro/Loss', value: (r) => r.pro_loss },
  { header: 'Floating P/L', value: (r) => r.live_pl },
  { header: 'Take Profit', value: (r) => r.profit },
  { header: 'Stop Loss', value: (r) => r.loss },
  { header: 'Leverage', value: (r) => r.leverage },
  { header: 'Open Time', value: (r) => r.created_at },
  { header: 'Close Time', value: (r) => r.close_time },
];

/** CRM lead lists: the rows as the viewer gets them, so an agent's export carries the same masked contacts. */
export const LEAD_CSV: ReadonlyArray<CsvColumn<LeadItem>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'First Name', value: (r) => r.first_name },
  { header: 'Last Name', value: (r) => r.last_name },
  { header: 'Email', value: (r) => r.email },
  { header: 'Phone', value: (r) => r.phone },
  { header: 'Country', value: (r) => r.country },
  { header: 'City', value: (r) => r.city },
  { header: 'Sale Status', value: (r) => r.lead_status },
  { header: 'Group', value: (r) => r.group },
  { header: 'Source', value: (r) => r.source },
  { header: 'Reference', value: (r) => r.reference },
  { header: 'Sale Agent', value: (r) => r.agent?.full_name },
  { header: 'Retention Agent', value: (r) => r.retAgent?.full_name },
  { header: 'Manager', value: (r) => r.manager?.full_name },
  { header: 'Affiliate', value: (r) => r.user?.full_name },
  { header: 'Registered At', value: (r) => r.created_at },
  { header: 'FTD At', value: (r) => r.ftd_at },
  { header: 'Last Access', value: (r) => r.last_access },
];
