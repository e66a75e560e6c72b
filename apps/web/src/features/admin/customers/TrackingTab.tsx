import { useEffect, useState } from 'react';
import { Alert, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime, type TrackEntry } from '@platform/domain';
import { getSocket, useRealtimeEvent } from '../../../api/realtime.ts';

/**
 * Asks the server to relay this customer's page views (`track:watch`, checked against the viewer's scope) while
 * mounted, again after every reconnect, and stops on leaving.
 */
function useWatchCustomer(userId: number): boolean | null {
  const [allowed, setAllowed] = useState<boolean | null>(null);
  useEffect(() => {
    const socket = getSocket();
    const watch = () => {
      socket.emit('track:watch', { userId }, (reply: { ok?: boolean } | undefined) => setAllowed(Boolean(reply?.ok)));
    };
    if (socket.connected) watch();
    socket.on('connect', watch);
    return () => {
      socket.off('connect', watch);
      socket.emit('track:unwatch', { userId });
    };
  }, [userId]);
  return allowed;
}

/** Tracking tab: a live list of the pages the customer opens (url and time); a url already listed is ignored (spec §2). */
export function TrackingTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [entries, setEntries] = useState<TrackEntry[]>([]);
  const allowed = useWatchCustomer(userId);
  useRealtimeEvent<TrackEntry>(`track:${userId}`, (entry) => {
    if (typeof entry?.url !== 'string') return;
    setEntries((prev) => (prev.some((e) => e.url === entry.url) ? prev : [...prev, entry]));
  });
  if (allowed === false) return <Alert color="red">{t('Something went wrong')}</Alert>;
  return (
    <Table striped withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('URL')}</Table.Th>
          <Table.Th>{t('TIME')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.length === 0 ? (
          <Table.Tr>
            <Table.Td colSpan={2}>
              <Text size="sm" c="dimmed" ta="center">
                {t('No data found')}
              </Text>
            </Table.Td>
          </Table.Tr>
        ) : (
          entries.map((e) => (
            <Table.Tr key={e.url}>
              <Table.Td style={{ wordBreak: 'break-all' }}>{e.url}</Table.Td>
              <Table.Td>{formatDateTime(e.time)}</Table.Td>
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
}
