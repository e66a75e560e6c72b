import { useEffect, useState } from 'react';
import { ActionIcon, Button, Card, Group, NumberInput, Select, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CATEGORIES,
  type AdminInstrumentListResponse,
  type RiskLimitDto,
  type RiskLimitsResponse,
} from '@platform/domain';
import { categoryLabel } from './categoryLabel.ts';
import { apiGet, apiPut, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

const LIMITS_KEY = ['admin', 'risk', 'limits'] as const;

interface Draft {
  id: number;
  /** 'i:EUR_USD' for an instrument, 'c:forex' for a category. */
  target: string | null;
  maxNetVolume: number | string;
  maxPositionVolume: number | string;
  warnPercent: number | string;
}

let seq = 0;
const draftOf = (l: RiskLimitDto): Draft => ({
  id: ++seq,
  target: l.instrument ? `i:${l.instrument}` : `c:${l.category}`,
  maxNetVolume: l.maxNetVolume ?? '',
  maxPositionVolume: l.maxPositionVolume ?? '',
  warnPercent: l.warnPercent,
});
const orNull = (v: number | string) => (v === '' ? null : Number(v));

/**
 * The dealer's limits (/admin/risk/limits, admins): per instrument or per category, the most the clients may be net
 * long or short, the most one order may open, and the percent of the net limit at which admins are warned. Saved as
 * one set; every server holds it in memory and checks orders against it.
 */
/** The figures of a limit, one number input each. */
const FIGURES = [
  { field: 'maxNetVolume', label: 'MAX NET VOLUME', props: { min: 0, thousandSeparator: ',' } },
  { field: 'maxPositionVolume', label: 'MAX POSITION VOLUME', props: { min: 0, thousandSeparator: ',' } },
  { field: 'warnPercent', label: 'WARN AT %', props: { min: 1, max: 100, w: 80 } },
] as const;

export function RiskLimitsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const limits = useQuery({ queryKey: LIMITS_KEY, queryFn: () => apiGet<RiskLimitsResponse>('/admin/risk/limits') });
  const instruments = useQuery({
    queryKey: ['admin', 'risk', 'limit-instruments'],
    queryFn: async () => ({
      data: (
        await Promise.all(
          CATEGORIES.map((c) =>
            apiGet<AdminInstrumentListResponse>(`/admin/instruments/api/${c}`, { limit: 100 }).then((r) => r.data),
          ),
        )
      ).flat(),
    }),
    staleTime: 60_000,
  });
  const [drafts, setDrafts] = useState<Draft[]>([]);
  useEffect(() => {
    if (limits.data) setDrafts(limits.data.data.map(draftOf));
  }, [limits.data]);

  const save = useMutation({
    mutationFn: () =>
      apiPut<RiskLimitsResponse>('/admin/risk/limits', {
        limits: drafts
          .filter((d) => d.target)
          .map((d) => {
            const [kind, name] = [d.target!.slice(0, 1), d.target!.slice(2)];
            return {
              ...(kind === 'i' ? { instrument: name } : { category: name }),
              maxNetVolume: orNull(d.maxNetVolume),
              maxPositionVolume: orNull(d.maxPositionVolume),
              warnPercent: Number(d.warnPercent || 80),
            };
          }),
      }),
    onSuccess: (res) => {
      queryClient.setQueryData(LIMITS_KEY, res);
      toastSuccess(t(res.message ?? 'Limits saved'));
    },
    onError: (err) => toastError(errorMessage(err)),
  });

  const targets = [
    { group: t('Categories'), items: CATEGORIES.map((c) => ({ value: `c:${c}`, label: t(categoryLabel(c)) })) },
    {
      group: t('Instruments'),
      items: (instruments.data?.data ?? []).map((i) => ({ value: `i:${i.name}`, label: i.name.replace('_', '/') })),
    },
  ];
  const update = (id: number, patch: Partial<Draft>) =>
    setDrafts((list) => list.map((d) => (d.id === id ? { ...d, ...patch } : d)));

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('An instrument’s own limit wins over its category’s. Empty means no limit.')}
        </Text>
        <Table aria-label={t('Risk Limits')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('INSTRUMENT OR CATEGORY')}</Table.Th>
              <Table.Th>{t('MAX NET VOLUME')}</Table.Th>
              <Table.Th>{t('MAX POSITION VOLUME')}</Table.Th>
              <Table.Th>{t('WARN AT %')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {drafts.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>
                  <Select
                    size="xs"
                    searchable
                    aria-label={t('INSTRUMENT OR CATEGORY')}
                    data={
                      d.target && !targets.some((g) => g.items.some((i) => i.value === d.target))
                        ? [...targets, { group: '', items: [{ value: d.target, label: d.target.slice(2) }] }]
                        : targets
                    }
                    value={d.target}
                    onChange={(v) => update(d.id, { target: v })}
                  />
                </Table.Td>
                {FIGURES.map((f) => (
                  <Table.Td key={f.field}>
                    <NumberInput
                      size="xs"
                      {...f.props}
                      aria-label={t(f.label)}
                      value={d[f.field]}
                      onChange={(v) => update(d.id, { [f.field]: v })}
                    />
                  </Table.Td>
                ))}
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('Remove')}
                    onClick={() => setDrafts((list) => list.filter((x) => x.id !== d.id))}
                  >
                    ×
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group>
          <Button
            variant="light"
            size="xs"
            onClick={() =>
              setDrafts((list) => [
                ...list,
                { id: ++seq, target: null, maxNetVolume: '', maxPositionVolume: '', warnPercent: 80 },
              ])
            }
          >
            {t('Add limit')}
          </Button>
          <Button size="xs" loading={save.isPending} onClick={() => save.mutate()}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
