import { useQuery } from '@tanstack/react-query';
import type {
  DepositDetailResponse,
  GatewayOptionsResponse,
  KycStatusResponse,
  MoneyHistoryResponse,
  PricingPlanListResponse,
  SandboxCheckoutResponse,
  WithdrawFeesResponse,
} from '@platform/domain';
import { apiGet } from '../../api/client.ts';

/** Query keys and hooks of the client's money screens (deposits, withdrawals, KYC, plans). */
export const moneyKeys = {
  gateways: ['money', 'gateways'] as const,
  history: (kind: 'deposits' | 'withdraws', page: number) => ['money', kind, 'history', page] as const,
  deposit: (id: number) => ['money', 'deposit', id] as const,
  fees: ['money', 'withdraw-fees'] as const,
  kyc: ['money', 'kyc'] as const,
  plans: ['money', 'plans'] as const,
  sandbox: (ref: string) => ['money', 'sandbox', ref] as const,
};

export const HISTORY_PAGE_SIZE = 15;

export const useGatewayOptions = () =>
  useQuery({ queryKey: moneyKeys.gateways, queryFn: () => apiGet<GatewayOptionsResponse>('/deposits/gateways') });

export const useMoneyHistory = (kind: 'deposits' | 'withdraws', page: number) =>
  useQuery({
    queryKey: moneyKeys.history(kind, page),
    queryFn: () => apiGet<MoneyHistoryResponse>(`/${kind}/history`, { page, limit: HISTORY_PAGE_SIZE }),
  });

export const useDepositDetail = (id: number) =>
  useQuery({
    queryKey: moneyKeys.deposit(id),
    queryFn: () => apiGet<DepositDetailResponse>(`/deposits/${id}`),
    enabled: Number.isInteger(id) && id > 0,
  });

export const useWithdrawFees = () =>
  useQuery({ queryKey: moneyKeys.fees, queryFn: () => apiGet<WithdrawFeesResponse>('/withdraws/fees') });

export const useKycStatus = () =>
  useQuery({ queryKey: moneyKeys.kyc, queryFn: () => apiGet<KycStatusResponse>('/kyc') });

export const usePlans = (enabled = true) =>
  useQuery({
    queryKey: moneyKeys.plans,
    queryFn: () => apiGet<PricingPlanListResponse>('/dashboard/pricing', { limit: 100 }),
    enabled,
  });

export const useSandboxCheckout = (ref: string) =>
  useQuery({
    queryKey: moneyKeys.sandbox(ref),
    queryFn: () => apiGet<SandboxCheckoutResponse>(`/payments/sandbox/${ref}`),
  });
