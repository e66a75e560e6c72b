import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Box, Button, Group, Modal, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  type ChartSettings,
  INDICATOR_DEFAULTS,
  INDICATOR_TYPES,
  IndicatorConfig,
  MAX_INDICATORS,
} from '@platform/domain';
import { apiPut, errorMessage } from '../../../api/client.ts';
import { toastError } from '../../../ui/toast.ts';
import { paramError } from './paramError.ts';
import { chartKeys, useChartIndicators } from '../chartApi.ts';
import { INDICATOR_NAMES, INDICATOR_PARAMS, shortLabel } from './catalog.ts';

/** Changes reach the chart at once and the server after a pause in typing. */
const SAVE_DELAY_MS = 400;

type Draft = Record<string, number | string>;

function useSaveIndicators() {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<IndicatorConfig[] | null>(null);
  const flush = () => {
    const list = pending.current;
    pending.current = null;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!list) return;
    apiPut<ChartSettings>('/dashboard/chart/settings', { indicators: list }).catch((err) => {
      toastError(errorMessage(err));
      void client.invalidateQueries({ queryKey: chartKeys.settings });
    });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a closing dialog saves what is waiting
  useEffect(() => flush, []);
  return (list: IndicatorConfig[], now = false) => {
    client.setQueryData<ChartSettings>(chartKeys.settings, { indicators: list });
    pending.current = list;
    if (timer.current) clearTimeout(timer.current);
    if (now) flush();
    else timer.current = setTimeout(flush, SAVE_DELAY_MS);
  };
}

/** One indicator's parameters, edited in place: a valid set applies at once, an invalid one says why. */
function IndicatorRow({
  config,
  onChange,
  onRemove,
}: {
  config: IndicatorConfig;
  onChange: (c: IndicatorConfig) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => ({ ...config }));
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  // A list changed elsewhere (a row removed above this one, another device) shows here; own edits match already.
  const current = JSON.stringify(config);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the saved config resets the fields
  useEffect(() => {
    const own = IndicatorConfig.safeParse(draft);
    if (!own.success || JSON.stringify(own.data) !== current) {
      setDraft(JSON.parse(current) as Draft);
      setError(null);
    }
  }, [current]);
  const name = t(INDICATOR_NAMES[config.type]);
  const edit = (key: string, value: number | string) => {
    const next = { ...draft, [key]: value };
    setDraft(next);
    const parsed = IndicatorConfig.safeParse(next);
    if (parsed.success) {
      setError(null);
      onChange(parsed.data);
    } else {
      const issue = parsed.error.issues[0];
      const field = String(issue.path[0] ?? key);
      const label = INDICATOR_PARAMS[config.type].find((p) => p.key === field)?.label ?? 'Period';
      setError({ field, message: paramError(issue, label, t) });
    }
  };
  return (
    <Box role="group" aria-label={name}>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Text size="sm" fw={600}>
          {name}
        </Text>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          aria-label={t('Remove {{name}}', { name })}
          onClick={onRemove}
        >
          <IconX size={14} />
        </ActionIcon>
      </Group>
      <Group gap="xs" align="flex-start" wrap="wrap">
        {INDICATOR_PARAMS[config.type].map((p) => (
          <NumberInput
            key={p.key}
            size="xs"
            w={120}
            label={t(p.label)}
            value={draft[p.key]}
            min={0}
            step={p.decimal ? 0.1 : 1}
            decimalScale={p.decimal ? 2 : 0}
            allowDecimal={p.decimal === true}
            error={error?.field === p.key ? error.message : undefined}
            onChange={(v) => edit(p.key, typeof v === 'number' ? v : v === '' ? '' : Number(v))}
          />
        ))}
      </Group>
    </Box>
  );
}

/**
 * The indicator menu: the indicators on the trader's charts with their parameters, and the ones that can be added.
 * The list is the user's own, kept on the server (it follows the trader to any device and instrument).
 */
export default function IndicatorDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const indicators = useChartIndicators();
  const save = useSaveIndicators();
  const full = indicators.length >= MAX_INDICATORS;

  return (
    <Modal opened={opened} onClose={onClose} title={t('Indicators')} size="lg">
      <Stack gap="md">
        {indicators.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('No indicators on the chart yet. Add one below.')}
          </Text>
        ) : (
          indicators.map((config, i) => (
            <IndicatorRow
              // biome-ignore lint/suspicious/noArrayIndexKey: rows follow the list's order; a row resets to its config
              key={`${i}:${config.type}`}
              config={config}
              onChange={(c) => save(indicators.map((x, j) => (j === i ? c : x)))}
              onRemove={() =>
                save(
                  indicators.filter((_, j) => j !== i),
                  true,
                )
              }
            />
          ))
        )}
        <div>
          <Text size="sm" fw={600} mb={6}>
            {full ? t('A chart holds {{max}} indicators at most.', { max: MAX_INDICATORS }) : t('Add an indicator')}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6}>
            {INDICATOR_TYPES.map((type) => (
              <Button
                key={type}
                variant="default"
                size="xs"
                justify="flex-start"
                disabled={full}
                title={shortLabel(INDICATOR_DEFAULTS[type])}
                onClick={() => save([...indicators, INDICATOR_DEFAULTS[type]], true)}
              >
                {t(INDICATOR_NAMES[type])}
              </Button>
            ))}
          </SimpleGrid>
        </div>
      </Stack>
    </Modal>
  );
}
