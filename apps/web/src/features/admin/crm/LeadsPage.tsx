import { useCallback, useMemo, useState } from 'react';
import { Button, Group, Loader, Modal, Select, Stack } from '@mantine/core';
import { IconCalendar, IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ALL_STATUSES, notePreview, statusToUrl, type LeadItem, type MessageResponse } from '@platform/domain';
import { apiDelete, apiPut, errorMessage } from '../../../api/client.ts';
import { useCurrentUser } from '../../../api/hooks.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { AddNewButton, DataTable, type DataTableColumn, type RowKey } from '../../../ui/data-table/index.ts';
import { LeadForm } from './LeadForm.tsx';
import { UploadLeadsButton } from './UploadLeads.tsx';
import { CallAgentChip, useCallAgents } from './CallControls.tsx';
import { AgentSelectorModal, ConvertModal, DateFilterModal, LeadTimeline, NotesModal } from './LeadModals.tsx';
import { useSalesStatuses } from './useSalesStatuses.ts';
import { LeadCard } from './LeadCard.tsx';
import { customer360Columns } from '../customers/customer360.tsx';
import { Customer360Filters, NO_CUSTOMER_FILTERS, type Customer360View } from '../customers/Customer360Filters.tsx';
import { usePresence } from '../customers/usePresence.ts';
import { NextTaskCell, ScheduleTaskModal, type TaskTarget } from './SalesFloorControls.tsx';
import { LeadActivity } from './LeadActivity.tsx';
import { LeadRowActions, type LeadRowHandlers } from './LeadRowActions.tsx';

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
  const statusNames = useMemo(() => statuses.map((s) => s.status), [statuses]);
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
  // The row whose call just started: its outcome menu opens by itself. The lead a call-back is being scheduled on.
  const [prompted, setPrompted] = useState<number | null>(null);
  const [scheduling, setScheduling] = useState<TaskTarget | null>(null);
  // Filtered and sorted by the leads' customers' figures on the server (Customer 360; not for affiliates).
  const [view, setView] = useState<Customer360View>(NO_CUSTOMER_FILTERS);
  const presence = usePresence();

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
      ...view.filters,
    }),
    [filterAgent, filterKey, screen.kind, status, range, view.filters],
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

  const columns = useMemo<DataTableColumn<LeadItem>[]>(() => {
    const canDelete = staff || affiliate;
    const canEdit = staff || agent;
    // Customers' rows (clients, retention) are two lines tall (their figures): there the actions take two rows of four,
    // so the list's own columns fit beside them at 1440 px.
    const twoRows = screen.kind === 'clients' || screen.kind === 'retentions';
    const powers = { affiliate, salesAgent: roleId === 5, canEdit, canDelete, caller };
    const handlers: LeadRowHandlers = {
      view: (l) => navigate(`/admin/customers/edit/${l.linked!.id}`),
      convert: setConverting,
      edit: setEditing,
      remove: (l) => void remove(l),
      notes: setNotesOf,
      schedule: (l) => setScheduling({ leadId: l.id, name: [l.first_name, l.last_name].filter(Boolean).join(' ') }),
      prompt: setPrompted,
      refresh: () => void refresh(),
    };
    const actions = (l: LeadItem) => (
      <LeadRowActions
        lead={l}
        twoRows={twoRows}
        powers={powers}
        handlers={handlers}
        callAgents={callAgents}
        statuses={statusNames}
        prompted={prompted === l.id}
      />
    );
    const name = (p: { full_name: string } | null) => p?.full_name;
    const onlineOf = (l: LeadItem) => presence(l.linked?.id ?? 0, l.customer?.online ?? false);
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
        // Narrower where the rows carry the customer column and two rows of actions (the whole address on hover).
        truncate: twoRows ? 115 : 150,
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
      // Where the leads are customers, their figures take the country's place at 1440 px (the chooser shows it); so do
      // the next task and the agent where the row carries every action (admins and managers who call).
      {
        key: 'country',
        label: t('COUNTRY'),
        sortable: true,
        truncate: 110,
        hidden: !affiliate && (screen.kind === 'clients' || screen.kind === 'retentions' || staff),
      },
      { key: 'lead_status', label: t('SALE STATUS'), sortable: true },
      // The customer's presence, live equity and KYC in one column, in view where the leads are customers.
      ...(affiliate
        ? []
        : customer360Columns<LeadItem>(t, (l) => l.customer, {
            only: ['summary'],
            hidden: screen.kind === 'clients' || screen.kind === 'retentions' ? [] : ['summary'],
            onlineOf,
          })),
      {
        key: 'next_task',
        label: t('NEXT TASK'),
        hidden: !caller,
        render: (l) => <NextTaskCell task={l.next_task} />,
        sortValue: (l) => l.next_task?.due_at,
      },
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
      ...(affiliate
        ? []
        : customer360Columns<LeadItem>(t, (l) => l.customer, {
            only: ['balance', 'equity', 'kyc', 'last_login', 'online'],
            hidden: ['balance', 'equity', 'kyc', 'last_login', 'online'],
            onlineOf,
          })),
      // Before the actions, which stay at the right edge.
      {
        key: 'retAgent',
        label: t('RETENTION AGENT'),
        hidden: screen.kind !== 'retentions',
        sortable: true,
        render: (l) => name(l.retAgent),
        sortValue: (l) => name(l.retAgent),
      },
      { key: 'actions', label: t('ACTIONS'), render: actions },
      { key: 'created_at', label: t('REGISTERED AT'), sortable: true, type: 'date', hidden: true },
      { key: 'city', label: t('CITY'), sortable: true, hidden: true },
      { key: 'deposited_at', label: t('DEPOSITED AT'), sortable: true, type: 'date', hidden: true },
      { key: 'last_access', label: t('LAST ACCESS'), sortable: true, type: 'date', hidden: true },
      { key: 'funnel_link', label: t('FUNNEL LINK'), hidden: true },
      { key: 'reference', label: t('AFFILIATE REFERENCE'), sortable: true, hidden: true },
      { key: 'lead_source_id', label: t('LEAD SOURCE ID'), sortable: true, hidden: true },
      affiliate
        ? { key: 'ftd_at', label: t('FTD AT'), sortable: true, type: 'date', hidden: true }
        : customer360Columns<LeadItem>(t, (l) => l.customer, {
            only: ['ftd'],
            hidden: ['ftd'],
            labels: { ftd: t('FTD AT') },
          })[0],
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
  }, [
    t,
    staff,
    affiliate,
    agent,
    caller,
    callAgents,
    roleId,
    navigate,
    remove,
    screen.kind,
    statusNames,
    prompted,
    refresh,
    presence,
  ]);

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
      {/* On a phone the bulk actions show once a row is ticked, not as a column of disabled buttons above the list. */}
      {assignable && (
        <Button
          variant="default"
          leftSection={<IconUserPlus size={16} />}
          disabled={none}
          visibleFrom={none ? 'sm' : undefined}
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
          visibleFrom={none ? 'sm' : undefined}
          onClick={() => bulk({ group: m.group }, 'Lead moved successfully')}
        >
          {t(m.label)}
        </Button>
      ))}
      {addable && <UploadLeadsButton onImported={() => void refresh()} />}
      {addable && <AddNewButton onClick={() => setEditing('new')} />}
      {!affiliate && <Customer360Filters value={view} onChange={setView} />}
      {caller && <CallAgentChip agents={callAgents} />}
    </Group>
  );

  return (
    <>
      <DataTable<LeadItem>
        url={url}
        columns={columns}
        filters={filters}
        serverSort={view.sort}
        onServerSortChange={affiliate ? undefined : (sort) => setView((v) => ({ ...v, sort }))}
        card={(l) => <LeadCard lead={l} actions={columns.find((c) => c.key === 'actions')?.render?.(l)} />}
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
            {editing !== 'new' && caller && <LeadActivity leadId={editing.id} />}
            {editing !== 'new' && <LeadTimeline leadId={editing.id} />}
          </Stack>
        )}
      </Modal>
      <NotesModal lead={notesOf} onClose={() => setNotesOf(null)} onAdded={() => void refresh()} />
      <ConvertModal lead={converting} onClose={() => setConverting(null)} onDone={() => void refresh()} />
      <ScheduleTaskModal target={scheduling} onClose={() => setScheduling(null)} onSaved={() => void refresh()} />
    </>
  );
}
