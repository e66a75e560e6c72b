import { Alert, Divider, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, type MailDto } from '@platform/domain';
import { apiGet, errorMessage } from '../../../api/client.ts';
import { StatusChip } from '../../../ui/data-table/index.ts';
import { linkify } from './linkify.tsx';

type MailStatus = { label: string; color: string };

/** Sent once delivered; Failed when delivery was tried and refused; otherwise only stored (no SMTP set up). */
export function mailStatus(mail: MailDto): MailStatus {
  if (mail.sent_at) return { label: 'Sent', color: 'green' };
  if (mail.error) return { label: 'Failed', color: 'red' };
  return { label: 'Stored', color: 'gray' };
}

/** What the view says about the mail's link, beside its text. */
function LinkNote({ mail }: { mail: MailDto }) {
  const { t } = useTranslation();
  if (mail.link === 'shown')
    return (
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="mail-link-note">
        {t(
          'This link gives whoever opens it the account. Pass it on only to its owner. This opening was recorded in the audit log.',
        )}
      </Alert>
    );
  if (mail.link === 'emailed')
    return (
      <Text size="sm" c="dimmed" data-testid="mail-link-note">
        {t('The link was sent by email only and is not kept here.')}{' '}
        {!mail.link_live && t('It has been used or has expired.')}
      </Text>
    );
  if (mail.link === 'withheld' && !mail.link_live)
    return (
      <Text size="sm" c="dimmed" data-testid="mail-link-note">
        {t('The link has been used or has expired, so it is no longer shown. The customer can ask for a new one.')}
      </Text>
    );
  return null;
}

/**
 * One mail, read from GET /admin/mail/{id}: the list row never carries the link. A read of a live link is
 * audited on the server, so it is fetched on each opening and not again on focus or reconnect.
 */
export function MailView({ row, onClose }: { row: MailDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['admin', 'mail', row?.id],
    queryFn: () => apiGet<MailDto>(`/admin/mail/${row!.id}`),
    enabled: row !== null,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });
  const mail = query.data ?? row;
  const status = mail ? mailStatus(mail) : null;
  // Until the single read answers, the list's text (with the link withheld) would be misleading.
  const loading = row !== null && row.link !== 'none' && !query.data && !query.isError;

  return (
    <Modal opened={row !== null} onClose={onClose} size="lg" title={mail?.subject}>
      {mail && status && (
        <Stack gap="xs">
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('To')}
            </Text>
            <Text size="sm">{mail.to}</Text>
          </Group>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('Date')}
            </Text>
            <Text size="sm">{formatDateTime(mail.created_at)}</Text>
            <StatusChip label={t(status.label)} color={status.color} />
          </Group>
          {mail.error && (
            <Text size="sm" c="red">
              {mail.error}
            </Text>
          )}
          {query.isError && (
            <Text size="sm" c="red">
              {errorMessage(query.error, t('Something went wrong'))}
            </Text>
          )}
          {!loading && <LinkNote mail={mail} />}
          <Divider my="xs" />
          {loading ? (
            <Loader size="sm" />
          ) : (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="mail-text">
              {linkify(mail.text)}
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  );
}
