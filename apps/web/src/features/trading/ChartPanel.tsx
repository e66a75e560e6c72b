import { Badge, Box, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InstrumentDto, Side } from '@platform/domain';
import { formatPrice, pairLabel } from './figures.ts';
import { PriceChart } from './PriceChart.tsx';
import { useQuote } from './quotes.ts';

export interface ChartPanelProps {
  instrument: InstrumentDto;
  marketOpen: boolean;
  onTrade: (side: Side, instrument: InstrumentDto) => void;
}

function PriceButton({ side, price, disabled, onClick }: { side: Side; price: string; disabled: boolean; onClick: () => void }) {
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

/** The selected instrument's daily chart with floating SELL (bid) and BUY (ask) buttons (spec §2). */
export function ChartPanel({ instrument, marketOpen, onTrade }: ChartPanelProps) {
  const { t } = useTranslation();
  const quote = useQuote(instrument.name);
  const disabled = !instrument.tradable || !marketOpen || !quote;
  return (
    <Paper withBorder radius="md" p={0} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" px="md" py="xs" gap="xs">
        <Stack gap={0}>
          <Text fw={700}>{pairLabel(instrument.base, instrument.quote)}</Text>
          <Text size="xs" c="dimmed">
            {instrument.alias ?? instrument.name} · {t('Daily')}
          </Text>
        </Stack>
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
      <Box pos="relative">
        <PriceChart symbol={instrument.name} digits={instrument.digits} height="clamp(320px, 52vh, 560px)" />
        <Group gap="xs" pos="absolute" top={12} left={12} style={{ zIndex: 3 }}>
          <PriceButton side="sell" price={formatPrice(quote?.bid, instrument.digits)} disabled={disabled} onClick={() => onTrade('sell', instrument)} />
          <PriceButton side="buy" price={formatPrice(quote?.ask, instrument.digits)} disabled={disabled} onClick={() => onTrade('buy', instrument)} />
        </Group>
      </Box>
    </Paper>
  );
}
