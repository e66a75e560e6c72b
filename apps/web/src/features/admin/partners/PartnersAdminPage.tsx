import { useState } from 'react';
import { Alert, Badge, Button, Group, Select, Stack, Table, Tabs, Text, TextInput } from '@mantine/core';
import { IconDownload, IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { PartnerNodeDto, PartnerPlanDto, PartnerReportRow, StaffUserDto } from '@platform/domain';
import { apiDelete, apiGet, apiPut, apiUrl, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { PartnerDetail } from './PartnerDetail.tsx';
import { PlanForm } from './PlanForm.tsx';

const PLANS = ['admin', 'partners', 'plans'] as const;
const TREE = ['admin', 'partners', 'tree'] as const;

function PlansTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<PartnerPlanDto | 'new' | null>(null);
  const q = useQuery({ queryKey: PLANS, queryFn: () => apiGet<{ data: PartnerPlanDto[] }>('/admin/partners/plans') });
  const remove = async (p: PartnerPlanDto) => {
    try {
      const res = await apiDelete<{ message: string }>(`/admin/partners/plans/${p.id}`);
      toastSuccess(res.message);
      await queryClient.invalidateQueries({ queryKey: PLANS });
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  if (q.error) return <Alert color="red">{errorMessage(q.error)}</Alert>;
  return (
    <Stack>
      <Group justify="flex-end">
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('Add plan')}
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={900}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('NAME')}</Table.Th>
              <Table.Th>{t('PER LOT (FX)')}</Table.Th>
              <Table.Th>{t('SPREAD %')}</Table.Th>
              <Table.Th>{t('COMMISSION %')}</Table.Th>
              <Table.Th>{t('CPA')}</Table.Th>
              <Table.Th>{t('LEVELS %')}</Table.Th>
              <Table.Th>{t('PARTNERS')}</Table.Th>
              <Table.Th>{t('FROM')}</Table.Th>
              <Table.Th>{t('ACTIONS')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(q.data?.data ?? []).map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  {p.name}{' '}
                  {p.archived && (
                    <Badge size="xs" color="gray">
                      {t('Archived')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{`${Number(p.perLot.forex ?? 0)} ${p.currency}`}</Table.Td>
                <Table.Td>{Number(p.spreadShare)}</Table.Td>
                <Table.Td>{Number(p.commissionShare)}</Table.Td>
                <Table.Td>{`${Number(p.cpa)} ≥ ${Number(p.cpaMinDeposit)}`}</Table.Td>
                <Table.Td>{p.levels.map(Number).join(' / ')}</Table.Td>
                <Table.Td>{p.partners}</Table.Td>
                <Table.Td>{p.versions > 1 ? dayjs(p.effectiveFrom).format('YYYY-MM-DD HH:mm') : '–'}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button size="xs" variant="light" disabled={p.archived} onClick={() => setEditing(p)}>
                      {t('Edit')}
                    </Button>
                    <Button size="xs" variant="light" color="red" disabled={p.archived} onClick={() => void remove(p)}>
                      {t('Delete')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {editing && (
        <PlanForm
          plan={editing === 'new' ? null : editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void queryClient.invalidateQueries({ queryKey: PLANS });
          }}
        />
      )}
    </Stack>
  );
}

function TreeTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tree = useQuery({ queryKey: TREE, queryFn: () => apiGet<{ data: PartnerNodeDto[] }>('/admin/partners/tree') });
  const plans = useQuery({
    queryKey: PLANS,
    queryFn: () => apiGet<{ data: PartnerPlanDto[] }>('/admin/partners/plans'),
  });
  const staff = useQuery({
    queryKey: ['admin', 'partners', 'affiliates'],
    queryFn: () => apiGet<{ data: StaffUserDto[] }>('/admin/users/api', { limit: 100 }),
  });
  const [userId, setUserId] = useState<string | null>(null);
  const [planId, setPlanId] = useState<string | null>(null);
  const [parentId, setParentId] = useState<string | null>(null);
  const [open, setOpen] = useState<PartnerNodeDto | null>(null);
  const nodes = tree.data?.data ?? [];
  const affiliates = (staff.data?.data ?? []).filter((u) => u.role_id === 4);
  const save = async () => {
    try {
      await apiPut(`/admin/partners/${userId}`, {
        planId: Number(planId),
        parentId: parentId ? Number(parentId) : null,
      });
      toastSuccess(t('Partner saved'));
      await queryClient.invalidateQueries({ queryKey: TREE });
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  const children = (parent: number | null): PartnerNodeDto[] => nodes.filter((n) => n.parentId === parent);
  const rows: Array<{ node: PartnerNodeDto; depth: number }> = [];
  const walk = (parent: number | null, depth: number, seen: Set<number>) => {
    for (const n of children(parent)) {
      if (seen.has(n.userId)) continue;
      seen.add(n.userId);
      rows.push({ node: n, depth });
      walk(n.userId, depth + 1, seen);
    }
  };
  walk(null, 0, new Set());
  return (
    <Stack>
      <Group align="flex-end" gap="sm">
        <Select
          label={t('Affiliate')}
          searchable
          data={affiliates.map((u) => ({ value: String(u.id), label: `${u.full_name} (${u.email})` }))}
          value={userId}
          onChange={(id) => {
            setUserId(id);
            const node = nodes.find((n) => String(n.userId) === id);
            setPlanId(node ? String(node.planId) : null);
            setParentId(node?.parentId ? String(node.parentId) : null);
          }}
        />
        <Select
          label={t('Plan')}
          data={(plans.data?.data ?? [])
            .filter((p) => !p.archived)
            .map((p) => ({ value: String(p.id), label: p.name }))}
          value={planId}
          onChange={setPlanId}
        />
        <Select
          label={t('Parent partner')}
          clearable
          placeholder={t('None: a top partner')}
          data={nodes
            .filter((n) => String(n.userId) !== userId)
            .map((n) => ({ value: String(n.userId), label: n.name }))}
          value={parentId}
          onChange={setParentId}
        />
        <Button disabled={!userId || !planId} onClick={() => void save()}>
          {t('Save')}
        </Button>
      </Group>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('PARTNER')}</Table.Th>
            <Table.Th>{t('EMAIL')}</Table.Th>
            <Table.Th>{t('PLAN')}</Table.Th>
            <Table.Th>{t('ACTIONS')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(({ node, depth }) => (
            <Table.Tr key={node.userId}>
              <Table.Td style={{ paddingLeft: 12 + depth * 24 }}>{`${depth > 0 ? '└ ' : ''}${node.name}`}</Table.Td>
              <Table.Td>{node.email}</Table.Td>
              <Table.Td>{node.planName}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="light" onClick={() => setOpen(node)}>
                  {t('Clients and earnings')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={4}>
                <Text c="dimmed" size="sm">
                  {t('No partners yet: put an affiliate on a plan above.')}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {open && <PartnerDetail partner={open} onClose={() => setOpen(null)} />}
    </Stack>
  );
}

function ReportTab() {
  const { t } = useTranslation();
  const [dateEnd, setEnd] = useState(dayjs().format('YYYY-MM-DD'));
  const [dateStart, setStart] = useState(dayjs().subtract(29, 'day').format('YYYY-MM-DD'));
  const q = useQuery({
    queryKey: ['admin', 'partners', 'report', dateStart, dateEnd],
    queryFn: () => apiGet<{ data: PartnerReportRow[] }>('/admin/partners/report', { dateStart, dateEnd }),
  });
  return (
    <Stack>
      <Group gap="sm" align="flex-end">
        <TextInput type="date" label={t('From')} value={dateStart} onChange={(e) => setStart(e.currentTarget.value)} />
        <TextInput type="date" label={t('To')} value={dateEnd} onChange={(e) => setEnd(e.currentTarget.value)} />
        <Button
          component="a"
          variant="default"
          leftSection={<IconDownload size={16} />}
          href={apiUrl('/admin/partners/report', { dateStart, dateEnd, format: 'csv' })}
        >
          CSV
        </Button>
      </Group>
      {q.error && <Alert color="red">{errorMessage(q.error)}</Alert>}
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('PARTNER')}</Table.Th>
            <Table.Th>{t('CLIENTS')}</Table.Th>
            <Table.Th>{t('ACTIVE TRADERS')}</Table.Th>
            <Table.Th>{t('LOTS')}</Table.Th>
            <Table.Th>{t('COMMISSION')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(q.data?.data ?? []).map((r) => (
            <Table.Tr key={r.partnerId}>
              <Table.Td>{r.name}</Table.Td>
              <Table.Td>{r.clients}</Table.Td>
              <Table.Td>{r.activeTraders}</Table.Td>
              <Table.Td>{Number(r.lots).toFixed(2)}</Table.Td>
              <Table.Td>
                {r.commission.map((m) => `${Number(m.amount).toFixed(2)} ${m.currency}`).join(' · ') || '0.00'}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** Partners in the back office (/admin/partners, admins): commission plans, the partner tree and the report. */
export function PartnersAdminPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Tabs defaultValue="plans" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="plans">{t('Commission plans')}</Tabs.Tab>
          <Tabs.Tab value="tree">{t('Partner tree')}</Tabs.Tab>
          <Tabs.Tab value="report">{t('Report')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="plans">
          <PlansTab />
        </Tabs.Panel>
        <Tabs.Panel value="tree">
          <TreeTab />
        </Tabs.Panel>
        <Tabs.Panel value="report">
          <ReportTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
