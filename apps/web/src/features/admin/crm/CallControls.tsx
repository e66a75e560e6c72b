import { useState } from 'react';
import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconPhoneCall } from '@tabler/icons-react';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callAgentStatusColor, type CallAgentsResponse, type LeadItem, type StartCallResponse } from '@platform/domain';
import { apiGet, apiPost, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { StatusChip } from '../../../ui/data-table/index.ts';

/** Voiso's statuses change with every call: read again every 15 s (the server caches them for a few seconds). */
const AGENTS_REFRESH_MS = 15_000;
const agentsKey = ['crm', 'voiso', 'agents'] as const;

export type CallAgents = UseQueryResult<CallAgentsResponse>;

/** GET /admin/crm/voiso/agents: whether click-to-call is on, and the viewer's own call-agent status. */
export function useCallAgents(enabled: boolean): CallAgents {
  return useQuery({
    queryKey: agentsKey,
    queryFn: () => apiGet<CallAgentsResponse>('/admin/crm/voiso/agents'),
    enabled,
    refetchInterval: AGENTS_REFRESH_MS,
    retry: false,
  });
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The viewer's call-agent status chip (spec §2 colours: offline/unavailable danger, available success, on a call warning). */
export function CallAgentChip({ agents }: { agents: CallAgents }) {
  const { t } = useTranslation();
  if (agents.isPending || agents.data?.configured === false) return null;
  const me = agents.data?.me ?? null;
  const chip = agents.isError ? (
    <Tooltip label={errorMessage(agents.error, t('Something went wrong'))}>
      <span>
        <StatusChip color="gray" label={t('Unknown')} />
      </span>
    </Tooltip>
  ) : me ? (
    <StatusChip color={callAgentStatusColor(me.status)} label={t(capitalise(me.status))} />
  ) : (
    <Tooltip label={t('Voiso has no agent with your email address')}>
      <span>
        <StatusChip color="gray" label={t('Not in Voiso')} />
      </span>
    </Tooltip>
  );
  return (
    <Group gap={6} wrap="nowrap" data-testid="call-agent-status">
      <Text size="sm" c="dimmed">
        {t('Call agent')}
      </Text>
      {chip}
    </Group>
  );
}

/**
 * Calls the lead through Voiso (POST /admin/crm/voiso/startCall with the lead's id: the server dials the number,
 * so masked leads are callable too). Disabled, with the reason as its tooltip, while click-to-call is off.
 */
export function CallButton({
  lead,
  agents,
  onStarted,
}: {
  lead: LeadItem;
  agents: CallAgents;
  /** Told once the call started (the row then asks for its outcome). */
  onStarted?: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const off =
    agents.data?.configured === false
      ? (agents.data.message ?? t('Click-to-call is off'))
      : !lead.phone
        ? t('This lead has no phone number')
        : null;
  const startCall = async () => {
    setBusy(true);
    try {
      await apiPost<StartCallResponse>('/admin/crm/voiso/startCall', { leadId: lead.id });
      toastSuccess(t('Call started successfully'));
      onStarted?.();
      void client.invalidateQueries({ queryKey: agentsKey });
    } catch (err) {
      toastError(errorMessage(err, t('Something went wrong')));
    } finally {
      setBusy(false);
    }
  };
  return (
    // A disabled button gets no pointer events: the wrapper carries the tooltip saying why.
    <Tooltip label={off ?? t('Call')}>
      <span data-testid={`call-${lead.id}`}>
        <ActionIcon
          variant="subtle"
          color="green"
          aria-label={t('Call')}
          onClick={startCall}
          disabled={off !== null || agents.isPending}
          loading={busy}
        >
          <IconPhoneCall size={18} />
        </ActionIcon>
      </span>
    </Tooltip>
  );
}
