import { Alert, Button, Group, Modal, Stack, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PartnerClientDto, PartnerCommissionDto, PartnerNodeDto } from '@platform/domain';
import { apiGet, apiUrl, errorMessage } from '../../../api/client.ts';
import { ResponsiveList } from '../../../ui/responsive-list/index.ts';
import { cardOf, clientColumns, commissionColumns } from '../../partners/partnerColumns.tsx';

type Page<T> = { data: T[]; meta: { total: number } };

/** A partner's clients and their last 30 days of commissions, as admins read them (Partners → Partner tree). */
export function PartnerDetail({ partner, onClose }: { partner: PartnerNodeDto; onClose: () => void }) {
  const { t } = useTranslation();
  const clients = useQuery({
    queryKey: ['admin', 'partners', partner.userId, 'clients'],
    queryFn: () => apiGet<Page<PartnerClientDto>>(`/admin/partners/${partner.userId}/clients`, { limit: 100 }),
  });
  const commissions = useQuery({
    queryKey: ['admin', 'partners', partner.userId, 'commissions'],
    queryFn: () => apiGet<Page<PartnerCommissionDto>>(`/admin/partners/${partner.userId}/commissions`, { limit: 100 }),
  });
  const error = clients.error ?? commissions.error;
  const clientCols = clientColumns(t, true);
  const commissionCols = commissionColumns(t, true);
  return (
    <Modal opened onClose={onClose} title={partner.name} size="xl">
      <Stack>
        {error && <Alert color="red">{errorMessage(error)}</Alert>}
        <Title order={5}>{`${t('Clients')} (${clients.data?.meta.total ?? 0})`}</Title>
        <ResponsiveList
          rows={clients.data?.data ?? []}
          columns={clientCols}
          card={cardOf(clientCols)}
          rowKey={(c) => c.id}
          rowTestId={(c) => `partner-client-${c.id}`}
          emptyText={t('No clients yet')}
        />
        <Group justify="space-between">
          <Title order={5}>{t('Commission, last 30 days')}</Title>
          <Button
            component="a"
            size="xs"
            variant="default"
            leftSection={<IconDownload size={14} />}
            href={apiUrl(`/admin/partners/${partner.userId}/commissions`, { format: 'csv' })}
          >
            CSV
          </Button>
        </Group>
        <ResponsiveList
          rows={commissions.data?.data ?? []}
          columns={commissionCols}
          card={cardOf(commissionCols)}
          rowKey={(c) => c.id}
          rowTestId={(c) => `commission-${c.id}`}
          emptyText={t('No commission in this period')}
        />
      </Stack>
    </Modal>
  );
}
