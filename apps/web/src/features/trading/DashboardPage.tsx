import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Anchor, Box, Center, Grid, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, marketOfCategory, type InstrumentDto, type Side } from '@platform/domain';
import { useBranding, useCurrentUser } from '../../api/hooks.ts';
import { useInstruments, useMarketStatus } from './api.ts';
import { ChartPanel } from './ChartPanel.tsx';
import { InstrumentPanel } from './InstrumentPanel.tsx';
import { PositionsPanel } from './PositionsPanel.tsx';
import { needsKyc } from '../money/KycNotice.tsx';
import { PricingPlanPanel } from './PricingPlanPanel.tsx';
import { TerminalLayout } from './TerminalLayout.tsx';
import { useWideScreen } from './useTerminal.ts';
import { useOneClickTrade } from './useOneClickTrade.ts';
import { useTerminalKeys } from './terminalKeys.ts';
import { pairLabel } from './figures.ts';
import { toastError } from '../../ui/toast.ts';

// The order dialog (and its number inputs) is not part of the dashboard's first load: it loads as soon as the trader
// first moves the pointer, touches the screen or presses a key (see usePreloadOnFirstUse), so the first Buy or Sell
// opens it at once.
const loadOrderDialog = () => import('./OrderDialog.tsx');
const OrderDialog = lazy(() => loadOrderDialog().then((m) => ({ default: m.OrderDialog })));
// The list of keyboard shortcuts loads the first time "?" is pressed.
const ShortcutsOverlay = lazy(() => import('./ShortcutsOverlay.tsx').then((m) => ({ default: m.ShortcutsOverlay })));

/** Starts loading the given modules on the first pointer move, touch or key press in the page, once. */
function usePreloadOnFirstUse(load: () => Promise<unknown>) {
  useEffect(() => {
    const events = ['pointermove', 'pointerdown', 'keydown'] as const;
    const once = () => {
      for (const e of events) window.removeEventListener(e, once);
      void load();
    };
    for (const e of events) window.addEventListener(e, once, { passive: true });
    return () => {
      for (const e of events) window.removeEventListener(e, once);
    };
  }, [load]);
}

/** The chart shows USD/CNH until the client picks another instrument (spec §9). */
export const DEFAULT_CHART_SYMBOL = 'USD_CNH';
const LIST_WIDTH = 400;

/**
 * The trading dashboard (spec §2): instruments on the left, the chart on the right, positions below: resizable
 * panels that fit the window on wide screens, stacked on small ones. Live prices re-render only the parts that show them, not this page.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { data: current } = useCurrentUser();
  const { data: branding } = useBranding();
  const instruments = useInstruments();
  const { data: marketStatus } = useMarketStatus();
  const [selected, setSelected] = useState(DEFAULT_CHART_SYMBOL);
  const [trade, setTrade] = useState<{ side: Side; name: string } | null>(null);
  const [shortcuts, setShortcuts] = useState(false);
  usePreloadOnFirstUse(loadOrderDialog);

  const list = useMemo(() => instruments.data ?? [], [instruments.data]);
  const byName = useMemo(() => new Map(list.map((i) => [i.name, i])), [list]);
  const digitsOf = useCallback((name: string) => byName.get(name)?.digits, [byName]);
  // Stable handlers keep the instrument rows from re-rendering on every price batch.
  const onSelect = useCallback((i: InstrumentDto) => setSelected(i.name), []);
  const oneClick = useOneClickTrade();
  // With one-click trading on (and an amount already used on the instrument) the order goes out with no dialog.
  const onTrade = useCallback(
    (side: Side, i: InstrumentDto) => {
      if (!oneClick(side, i)) setTrade({ side, name: i.name });
    },
    [oneClick],
  );

  const chartInstrument = byName.get(selected) ?? list[0];
  const tradeInstrument = trade ? byName.get(trade.name) : undefined;
  const marketOpen = (i: InstrumentDto) => !marketStatus || marketStatus[marketOfCategory(i.category)] === 'open';
  const currency = current?.activeBalance?.currency ?? '';
  const terminal = useWideScreen();

  // F9 (a new order, on the buy side), B and S open the order dialog of the instrument on the chart (never one-click);
  // like the list's Sell and Buy buttons, not while it cannot be traded.
  const keyTrade = (side: Side) => {
    if (!chartInstrument) return;
    if (!chartInstrument.tradable || !marketOpen(chartInstrument))
      return toastError(
        t('{{name}} cannot be traded right now', {
          name: pairLabel(chartInstrument.base, chartInstrument.quote),
        }),
      );
    setTrade({ side, name: chartInstrument.name });
  };
  useTerminalKeys({ onNewOrder: () => keyTrade('buy'), onTrade: keyTrade, onHelp: () => setShortcuts(true) });

  if (instruments.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (instruments.isError)
    return (
      <Center py="xl">
        <Text c="red">{t(GENERIC_ERROR)}</Text>
      </Center>
    );

  const kycBanner = current && needsKyc(current, 'trade') && (
    <Alert
      color="red"
      variant="filled"
      icon={<IconAlertTriangle size={18} />}
      data-testid="kyc-banner"
      py={terminal ? 6 : undefined}
    >
      {t('Please verify KYC to enable trading')}{' '}
      <Anchor component={Link} to="/kyc" c="white" fw={700} underline="always">
        {t('Click here')}
      </Anchor>
    </Alert>
  );
  const orderDialog = (
    <Suspense fallback={null}>
      {trade && tradeInstrument && (
        <OrderDialog side={trade.side} instrument={tradeInstrument} onClose={() => setTrade(null)} />
      )}
      {shortcuts && <ShortcutsOverlay onClose={() => setShortcuts(false)} />}
    </Suspense>
  );
  const instrumentsPanel = (
    <InstrumentPanel
      instruments={list}
      marketStatus={marketStatus}
      selected={selected}
      onSelect={onSelect}
      onTrade={onTrade}
    />
  );
  const planPanel = branding?.pricingPlan === 'on' && <PricingPlanPanel plan={current?.user.pricingTable ?? null} />;

  if (terminal)
    return (
      <>
        <TerminalLayout
          banner={kycBanner}
          instruments={
            <>
              {instrumentsPanel}
              {planPanel}
            </>
          }
          chart={
            chartInstrument && (
              <ChartPanel
                instrument={chartInstrument}
                marketOpen={marketOpen(chartInstrument)}
                onTrade={onTrade}
                fill
              />
            )
          }
          positions={<PositionsPanel currency={currency} digitsOf={digitsOf} instrument={chartInstrument} fill />}
        />
        {orderDialog}
      </>
    );

  return (
    <Box maw={1680} mx="auto">
      <Stack gap="md">
        {kycBanner}
        <Grid gap="md">
          {/* From lg up the instrument list keeps a fixed width and the chart and positions take the rest. */}
          <Grid.Col span={{ base: 12, lg: 'content' }}>
            <Stack gap="md" w={{ lg: LIST_WIDTH }}>
              {instrumentsPanel}
              {planPanel}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 'auto' }} miw={0}>
            <Stack gap="md">
              {chartInstrument && (
                <ChartPanel instrument={chartInstrument} marketOpen={marketOpen(chartInstrument)} onTrade={onTrade} />
              )}
              <PositionsPanel currency={currency} digitsOf={digitsOf} instrument={chartInstrument} />
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
      {orderDialog}
    </Box>
  );
}
