import { useState } from 'react';
import {
  Button,
  Group,
  Modal,
  PasswordInput,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Textarea,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  formatDateTime,
  type LeadHistoryResponse,
  type LeadItem,
  type LeadNote,
  type LeadNoteResponse,
  type MessageResponse,
} from '@platform/domain';
import { apiGet, apiPost, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { useStaffOfRole } from './LeadForm.tsx';

/** Notes modal (spec §2): a 200 px scrollable list of the lead's notes and a form adding one (POST /admin/crm/note). */
export function NotesModal({
  lead,
  onClose,
  onAdded,
}: {
  lead: LeadItem | null;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { t } = useTranslation();
  const [content, setContent] = useState('');
  const [added, setAdded] = useState<LeadNote[]>([]);
  const [busy, setBusy] = useState(false);
  const notes = [...added, ...(lead?.notes ?? [])];
  const close = () => {
    setAdded([]);
    setContent('');
    onClose();
  };
  const submit = async () => {
    if (!lead) return;
    setBusy(true);
    try {
      const res = await apiPost<LeadNoteResponse>('/admin/crm/note', { content, leadId: lead.id });
      setAdded((a) => [res.note, ...a]);
      setContent('');
      toastSuccess(t('Notes created successfully'));
      onAdded();
    } catch (err) {
      toastError(errorMessage(err, t('Something went wrong')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={lead !== null} onClose={close} size="lg" title={t('Notes')}>
      <Stack gap="md">
        <ScrollArea h={200} type="auto" data-testid="notes-list">
          {notes.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('No data found')}
            </Text>
          ) : (
            <Stack gap="xs">
              {notes.map((n) => (
                <div key={n.id}>
                  <Text size="sm">{n.content}</Text>
                  <Text size="xs" c="dimmed">
                    {n.user?.full_name ?? '-'} · {formatDateTime(n.created_at)}
                  </Text>
                </div>
              ))}
            </Stack>
          )}
        </ScrollArea>
        <Textarea
          label={t('Content')}
          placeholder={t('Enter note')}
          value={content}
          onChange={(e) => setContent(e.currentTarget.value)}
          rows={3}
        />
        <Group justify="flex-end">
          <Button onClick={submit} loading={busy} disabled={busy || content.trim() === ''}>
            {t('Submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Convert Lead modal: "Convert Lead #{id} To User", with the new customer's password. */
export function ConvertModal({
  lead,
  onClose,
  onDone,
}: {
  lead: LeadItem | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setPassword('');
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (!lead) return;
    if (password.length < 8) return setError(t('Password must be at least 8 characters'));
    setBusy(true);
    try {
      await apiPost<MessageResponse>('/admin/leads/convertLeadToUser', { id: lead.id, password });
      toastSuccess(t('Lead converted successfully'));
      close();
      onDone();
    } catch (err) {
      toastError(errorMessage(err, t('Something went wrong')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened={lead !== null}
      onClose={close}
      size="lg"
      title={lead ? t('Convert Lead #{{id}} To User', { id: lead.id }) : ''}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed" data-testid="convert-sign-in-note">
          {t("The customer can sign in at once with the lead's email and this password.")}
        </Text>
        <PasswordInput
          label={t('Password')}
          placeholder={t('Enter password')}
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setError(null);
          }}
          error={error}
        />
        <Group justify="flex-end">
          <Button onClick={submit} loading={busy} disabled={busy}>
            {t('Submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Agent Selector modal: agents (5) or retention agents (6) by full name and email; choosing one picks them. */
export function AgentSelectorModal({
  roleId,
  opened,
  onClose,
  onPick,
  unassign,
}: {
  roleId: 5 | 6;
  opened: boolean;
  onClose: () => void;
  onPick: (agent: { id: number; full_name: string } | null) => void;
  /** Offer "Unassigned" (assignment) or "All agents" (filter) as the first choice. */
  unassign: string;
}) {
  const { t } = useTranslation();
  const agents = useStaffOfRole(roleId, opened);
  const [q, setQ] = useState('');
  const shown = agents.filter((a) => `${a.full_name} ${a.email}`.toLowerCase().includes(q.trim().toLowerCase()));
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={roleId === 5 ? t('Select Agent') : t('Select Retention Agent')}
    >
      <Stack gap="xs">
        <TextInput
          aria-label={t('Search')}
          placeholder={t('Search...')}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
        />
        <UnstyledButton onClick={() => onPick(null)} p="xs">
          <Text size="sm" fw={600}>
            {t(unassign)}
          </Text>
        </UnstyledButton>
        {shown.map((a) => (
          <UnstyledButton key={a.id} onClick={() => onPick(a)} p="xs" aria-label={a.full_name}>
            <Text size="sm" fw={500}>
              {a.full_name}
            </Text>
            <Text size="xs" c="dimmed">
              {a.email}
            </Text>
          </UnstyledButton>
        ))}
      </Stack>
    </Modal>
  );
}

/** Registered-at filter: start and end dates, Clear and Submit (no validation, spec §5). */
export function DateFilterModal({
  opened,
  value,
  onClose,
  onApply,
}: {
  opened: boolean;
  value: { start: string; end: string } | null;
  onClose: () => void;
  onApply: (range: { start: string; end: string } | null) => void;
}) {
  const { t } = useTranslation();
  const [start, setStart] = useState(value?.start ?? '');
  const [end, setEnd] = useState(value?.end ?? '');
  return (
    <Modal opened={opened} onClose={onClose} title={t('Filter by date')}>
      <Stack gap="md">
        <TextInput
          type="date"
          label={t('Start Date')}
          value={start}
          onChange={(e) => setStart(e.currentTarget.value)}
        />
        <TextInput type="date" label={t('End Date')} value={end} onChange={(e) => setEnd(e.currentTarget.value)} />
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => {
              setStart('');
              setEnd('');
              onApply(null);
            }}
          >
            {t('Clear')}
          </Button>
          <Button
            onClick={() =>
              onApply(
                start || end
                  ? { start: start || '2000-01-01', end: end || new Date().toISOString().slice(0, 10) }
                  : null,
              )
            }
          >
            {t('Submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The lead's history (moves, assignments, edits, notes, calls) from the audit trail, shown under the edit form. */
export function LeadTimeline({ leadId }: { leadId: number }) {
  const { t } = useTranslation();
  const history = useQuery({
    queryKey: ['crm', 'history', leadId],
    queryFn: () => apiGet<LeadHistoryResponse>(`/admin/leads/${leadId}/history`),
  });
  const rows = history.data?.data ?? [];
  const describe = (after: unknown) =>
    after && typeof after === 'object'
      ? Object.entries(after as Record<string, unknown>)
          .filter(([k]) => ['group', 'agent_id', 'ret_id', 'lead_status', 'content', 'agent', 'reason'].includes(k))
          .map(([k, v]) => `${k}: ${v ?? '-'}`)
          .join(', ')
      : '';
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        {t('History')}
      </Text>
      <ScrollArea h={160} type="auto">
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('No data found')}
          </Text>
        )}
        {rows.map((r) => (
          <Text key={r.id} size="xs">
            {formatDateTime(r.created_at)} · {r.actor ?? '-'} · {t(r.action)} {describe(r.after)}
          </Text>
        ))}
      </ScrollArea>
    </Stack>
  );
}
