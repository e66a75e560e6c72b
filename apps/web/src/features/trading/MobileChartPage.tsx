import { lazy, useState } from 'react';
import { ActionIcon, Box, Group, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { DrawingKind } from '@platform/domain';
import { useInstruments } from './api.ts';
import { useChartDrawings, useChartIndicators } from './chartApi.ts';
import { type ChartLoaders, ChartTools } from './ChartTools.tsx';
import { formatPrice, pairLabel } from './figures.ts';
import { PriceChart } from './PriceChart.tsx';
import { useLivePrices, useQuote } from './quotes.ts';

const HEADER_HEIGHT = 44;

// The chart tools' code loads on first use; the import() calls sit here, in the page, so the chart's own chunk
// (on every first load of the dashboard) carries no list of the chunks they need (see ChartLoaders).
const CHART_LOADERS: ChartLoaders = {
  dialog: lazy(() => import('./indicators/IndicatorDialog.tsx')),
  toolbar: lazy(() => import('./drawings/DrawingToolbar.tsx')),
  studies: () => import('./studies.ts'),
};

/** Full-height dark daily chart of one symbol for small screens (spec §2 "Mobile chart page"). */
export function MobileChartPage() {
  const { t } = useTranslation();
  const { symbol = '' } = useParams();
  useLivePrices();
  const { data: instruments } = useInstruments();
  const instrument = instruments?.find((i) => i.name === symbol);
  const quote = useQuote(symbol);
  const digits = instrument?.digits ?? 5;
  const indicators = useChartIndicators();
  const drawings = useChartDrawings(instrument ? symbol : '');
  const [tool, setTool] = useState<DrawingKind | null>(null);

  return (
    <Box h="100dvh" bg="dark.7" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group
        mih={HEADER_HEIGHT}
        px="xs"
        py={4}
        gap="xs"
        style={{ borderBottom: '1px solid var(--mantine-color-dark-4)', flexShrink: 0 }}
      >
        <ActionIcon component={Link} to="/dashboard" variant="subtle" aria-label={t('Back to the dashboard')}>
          <IconArrowLeft size={18} />
        </ActionIcon>
        <Text fw={700}>{instrument ? pairLabel(instrument.base, instrument.quote) : symbol}</Text>
        {instrument && <ChartTools symbol={symbol} tool={tool} onTool={setTool} loaders={CHART_LOADERS} />}
        <Text size="sm" c="dimmed" ml="auto" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatPrice(quote?.bid, digits)} / {formatPrice(quote?.ask, digits)}
        </Text>
      </Group>
      {instruments && !instrument ? (
        <Text c="dimmed" ta="center" py="xl">
          {t('Unknown instrument')}
        </Text>
      ) : (
        <Box style={{ flex: 1, minHeight: 0 }}>
          <PriceChart
            symbol={symbol}
            digits={digits}
            height="100%"
            indicators={indicators}
            drawings={drawings}
            tool={tool}
            onToolDone={() => setTool(null)}
            quoteCurrency={instrument?.quote}
            loadStudies={CHART_LOADERS.studies}
          />
        </Box>
      )}
    </Box>
  );
}
