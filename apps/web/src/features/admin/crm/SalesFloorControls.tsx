import { useState } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Menu,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconAlarm, IconCheck, IconFlag, IconPhoneCall, IconChecklist } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import {
  TASK_NOTE_MAX,
  formatDateTime,
  type LeadStatusResponse,
  type NextTask,
  type TaskKind,
  type TaskResponse,
} from '@platform/domain';
import { apiPost, apiPut, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

/**
 * The call's outcome on a lead's row: the configured sales statuses in a menu, one click records one
 * (PUT /admin/leads/{id}/status). Right after a call from that row it opens by itself and stands out, so recording the
 * outcome is the one click that follows the call.
 */
export function OutcomeMenu({
  leadId,
  current,
  statuses,
  prompted,
  onPromptChange,
  onDone,
}: {
  leadId: number;
  current: string;
  statuses: readonly string[];
  /** True right after a call from this row: the menu is open and the button highlighted. */
  prompted: boolean;
  onPromptChange: (open: boolean) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const record = async (status: string) => {
    setBusy(true);
    try {
      await apiPut<LeadStatusResponse>(`/admin/leads/${leadId}/status`, { status });
      toastSuccess(t('Lead status updated successfully'));
      setOpen(false);
      onPromptChange(false);
      onDone();
    } catch (err) {
      toastError(errorMessage(err, t('Something went wrong')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Menu
      opened={open || prompted}
      onChange={(o) => {
        setOpen(o);
        if (!o) onPromptChange(false);
      }}
      position="bottom-end"
      withinPortal
      shadow="md"
    >
      <Menu.Target>
        <Tooltip label={prompted ? t('Record the call outcome') : t('Outcome')} disabled={prompted}>
          <ActionIcon
            variant={prompted ? 'filled' : 'subtle'}
            color={prompted ? 'orange' : 'blue'}
            aria-label={t('Outcome')}
            loading={busy}
            data-testid={`outcome-${leadId}`}
          >
            <IconFlag size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('Call outcome')}</Menu.Label>
        {statuses.map((s) => (
          <Menu.Item
            key={s}
            onClick={() => void record(s)}
            leftSection={s === current ? <IconCheck size={14} /> : <span style={{ width: 14 }} />}
          >
            {s}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The row action that opens the scheduler. */
export function ScheduleButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('Schedule call-back')}>
      <ActionIcon variant="subtle" color="grape" aria-label={t('Schedule call-back')} onClick={onClick}>
        <IconAlarm size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

/** The value of a datetime-local input for an instant, in the browser's zone (seconds only when not zero). */
const localValue = (d: Date) => dayjs(d).format(d.getSeconds() ? 'YYYY-MM-DDTHH:mm:ss' : 'YYYY-MM-DDTHH:mm');

/** Who or what a task is scheduled on. */
export type TaskTarget = { leadId: number; name: string } | { customerId: number; name: string };

/**
 * Schedule a call-back or task (POST /admin/crm/tasks): kind, when (quick picks or any date and time), a note. The
 * reminder comes as a notification at that time.
 */
export function ScheduleTaskModal({
  target,
  onClose,
  onSaved,
}: {
  target: TaskTarget | null;
  onClose: () => void;
  onSaved?: () => void;
}) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<TaskKind>('callback');
  const [when, setWhen] = useState(() => localValue(dayjs().add(1, 'hour').startOf('minute').toDate()));
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setNote('');
    setError(null);
    onClose();
  };
  const quick = [
    { label: t('In 15 minutes'), at: () => dayjs().add(15, 'minute').startOf('minute') },
    { label: t('In 1 hour'), at: () => dayjs().add(1, 'hour').startOf('minute') },
    { label: t('Tomorrow 10:00'), at: () => dayjs().add(1, 'day').hour(10).minute(0) },
  ];
  const submit = async () => {
    if (!target) return;
    const at = dayjs(when);
    if (!when || !at.isValid()) return setError(t('Choose a date and time'));
    setBusy(true);
    try {
      await apiPost<TaskResponse>('/admin/crm/tasks', {
        ...('leadId' in target ? { leadId: target.leadId } : { customerId: target.customerId }),
        kind,
        dueAt: at.toISOString(),
        note: note.trim() || undefined,
      });
      toastSuccess(t('Task scheduled successfully'));
      close();
      onSaved?.();
    } catch (err) {
      setError(errorMessage(err, t('Something went wrong')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened={target !== null}
      onClose={close}
      title={target ? t('Schedule for {{name}}', { name: target.name }) : ''}
    >
      <Stack gap="md">
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as TaskKind)}
          data={[
            { value: 'callback', label: t('Call-back') },
            { value: 'task', label: t('Task') },
          ]}
        />
        <Group gap="xs">
          {quick.map((q) => (
            <Button key={q.label} size="xs" variant="light" onClick={() => setWhen(localValue(q.at().toDate()))}>
              {q.label}
            </Button>
          ))}
        </Group>
        <TextInput
          type="datetime-local"
          step={1}
          label={t('When')}
          value={when}
          onChange={(e) => {
            setWhen(e.currentTarget.value);
            setError(null);
          }}
          error={error}
        />
        <Textarea
          label={t('Note')}
          value={note}
          maxLength={TASK_NOTE_MAX}
          onChange={(e) => setNote(e.currentTarget.value)}
          rows={3}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('Cancel')}
          </Button>
          <Button onClick={submit} loading={busy}>
            {t('Schedule')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A due time in few characters: the time alone today, else day/month and time (the whole date on hover). */
function shortTime(iso: string): string {
  const d = dayjs(iso);
  return d.isSame(dayjs(), 'day')
    ? d.format('h:mm A')
    : d.isSame(dayjs(), 'year')
      ? d.format('DD/MM[\n]h:mm A')
      : formatDateTime(iso);
}

/** A lead row's next call-back or task: when, red once missed, the note and owner on hover. */
export function NextTaskCell({ task }: { task: NextTask | null | undefined }) {
  const { t } = useTranslation();
  if (!task) return null;
  const missed = dayjs(task.due_at).isBefore(dayjs());
  const Icon = task.kind === 'callback' ? IconPhoneCall : IconChecklist;
  return (
    <Tooltip
      label={[task.note, task.owner].filter(Boolean).join(' · ') || t(task.kind === 'callback' ? 'Call-back' : 'Task')}
    >
      <Group gap={4} wrap="nowrap" align="flex-start" data-testid="next-task">
        <Icon size={14} color={missed ? 'var(--mantine-color-red-5)' : undefined} />
        {/* The day above the time: a narrow column beside the row's actions at 1440 px. */}
        <Text size="xs" c={missed ? 'red' : undefined} title={formatDateTime(task.due_at)}>
          {shortTime(task.due_at)
            .split('\n')
            .map((line) => (
              <span key={line} style={{ display: 'block', whiteSpace: 'nowrap' }}>
                {line}
              </span>
            ))}
        </Text>
      </Group>
    </Tooltip>
  );
}
