import { ActionIcon, Box, Group, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useInstruments } from './api.ts';
import { formatPrice, pairLabel } from './figures.ts';
import { PriceChart } from './PriceChart.tsx';
import { useLivePrices, useQuote } from './quotes.ts';

const HEADER_HEIGHT = 44;

/** Full-height dark daily chart of one symbol for small screens (spec §2 "Mobile chart page"). */
export function MobileChartPage() {
  const { t } = useTranslation();
  const { symbol = '' } = useParams();
  useLivePrices();
  const { data: instruments } = useInstruments();
  const instrument = instruments?.find((i) => i.name === symbol);
  const quote = useQuote(symbol);
  const digits = instrument?.digits ?? 5;

  return (
    <Box h="100dvh" bg="dark.7" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group
        h={HEADER_HEIGHT}
        px="xs"
        gap="xs"
        wrap="nowrap"
        style={{ borderBottom: '1px solid var(--mantine-color-dark-4)', flexShrink: 0 }}
      >
        <ActionIcon component={Link} to="/dashboard" variant="subtle" aria-label={t('Back to the dashboard')}>
          <IconArrowLeft size={18} />
        </ActionIcon>
        <Text fw={700}>{instrument ? pairLabel(instrument.base, instrument.quote) : symbol}</Text>
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
          <PriceChart symbol={symbol} digits={digits} height="100%" />
        </Box>
      )}
    </Box>
  );
}
