import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dec, formatMoney, type CurrentUserResponse } from '@platform/domain';

type Wallet = CurrentUserResponse['user']['balances'][number];

/** The caller's real wallets: deposits and withdrawals never touch a demo wallet (client-area §5). */
export const realWallets = (current: CurrentUserResponse): Wallet[] =>
  current.user.balances.filter((b) => b.mode === 'real');

/** The wallet a money form starts on: the active one when it is real, else the first real one. */
export function defaultWalletId(current: CurrentUserResponse): string {
  const active = current.activeBalance;
  const real = realWallets(current);
  const id = active && real.some((b) => b.id === active.id) ? active.id : real[0]?.id;
  return id === undefined ? '' : String(id);
}

/** "USD · Available $4,750.00 · On Hold $250.00": balance minus margin is available, the margin is on hold (§3). */
export function walletLabel(w: Wallet, t: (key: string) => string): string {
  const available = formatMoney(dec(w.balance).minus(w.margin), w.currency);
  const held = dec(w.margin).gt(0) ? ` · ${t('On Hold')} ${formatMoney(w.margin, w.currency)}` : '';
  return `${w.currency} ${t('Real')} · ${t('Available')} ${available}${held}`;
}

/** The real-wallet picker of the deposit and withdraw forms. */
export function WalletSelect({
  wallets,
  value,
  onChange,
  error,
}: {
  wallets: Wallet[];
  value: string;
  onChange: (id: string) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('Wallet')}
      required
      data={wallets.map((b) => ({ value: String(b.id), label: walletLabel(b, t) }))}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      error={error}
      allowDeselect={false}
      nothingFoundMessage={t('You have no real wallet')}
      data-testid="wallet-select"
    />
  );
}
