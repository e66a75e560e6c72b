import { lazy, useEffect, useState } from 'react';
import { Badge, Box, Group, Paper, SegmentedControl, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CHART_INTERVALS, type ChartInterval, type DrawingKind, type InstrumentDto, type Side } from '@platform/domain';
import { useChartDrawings, useChartIndicators } from './chartApi.ts';
import { type ChartLoaders, ChartTools } from './ChartTools.tsx';
import { formatPrice, pairLabel } from './figures.ts';
import { OneClickSwitch } from './OneClickSwitch.tsx';
import { PriceChart } from './PriceChart.tsx';
import { useQuote } from './quotes.ts';
import { useChartOrders } from './useChartOrders.ts';

export interface ChartPanelProps {
  instrument: InstrumentDto;
  marketOpen: boolean;
  onTrade: (side: Side, instrument: InstrumentDto) => void;
  /** Fill the height of its container (the terminal layout) instead of a height of its own. */
  fill?: boolean;
}

function PriceButton({
  side,
  price,
  disabled,
  onClick,
}: {
  side: Side;
  price: string;
  disabled: boolean;
  onClick: () => void;
}) {
  const { t } = useTranslation();
  const color = side === 'sell' ? 'red' : 'teal';
  return (
    <UnstyledButton
      onClick={onClick}
      disabled={disabled}
      aria-label={side === 'sell' ? t('SELL') : t('BUY')}
      px="md"
      py={6}
      miw={110}
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        background: `var(--mantine-color-${color}-${disabled ? 9 : 7})`,
        opacity: disabled ? 0.55 : 1,
        cursor: disabled ? 'not-allowed' : 'pointer',
        boxShadow: 'var(--mantine-shadow-md)',
      }}
    >
      <Text size="xs" fw={700} c="white" lh={1.2}>
        {side === 'sell' ? t('SELL') : t('BUY')}
      </Text>
      <Text size="md" fw={700} c="white" lh={1.3} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {price}
      </Text>
    </UnstyledButton>
  );
}

const INTERVAL_LABELS: Record<ChartInterval, string> = {
  '1m': '1m',
  '5m': '5m',
  '15m': '15m',
  '1h': '1H',
  '4h': '4H',
  '1d': 'D',
  '1w': 'W',
  '1mo': 'MN',
};
const INTERVAL_NAMES: Record<ChartInterval, string> = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': '1 hour',
  '4h': '4 hours',
  '1d': 'Daily',
  '1w': 'Weekly',
  '1mo': 'Monthly',
};
const INTERVAL_KEY = 'chartInterval';

// The chart tools' code loads on first use; the import() calls sit here, in the page, so the chart's own chunk
// (on every first load of the dashboard) carries no list of the chunks they need (see ChartLoaders).
const CHART_LOADERS: ChartLoaders = {
  dialog: lazy(() => import('./indicators/IndicatorDialog.tsx')),
  toolbar: lazy(() => import('./drawings/DrawingToolbar.tsx')),
  studies: () => import('./studies.ts'),
};

/** The chosen timeframe, remembered in this browser; daily by default (spec §2). */
function useChartInterval(): [ChartInterval, (v: ChartInterval) => void] {
  const [interval, setInterval] = useState<ChartInterval>(() => {
    const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(INTERVAL_KEY);
    return (CHART_INTERVALS as readonly string[]).includes(saved ?? '') ? (saved as ChartInterval) : '1d';
  });
  const choose = (v: ChartInterval) => {
    setInterval(v);
    localStorage.setItem(INTERVAL_KEY, v);
  };
  return [interval, choose];
}

/**
 * The selected instrument's chart (daily by default, other timeframes on demand) with floating SELL (bid) and BUY (ask)
 * buttons (spec §2), the one-click trading switch, and the lines of the trader's positions and pending orders.
 */
export function ChartPanel({ instrument, marketOpen, onTrade, fill = false }: ChartPanelProps) {
  const { t } = useTranslation();
  const quote = useQuote(instrument.name);
  const disabled = !instrument.tradable || !marketOpen || !quote;
  const [interval, setInterval] = useChartInterval();
  const { lines, onLineDrop } = useChartOrders(instrument);
  const indicators = useChartIndicators();
  const drawings = useChartDrawings(instrument.name);
  const [tool, setTool] = useState<DrawingKind | null>(null);
  // A drawing in progress belongs to the instrument it was started on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a change of instrument
  useEffect(() => setTool(null), [instrument.name]);
  return (
    <Paper
      withBorder
      radius="md"
      p={0}
      h={fill ? '100%' : undefined}
      style={{ overflow: 'hidden', display: 'flex', flexDirection: 'column' }}
    >
      <Group justify="space-between" px="md" py="xs" gap="xs">
        <Stack gap={0}>
          <Text fw={700}>{pairLabel(instrument.base, instrument.quote)}</Text>
          <Text size="xs" c="dimmed">
            {instrument.alias ?? instrument.name} · {t(INTERVAL_NAMES[interval])}
          </Text>
        </Stack>
        <SegmentedControl
          size="xs"
          aria-label={t('Timeframe')}
          value={interval}
          onChange={(v) => setInterval(v as ChartInterval)}
          data={CHART_INTERVALS.map((v) => ({ value: v, label: INTERVAL_LABELS[v] }))}
          style={{ marginLeft: 'auto' }}
        />
        <ChartTools symbol={instrument.name} tool={tool} onTool={setTool} loaders={CHART_LOADERS} />
        <OneClickSwitch />
        {!marketOpen && (
          <Badge color="gray" variant="light">
            {t('Market Closed')}
          </Badge>
        )}
        {marketOpen && !instrument.tradable && (
          <Badge color="gray" variant="light">
            {t('Not tradable')}
          </Badge>
        )}
      </Group>
      <Box pos="relative" style={fill ? { flex: 1, minHeight: 0 } : undefined}>
        <PriceChart
          symbol={instrument.name}
          digits={instrument.digits}
          interval={interval}
          height={fill ? '100%' : 'clamp(320px, 52vh, 560px)'}
          lines={lines}
          onLineDrop={onLineDrop}
          indicators={indicators}
          drawings={drawings}
          tool={tool}
          onToolDone={() => setTool(null)}
          quoteCurrency={instrument.quote}
          legendTop={72}
          loadStudies={CHART_LOADERS.studies}
        />
        <Group gap="xs" pos="absolute" top={12} left={12} style={{ zIndex: 3 }}>
          <PriceButton
            side="sell"
            price={formatPrice(quote?.bid, instrument.digits)}
            disabled={disabled}
            onClick={() => onTrade('sell', instrument)}
          />
          <PriceButton
            side="buy"
            price={formatPrice(quote?.ask, instrument.digits)}
            disabled={disabled}
            onClick={() => onTrade('buy', instrument)}
          />
        </Group>
      </Box>
    </Paper>
  );
}
