import { useMemo, useState } from 'react';
import { Button, Code, Group, Popover, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { AuditEntryDto } from '@platform/domain';
import { apiGet } from '../../../api/client.ts';
import { DataTable, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { DayMonthYearInput } from '../../../ui/DayMonthYearInput.tsx';

export const AUDIT_URL = '/admin/audit/api';
const iso = (d: string | null) => (d ? dayjs(d).format('YYYY-MM-DD') : undefined);

/** The keys whose values differ between two snapshots, for the compact "what changed" cell. */
export function changedKeys(before: unknown, after: unknown): string[] {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  if (typeof b !== 'object' || typeof a !== 'object') return [];
  return [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]),
  );
}

function ChangeCell({ entry }: { entry: AuditEntryDto }) {
  const { t } = useTranslation();
  const keys = changedKeys(entry.before, entry.after);
  if (entry.before == null && entry.after == null) return null;
  return (
    <Popover width={420} position="bottom-start" shadow="md">
      <Popover.Target>
        <Button size="compact-xs" variant="light">
          {keys.length ? keys.slice(0, 3).join(', ') + (keys.length > 3 ? '…' : '') : t('Details')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4}>
          <Text size="xs" fw={600}>
            {t('Before')}
          </Text>
          <Code block>{JSON.stringify(entry.before, null, 2) ?? '-'}</Code>
          <Text size="xs" fw={600}>
            {t('After')}
          </Text>
          <Code block>{JSON.stringify(entry.after, null, 2) ?? '-'}</Code>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * Audit Log (/admin/audit, admins): every staff action with who, on whom or what, the change and the address,
 * filtered by actor, subject, action and dates and exported to CSV. The product offers no way to edit or remove a row.
 */
export function AuditLogPage() {
  const { t } = useTranslation();
  const [actor, setActor] = useState('');
  const [subject, setSubject] = useState('');
  const [action, setAction] = useState<string | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [debounced] = useDebouncedValue({ actor, subject }, 600);
  const actions = useQuery({
    queryKey: ['admin', 'audit-actions'],
    queryFn: () => apiGet<{ data: string[] }>('/admin/audit/actions'),
  });

  const columns = useMemo<DataTableColumn<AuditEntryDto>[]>(
    () => [
      { key: 'created_at', label: t('TIME'), type: 'date', sortable: true },
      { key: 'actor.email', label: t('ACTOR') },
      { key: 'action', label: t('ACTION'), sortable: true },
      {
        key: 'subject',
        label: t('SUBJECT'),
        render: (e) =>
          [e.target?.email, e.subject_type && `${e.subject_type}${e.subject_id === null ? '' : ` #${e.subject_id}`}`]
            .filter(Boolean)
            .join(' · ') || null,
      },
      { key: 'change', label: t('CHANGE'), render: (e) => <ChangeCell entry={e} /> },
      { key: 'ip', label: t('IP') },
    ],
    [t],
  );

  const filters = {
    actor: debounced.actor.trim(),
    subject: debounced.subject.trim(),
    action: action ?? undefined,
    from: iso(from),
    to: iso(to),
  };
  const filterBar = (
    <Group gap="xs" wrap="wrap">
      <TextInput
        aria-label={t('Actor')}
        placeholder={t('Actor (email or id)')}
        value={actor}
        onChange={(e) => setActor(e.currentTarget.value)}
        w={190}
      />
      <TextInput
        aria-label={t('Subject')}
        placeholder={t('Subject (email, id, order:42)')}
        value={subject}
        onChange={(e) => setSubject(e.currentTarget.value)}
        w={210}
      />
      <Select
        aria-label={t('Action')}
        placeholder={t('Any action')}
        data={actions.data?.data ?? []}
        value={action}
        onChange={setAction}
        clearable
        searchable
        w={200}
      />
      <DayMonthYearInput
        aria-label={t('From')}
        placeholder={t('From')}
        value={from}
        onChange={setFrom}
        clearable
        w={140}
      />
      <DayMonthYearInput aria-label={t('To')} placeholder={t('To')} value={to} onChange={setTo} clearable w={140} />
    </Group>
  );
  return (
    <DataTable<AuditEntryDto>
      url={AUDIT_URL}
      columns={columns}
      filters={filters}
      searchable={false}
      toolbar={filterBar}
      exportable
    />
  );
}
