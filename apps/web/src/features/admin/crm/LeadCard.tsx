import type { ReactNode } from 'react';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LeadItem } from '@platform/domain';
import { Customer360Figures, OnlineDot } from '../customers/customer360.tsx';

/**
 * A lead on a phone (the data table's card): name with its customer's presence, contact as the viewer may see it,
 * sale status, the customer's figures, and the row's actions.
 */
export function LeadCard({ lead, actions }: { lead: LeadItem; actions: ReactNode }) {
  const { t } = useTranslation();
  const name = [lead.first_name, lead.last_name].filter(Boolean).join(' ');
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
          {lead.customer && <OnlineDot online={lead.customer.online} t={t} />}
          <Text size="sm" fw={600} truncate>
            {name}
          </Text>
        </Group>
        <Badge variant="light" radius="sm" style={{ flexShrink: 0 }}>
          {lead.lead_status}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" style={{ userSelect: lead.masked ? 'none' : undefined }} truncate>
        #{lead.id} · {[lead.email, lead.phone].filter(Boolean).join(' · ') || '-'}
      </Text>
      <Customer360Figures c={lead.customer} t={t} />
      <Group justify="flex-end" mt={4}>
        {actions}
      </Group>
    </Stack>
  );
}
