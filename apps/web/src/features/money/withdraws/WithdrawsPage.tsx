import { Center, Loader, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCountries, useCurrentUser } from '../../../api/hooks.ts';
import { PageCard } from '../../../ui/PageCard.tsx';
import { KycNotice, needsKyc } from '../KycNotice.tsx';
import { MoneyHistoryTable } from '../MoneyHistoryTable.tsx';
import { WithdrawForm } from './WithdrawForm.tsx';

/** /withdraws: tabs Withdraw and History with the KYC notice (client-area §2). */
export function WithdrawsPage() {
  const { t } = useTranslation();
  const { data: current } = useCurrentUser();
  const countries = useCountries();
  // A loading view while the user or the country list loads (client-area §2).
  if (!current || countries.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  return (
    <PageCard title={t('Withdraws')}>
      {needsKyc(current, 'withdraw') && <KycNotice text="Please verify KYC to enable withdraw" />}
      <Tabs defaultValue="withdraw" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="withdraw">{t('Withdraw')}</Tabs.Tab>
          <Tabs.Tab value="history">{t('History')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="withdraw">
          <WithdrawForm current={current} />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <MoneyHistoryTable kind="withdraws" />
        </Tabs.Panel>
      </Tabs>
    </PageCard>
  );
}
