import { useMemo, useState } from 'react';
import { Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, type MailDto } from '@platform/domain';
import { DataTable, StatusChip, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { linkify } from './linkify.tsx';

export const MAIL_OUTBOX_URL = '/admin/mail/api';

type MailStatus = { label: string; color: string };

/** Sent once delivered; Failed when delivery was tried and refused; otherwise only stored (no SMTP set up). */
function mailStatus(mail: MailDto): MailStatus {
  if (mail.sent_at) return { label: 'Sent', color: 'green' };
  if (mail.error) return { label: 'Failed', color: 'red' };
  return { label: 'Stored', color: 'gray' };
}

/**
 * Mail Outbox (/admin/mail): every mail the platform wrote. Without SMTP this is where staff read
 * verification and password-reset mails and pass their links on.
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

  const status = viewing ? mailStatus(viewing) : null;

  return (
    <>
      <DataTable<MailDto> url={MAIL_OUTBOX_URL} columns={columns} />
      <Modal opened={viewing !== null} onClose={() => setViewing(null)} size="lg" title={viewing?.subject}>
        {viewing && status && (
          <Stack gap="xs">
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {t('To')}
              </Text>
              <Text size="sm">{viewing.to}</Text>
            </Group>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {t('Date')}
              </Text>
              <Text size="sm">{formatDateTime(viewing.created_at)}</Text>
              <StatusChip label={t(status.label)} color={status.color} />
            </Group>
            {viewing.error && (
              <Text size="sm" c="red">
                {viewing.error}
              </Text>
            )}
            <Divider my="xs" />
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="mail-text">
              {linkify(viewing.text)}
            </Text>
          </Stack>
        )}
      </Modal>
    </>
  );
}
