import { Center, Loader, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../api/hooks.ts';
import { PageCard } from '../../../ui/PageCard.tsx';
import { KycNotice, needsKyc } from '../KycNotice.tsx';
import { MoneyHistoryTable } from '../MoneyHistoryTable.tsx';
import { defaultWalletId, realWallets } from '../WalletSelect.tsx';
import { DepositForm } from './DepositForm.tsx';
import { DepositResultModal } from './DepositResultModal.tsx';

/** /deposits: tabs Deposit and History, the KYC notice and the result modal of a returning payment (client-area §2). */
export function DepositsPage() {
  const { t } = useTranslation();
  const { data: current } = useCurrentUser();
  if (!current)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  // The amount of a returning payment is in the wallet the form deposits to by default.
  const wallet = realWallets(current).find((b) => String(b.id) === defaultWalletId(current));
  const currency = wallet?.currency ?? current.activeBalance?.currency ?? '';
  return (
    <PageCard title={t('Deposits')}>
      {needsKyc(current, 'deposit') && <KycNotice text="Please verify KYC to enable deposit" />}
      <Tabs defaultValue="deposit" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="deposit">{t('Deposit')}</Tabs.Tab>
          <Tabs.Tab value="history">{t('History')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="deposit">
          <DepositForm current={current} />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <MoneyHistoryTable kind="deposits" />
        </Tabs.Panel>
      </Tabs>
      <DepositResultModal currency={currency} />
    </PageCard>
  );
}
