import { useCallback, useMemo, useState } from 'react';
import { ActionIcon, Button, Group, Loader, Modal, Select, Stack, Tooltip } from '@mantine/core';
import {
  IconArrowRight,
  IconCalendar,
  IconCopy,
  IconEye,
  IconNotes,
  IconPencil,
  IconTrash,
  IconUserPlus,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ALL_STATUSES, notePreview, statusToUrl, type LeadItem, type MessageResponse } from '@platform/domain';
import { apiDelete, apiPut, errorMessage } from '../../../api/client.ts';
import { useCurrentUser } from '../../../api/hooks.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import {
  AddNewButton,
  ConfirmPopover,
  DataTable,
  type DataTableColumn,
  type RowKey,
} from '../../../ui/data-table/index.ts';
import { LeadForm } from './LeadForm.tsx';
import { UploadLeadsButton } from './UploadLeads.tsx';
import { CallAgentChip, CallButton, useCallAgents } from './CallControls.tsx';
import { AgentSelectorModal, ConvertModal, DateFilterModal, LeadTimeline, NotesModal } from './LeadModals.tsx';
import { useSalesStatuses } from './useSalesStatuses.ts';

/** The CRM lead screens (back-office §2) and the data url each reads. */
export type LeadScreen =
  | { kind: 'sales'; type: 'all' | 'manual' | 'live' }
  | { kind: 'new'; type: 'live' | 'manual' }
  | { kind: 'clients' }
  | { kind: 'retentions' }
  | { kind: 'archived' }
  | { kind: 'affiliate' };

type Range = { start: string; end: string } | null;
type Group3 = 'sales' | 'retentions' | 'archived';

/** The list url: status (spaces as underscores) and the optional date range are path segments (spec §2). */
export function leadsUrl(screen: LeadScreen, status: string, range: Range): string {
  const s = encodeURIComponent(statusToUrl(status));
  const tail = range ? `/${range.start}/${range.end}` : '';
  switch (screen.kind) {
    case 'sales':
      return `/affiliate/leads/api/sales/${s}/${screen.type}${tail}`;
    case 'new':
      return `/affiliate/leads/api/new/${s}/${screen.type}${tail}`;
    case 'affiliate':
      return '/affiliate/leads/api';
    default:
      return `/affiliate/leads/api/${screen.kind}/${s}${tail}`;
  }
}

/** Bulk moves each screen offers (spec §2, §4); agents never send to sales (§6). */
function bulkMoves(screen: LeadScreen, agent: boolean): Array<{ group: Group3; label: string }> {
  const toSales = { group: 'sales' as const, label: 'Send to Sales' };
  const toRet = { group: 'retentions' as const, label: 'Send to Retentions' };
  const archive = { group: 'archived' as const, label: 'Bulk archive' };
  const moves = (() => {
    switch (screen.kind) {
      case 'sales':
        return [toRet, archive];
      case 'clients':
        return [toSales, toRet, archive];
      case 'archived':
        return [{ group: 'sales' as const, label: 'Bulk Remove Archive' }];
      case 'retentions':
      case 'new':
        return [toSales, archive];
      case 'affiliate':
        return agent ? [] : [archive];
    }
  })();
  return agent ? moves.filter((m) => m.group !== 'sales') : moves;
}

export function LeadsPage({ screen }: { screen: LeadScreen }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const viewer = useCurrentUser();
  const roleId = viewer.data?.user.role_id ?? 0;
  const agent = roleId === 5 || roleId === 6;
  const affiliate = roleId === 4;
  const staff = roleId === 1 || roleId === 2;
  const statuses = useSalesStatuses();
  // Click-to-call for everyone working leads (spec §2); affiliates only bring them.
  const caller = staff || agent;
  const callAgents = useCallAgents(caller);

  const [status, setStatus] = useState<string>(ALL_STATUSES);
  const [range, setRange] = useState<Range>(null);
  const [dates, setDates] = useState(false);
  const [selected, setSelected] = useState<RowKey[]>([]);
  const [filterAgent, setFilterAgent] = useState<{ id: number; full_name: string } | null>(null);
  const [picker, setPicker] = useState<'filter' | 'assign' | null>(null);
  const [editing, setEditing] = useState<LeadItem | 'new' | null>(null);
  const [notesOf, setNotesOf] = useState<LeadItem | null>(null);
  const [converting, setConverting] = useState<LeadItem | null>(null);

  const url = leadsUrl(screen, status, range);
  const agentRole: 5 | 6 = screen.kind === 'retentions' ? 6 : 5;
  const filterKey = screen.kind === 'retentions' ? 'retId' : 'agentId';
  const filters = useMemo(
    () => ({
      ...(filterAgent ? { [filterKey]: filterAgent.id } : {}),
      ...(screen.kind === 'affiliate'
        ? {
            status: status === ALL_STATUSES ? undefined : statusToUrl(status),
            startDate: range?.start,
            endDate: range?.end,
          }
        : {}),
    }),
    [filterAgent, filterKey, screen.kind, status, range],
  );
  const refresh = useCallback(() => client.invalidateQueries({ queryKey: ['list'] }), [client]);

  const bulk = async (data: Record<string, unknown>, success: string) => {
    try {
      await apiPut<MessageResponse>('/admin/leads/bulk', { ids: selected, data });
      toastSuccess(t(success));
      setSelected([]);
      await refresh();
    } catch (err) {
      toastError(errorMessage(err, t('Something went wrong')));
    }
  };

  const remove = useCallback(
    async (l: LeadItem) => {
      try {
        await apiDelete(affiliate ? `/affiliate/leads/${l.id}` : `/admin/leads/${l.id}`);
        toastSuccess(t('Lead deleted successfully'));
        await refresh();
      } catch {
        toastError(t('Something went wrong'));
      }
    },
    [affiliate, refresh, t],
  );

  const copyPhone = useCallback(
    async (phone: string) => {
      // Claimed only once the browser took it (no clipboard outside HTTPS, or permission refused).
      try {
        if (!navigator.clipboard) throw new Error('no clipboard');
        await navigator.clipboard.writeText(phone);
        toastSuccess(t('Phone number copied to clipboard'));
      } catch {
        toastError(t('Something went wrong'));
      }
    },
    [t],
  );

  const columns = useMemo<DataTableColumn<LeadItem>[]>(() => {
    const canDelete = staff || affiliate;
    const canEdit = staff || agent;
    const actions = (l: LeadItem) => (
      <Group gap={2} wrap="nowrap">
        {l.linked ? (
          <Tooltip label={t('View User')}>
            <ActionIcon
              variant="subtle"
              aria-label={t('View User')}
              onClick={() => navigate(`/admin/customers/edit/${l.linked!.id}`)}
              disabled={affiliate || roleId === 5}
            >
              <IconEye size={18} />
            </ActionIcon>
          </Tooltip>
        ) : (
          !affiliate && (
            <Tooltip label={t('Convert')}>
              <ActionIcon variant="subtle" color="teal" aria-label={t('Convert')} onClick={() => setConverting(l)}>
                <IconArrowRight size={18} />
              </ActionIcon>
            </Tooltip>
          )
        )}
        {canEdit && (
          <Tooltip label={t('Edit')}>
            <ActionIcon variant="subtle" aria-label={t('Edit')} onClick={() => setEditing(l)}>
              <IconPencil size={18} />
            </ActionIcon>
          </Tooltip>
        )}
        {canDelete && (
          <ConfirmPopover message={t('Are you sure to delete this lead?')} onConfirm={() => remove(l)}>
            <ActionIcon variant="subtle" color="red" aria-label={t('Delete')}>
              <IconTrash size={18} />
            </ActionIcon>
          </ConfirmPopover>
        )}
        {!affiliate && (
          <Tooltip label={t('Notes')}>
            <ActionIcon variant="subtle" aria-label={t('Notes')} onClick={() => setNotesOf(l)}>
              <IconNotes size={18} />
            </ActionIcon>
          </Tooltip>
        )}
        {caller && <CallButton lead={l} agents={callAgents} />}
        {l.phone && !l.masked && (
          <Tooltip label={t('Phone')}>
            <ActionIcon variant="subtle" aria-label={t('Phone')} onClick={() => copyPhone(l.phone!)}>
              <IconCopy size={18} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    );
    const name = (p: { full_name: string } | null) => p?.full_name;
    // The spec's columns in the spec's order; the secondary ones start hidden so the sale status and actions fit at
    // 1440 px (the retention screen shows its retention agent instead of the sale agent), and the table's column
    // chooser shows the others.
    return [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      { key: 'first_name', label: t('FIRST NAME'), sortable: true },
      { key: 'last_name', label: t('LAST NAME'), sortable: true },
      // Masked values are shown, never offered for copying.
      {
        key: 'email',
        label: t('EMAIL'),
        sortable: true,
        truncate: 150,
        render: (l) => (l.masked ? <span style={{ userSelect: 'none' }}>{l.email}</span> : l.email),
      },
      {
        key: 'phone',
        label: t('PHONE'),
        render: (l) =>
          l.phone ? (
            <span style={{ whiteSpace: 'nowrap', userSelect: l.masked ? 'none' : undefined }}>{l.phone}</span>
          ) : null,
      },
      {
        key: 'notes',
        label: t('NOTES'),
        render: (l) => (l.notes[0] ? notePreview(l.notes[0].content) : null),
        hidden: true,
      },
      { key: 'country', label: t('COUNTRY'), sortable: true, truncate: 110 },
      { key: 'lead_status', label: t('SALE STATUS'), sortable: true },
      { key: 'group', label: t('GROUP'), sortable: true, render: (l) => t(l.group), hidden: true },
      {
        key: 'manager',
        label: t('SALE MANAGER'),
        hidden: true,
        sortable: true,
        render: (l) => name(l.manager),
        sortValue: (l) => name(l.manager),
      },
      {
        key: 'agent',
        label: t('SALE AGENT'),
        hidden: screen.kind === 'retentions',
        sortable: true,
        render: (l) => name(l.agent),
        sortValue: (l) => name(l.agent),
      },
      { key: 'actions', label: t('ACTIONS'), render: actions },
      { key: 'created_at', label: t('REGISTERED AT'), sortable: true, type: 'date', hidden: true },
      { key: 'city', label: t('CITY'), sortable: true, hidden: true },
      {
        key: 'retAgent',
        label: t('RETENTION AGENT'),
        hidden: screen.kind !== 'retentions',
        sortable: true,
        render: (l) => name(l.retAgent),
        sortValue: (l) => name(l.retAgent),
      },
      { key: 'deposited_at', label: t('DEPOSITED AT'), sortable: true, type: 'date', hidden: true },
      { key: 'last_access', label: t('LAST ACCESS'), sortable: true, type: 'date', hidden: true },
      { key: 'funnel_link', label: t('FUNNEL LINK'), hidden: true },
      { key: 'reference', label: t('AFFILIATE REFERENCE'), sortable: true, hidden: true },
      { key: 'lead_source_id', label: t('LEAD SOURCE ID'), sortable: true, hidden: true },
      { key: 'ftd_at', label: t('FTD AT'), sortable: true, type: 'date', hidden: true },
      {
        key: 'user',
        label: t('AFFILIATOR'),
        hidden: true,
        sortable: true,
        render: (l) => name(l.user),
        sortValue: (l) => name(l.user),
      },
      { key: 'role_id', label: t('ROLE'), render: (l) => (l.role_id === 3 ? t('Customer') : t('N/A')), hidden: true },
    ];
  }, [t, staff, affiliate, agent, caller, callAgents, roleId, navigate, remove, copyPhone, screen.kind]);

  // A loading view while the current user loads: what the toolbar offers depends on the role.
  if (viewer.isLoading) return <Loader aria-label={t('Loading...')} />;

  const none = selected.length === 0;
  const moves = bulkMoves(screen, agent || affiliate);
  const assignable = staff && (screen.kind === 'sales' || screen.kind === 'retentions');
  const addable = (staff || affiliate) && (screen.kind === 'new' || screen.kind === 'affiliate');
  const toolbar = (
    <Group gap="xs">
      <Select
        aria-label={t('Status')}
        data={[
          { value: ALL_STATUSES, label: t('All') },
          ...statuses.map((s) => ({ value: s.status, label: s.status })),
        ]}
        value={status}
        allowDeselect={false}
        onChange={(v) => {
          setStatus(v ?? ALL_STATUSES);
          setSelected([]);
        }}
        w={160}
      />
      <Button
        variant={range ? 'filled' : 'default'}
        leftSection={<IconCalendar size={16} />}
        onClick={() => setDates(true)}
      >
        {range ? `${range.start} – ${range.end}` : t('Registered At')}
      </Button>
      {assignable && (
        <Button variant="default" onClick={() => setPicker('filter')}>
          {filterAgent ? filterAgent.full_name : t('Filter Agent')}
        </Button>
      )}
      {assignable && (
        <Button
          variant="default"
          leftSection={<IconUserPlus size={16} />}
          disabled={none}
          onClick={() => setPicker('assign')}
        >
          {screen.kind === 'retentions' ? t('Assign Retention Agent') : t('Assign Agent')}
        </Button>
      )}
      {moves.map((m) => (
        <Button
          key={m.label}
          variant="light"
          disabled={none}
          onClick={() => bulk({ group: m.group }, 'Lead moved successfully')}
        >
          {t(m.label)}
        </Button>
      ))}
      {addable && <UploadLeadsButton onImported={() => void refresh()} />}
      {addable && <AddNewButton onClick={() => setEditing('new')} />}
      {caller && <CallAgentChip agents={callAgents} />}
    </Group>
  );

  return (
    <>
      <DataTable<LeadItem>
        url={url}
        columns={columns}
        filters={filters}
        selection={{ selected, onChange: setSelected }}
        toolbar={toolbar}
        exportable
      />
      <DateFilterModal
        opened={dates}
        value={range}
        onClose={() => setDates(false)}
        onApply={(r) => {
          setRange(r);
          setDates(false);
          setSelected([]);
        }}
      />
      <AgentSelectorModal
        roleId={agentRole}
        opened={picker !== null}
        unassign={picker === 'filter' ? 'All agents' : 'Unassigned'}
        onClose={() => setPicker(null)}
        onPick={(a) => {
          if (picker === 'filter') {
            setFilterAgent(a);
            setSelected([]);
          } else void bulk({ [agentRole === 6 ? 'retId' : 'agentId']: a ? a.id : -2 }, 'Agents assigned successfully');
          setPicker(null);
        }}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="lg"
        title={editing === 'new' ? t('Add Lead') : t('Edit Lead')}
      >
        {editing !== null && (
          <Stack gap="lg">
            <LeadForm
              lead={editing === 'new' ? undefined : editing}
              viewerRoleId={roleId}
              onCancel={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                void refresh();
              }}
            />
            {editing !== 'new' && <LeadTimeline leadId={editing.id} />}
          </Stack>
        )}
      </Modal>
      <NotesModal lead={notesOf} onClose={() => setNotesOf(null)} onAdded={() => void refresh()} />
      <ConvertModal lead={converting} onClose={() => setConverting(null)} onDone={() => void refresh()} />
    </>
  );
}
