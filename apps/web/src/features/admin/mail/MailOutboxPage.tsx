import { useMemo, useState } from 'react';
import { Alert, Button } from '@mantine/core';
import { IconEye, IconMailOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MailDeliveryResponse, MailDto } from '@platform/domain';
import { apiGet } from '../../../api/client.ts';
import { DataTable, StatusChip, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { mailStatus, MailView } from './MailView.tsx';

export const MAIL_OUTBOX_URL = '/admin/mail/api';

/** Without SMTP the outbox is the only way to get at sign-in links: fine to try the platform, not to run it. */
function OfflineNotice() {
  const { t } = useTranslation();
  const delivery = useQuery({
    queryKey: ['admin', 'mail', 'delivery'],
    queryFn: () => apiGet<MailDeliveryResponse>('/admin/mail/delivery'),
  });
  if (delivery.data?.mode !== 'offline') return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconMailOff size={18} />}
      mb="md"
      title={t('Offline mail: for evaluation only')}
      data-testid="mail-offline-notice"
    >
      {t(
        'No SMTP server is set up, so mail is not sent. Verification and password-reset links are shown here only for evaluation, and every opening of a mail with a live link is recorded in the audit log.',
      )}
    </Alert>
  );
}

/**
 * Mail Outbox (/admin/mail): every mail the platform wrote. The list never shows sign-in links; with SMTP they
 * go by email only, without it an admin opens the mail to see one (audited).
 */
export function MailOutboxPage() {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<MailDto | null>(null);

  const columns = useMemo<DataTableColumn<MailDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      { key: 'to', label: t('TO'), sortable: true },
      { key: 'subject', label: t('SUBJECT'), sortable: true },
      {
        key: 'status',
        label: t('STATUS'),
        sortable: true,
        sortValue: (m) => mailStatus(m).label,
        render: (m) => {
          const s = mailStatus(m);
          return <StatusChip label={t(s.label)} color={s.color} />;
        },
      },
      { key: 'created_at', label: t('DATE'), type: 'date', sortable: true },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (m) => (
          <Button size="xs" variant="light" leftSection={<IconEye size={14} />} onClick={() => setViewing(m)}>
            {t('View')}
          </Button>
        ),
      },
    ],
    [t],
  );

  return (
    <>
      <OfflineNotice />
      <DataTable<MailDto> url={MAIL_OUTBOX_URL} columns={columns} />
      <MailView row={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
