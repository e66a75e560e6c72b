import { useCallback } from 'react';
import { ActionIcon, Group, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, type CallLogResponse, type TaskItem, type TaskListResponse } from '@platform/domain';
import { apiGet, apiPost, errorMessage } from '../../../api/client.ts';
import { StatusChip } from '../../../ui/data-table/index.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

export const TASK_STATE_COLOR: Record<TaskItem['state'], 'blue' | 'red' | 'green'> = {
  open: 'blue',
  missed: 'red',
  done: 'green',
};

const duration = (s: number | null) => (s === null ? null : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`);

/** Marks a task done (POST /admin/crm/tasks/{id}/done) and refreshes every task and lead list. */
export function useCompleteTask() {
  const { t } = useTranslation();
  const client = useQueryClient();
  return useCallback(
    async (task: TaskItem) => {
      try {
        await apiPost(`/admin/crm/tasks/${task.id}/done`);
        toastSuccess(t('Task marked done'));
        await Promise.all([
          client.invalidateQueries({ queryKey: ['list'] }),
          client.invalidateQueries({ queryKey: ['crm', 'tasks'] }),
        ]);
      } catch (err) {
        toastError(errorMessage(err, t('Something went wrong')));
      }
    },
    [t, client],
  );
}

/** The lead's call log (who called, when, how it went, the outcome recorded) and its call-backs and tasks. */
export function LeadActivity({ leadId }: { leadId: number }) {
  const { t } = useTranslation();
  const complete = useCompleteTask();
  const calls = useQuery({
    queryKey: ['crm', 'calls', leadId],
    queryFn: () => apiGet<CallLogResponse>(`/admin/leads/${leadId}/calls`),
  });
  const tasks = useQuery({
    queryKey: ['crm', 'tasks', 'lead', leadId],
    queryFn: () => apiGet<TaskListResponse>('/admin/crm/tasks', { leadId, view: 'all', limit: 50 }),
  });
  const callRows = calls.data?.data ?? [];
  const taskRows = tasks.data?.data ?? [];
  return (
    <Stack gap="sm">
      <Stack gap={4} data-testid="call-log">
        <Text fw={600} size="sm">
          {t('Call log')}
        </Text>
        <ScrollArea.Autosize mah={140} type="auto">
          {callRows.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('No calls yet')}
            </Text>
          )}
          {callRows.map((c) => (
            <Text key={c.id} size="xs">
              {formatDateTime(c.started_at)} · {c.caller?.full_name ?? c.agent} ·{' '}
              {c.status === 'started' ? t('Call started') : `${t('Call failed')}: ${c.reason ?? '-'}`}
              {c.provider === 'sandbox' ? ` (${t('sandbox')})` : ''}
              {c.duration_s !== null ? ` · ${duration(c.duration_s)}` : ''}
              {c.outcome ? ` · ${t('Outcome')}: ${c.outcome}` : ''}
            </Text>
          ))}
        </ScrollArea.Autosize>
      </Stack>
      <Stack gap={4} data-testid="lead-tasks">
        <Text fw={600} size="sm">
          {t('Call-backs and tasks')}
        </Text>
        <ScrollArea.Autosize mah={140} type="auto">
          {taskRows.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('No tasks yet')}
            </Text>
          )}
          {taskRows.map((task) => (
            <Group key={task.id} gap="xs" wrap="nowrap">
              <StatusChip color={TASK_STATE_COLOR[task.state]} label={t(task.state)} />
              <Text size="xs" style={{ flex: 1 }}>
                {formatDateTime(task.due_at)} · {t(task.kind === 'callback' ? 'Call-back' : 'Task')} ·{' '}
                {task.owner?.full_name ?? '-'}
                {task.note ? ` · ${task.note}` : ''}
              </Text>
              {task.state !== 'done' && (
                <Tooltip label={t('Mark done')}>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    aria-label={t('Mark done')}
                    onClick={() => void complete(task)}
                  >
                    <IconCheck size={14} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          ))}
        </ScrollArea.Autosize>
      </Stack>
    </Stack>
  );
}
