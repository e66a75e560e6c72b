import { useCallback, useMemo, useState } from 'react';
import { ActionIcon, Anchor, Group, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime, TASK_VIEWS, type TaskItem, type TaskView } from '@platform/domain';
import { useCurrentUser } from '../../../api/hooks.ts';
import { useRealtimeEvent } from '../../../api/realtime.ts';
import { DataTable, StatusChip, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { TASK_STATE_COLOR, useCompleteTask } from './LeadActivity.tsx';

const VIEW_LABELS: Record<TaskView, string> = {
  today: 'Today',
  overdue: 'Overdue',
  upcoming: 'Upcoming',
  done: 'Done',
  all: 'All',
};

/**
 * My Tasks (/admin/tasks): the caller's call-backs and tasks by tab (their team's for managers, everyone's for
 * admins). A reminder arriving refreshes the list; Mark done keeps the task under Done.
 */
export function TasksPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const viewer = useCurrentUser();
  const me = viewer.data?.user;
  const roleId = me?.role_id ?? 0;
  const [view, setView] = useState<TaskView>('today');
  const complete = useCompleteTask();
  // "Today" is the viewer's day.
  const filters = useMemo(() => ({ view, tz: new Date().getTimezoneOffset() }), [view]);
  useRealtimeEvent(me ? `user:${me.id}` : null, () => void client.invalidateQueries({ queryKey: ['list'] }));

  const whoOf = useCallback(
    (task: TaskItem) =>
      task.lead ? (
        task.lead.name
      ) : task.customer && (roleId === 1 || roleId === 2) ? (
        <Anchor component={Link} to={`/admin/customers/edit/${task.customer.id}`} size="sm">
          {task.customer.full_name}
        </Anchor>
      ) : (
        task.customer?.full_name
      ),
    [roleId],
  );
  const doneButton = useCallback(
    (task: TaskItem) =>
      task.state === 'done' ? null : (
        <Tooltip label={t('Mark done')}>
          <ActionIcon variant="subtle" color="teal" aria-label={t('Mark done')} onClick={() => void complete(task)}>
            <IconCheck size={18} />
          </ActionIcon>
        </Tooltip>
      ),
    [t, complete],
  );

  const columns = useMemo<DataTableColumn<TaskItem>[]>(
    () => [
      { key: 'due_at', label: t('DUE'), type: 'date', sortable: true },
      { key: 'lead', label: t('LEAD / CUSTOMER'), render: whoOf },
      {
        key: 'state',
        label: t('STATE'),
        render: (task) => <StatusChip color={TASK_STATE_COLOR[task.state]} label={t(task.state)} />,
      },
      {
        key: 'kind',
        label: t('KIND'),
        render: (task) => t(task.kind === 'callback' ? 'Call-back' : 'Task'),
      },
      { key: 'note', label: t('NOTE'), truncate: 260 },
      {
        key: 'owner',
        label: t('OWNER'),
        hidden: roleId === 5 || roleId === 6,
        render: (task) => task.owner?.full_name,
      },
      { key: 'done_at', label: t('DONE AT'), type: 'date', hidden: view !== 'done' },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (task) => (
          <Group gap={2} wrap="nowrap">
            {doneButton(task)}
          </Group>
        ),
      },
    ],
    [t, roleId, view, whoOf, doneButton],
  );

  return (
    <>
      <Tabs value={view} onChange={(v) => setView((v as TaskView) ?? 'today')} mb="sm">
        {/* On a phone the five tabs scroll sideways rather than wrap onto a second line. */}
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'thin' }}>
          {TASK_VIEWS.map((v) => (
            <Tabs.Tab key={v} value={v} style={{ flexShrink: 0 }}>
              {t(VIEW_LABELS[v])}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <DataTable<TaskItem>
        key={view}
        url="/admin/crm/tasks"
        tableId={`tasks-${view}`}
        columns={columns}
        filters={filters}
        searchable={false}
        card={(task) => (
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" fw={600} truncate>
                {whoOf(task)}
              </Text>
              <StatusChip color={TASK_STATE_COLOR[task.state]} label={t(task.state)} />
            </Group>
            <Text size="xs" c="dimmed">
              {t(task.kind === 'callback' ? 'Call-back' : 'Task')} · {formatDateTime(task.due_at)}
              {roleId !== 5 && roleId !== 6 && task.owner ? ` · ${task.owner.full_name}` : ''}
            </Text>
            {task.note && (
              <Text size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
                {task.note}
              </Text>
            )}
            <Group justify="flex-end">{doneButton(task)}</Group>
          </Stack>
        )}
      />
    </>
  );
}
