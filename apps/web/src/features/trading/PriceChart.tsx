import { useEffect, useRef, useState } from 'react';
import { Box, Button, Center, Loader, Text, useMantineTheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import {
  CHART_INTERVAL_SPECS,
  type Candle,
  type ChartInterval,
  type DrawingDto,
  type DrawingKind,
  type IndicatorConfig,
} from '@platform/domain';
import { useCandles } from './api.ts';
import { ChartLegend, PRICE_TOP_MARGIN, useLegendRoom } from './ChartLegend.tsx';
import { liveBar } from './chartBars.ts';
import type { ChartLine } from './chartLines.ts';
import type { ChartLoaders } from './ChartTools.tsx';
import { useQuote } from './quotes.ts';
import { useChartLines, type LineDropHandler } from './useChartLines.ts';
import { useChartStudies } from './useChartStudies.ts';

export interface PriceChartProps {
  /** Instrument name, e.g. USD_CNH. */
  symbol: string;
  digits: number;
  /** CSS height of the chart area. */
  height: number | string;
  /** Bar length (daily by default, spec §2). */
  interval?: ChartInterval;
  /** Horizontal lines (positions' entries, SL/TP, pending orders); those with a target can be dragged. */
  lines?: readonly ChartLine[];
  /** A dragged line's new price; a rejection puts the line back. */
  onLineDrop?: LineDropHandler;
  /** The trader's indicators. */
  indicators?: readonly IndicatorConfig[];
  /** The trader's drawings on this instrument. */
  drawings?: readonly DrawingDto[];
  /** The drawing tool in hand: the next clicks on the chart draw with it. */
  tool?: DrawingKind | null;
  /** The drawing was finished or cancelled. */
  onToolDone?: () => void;
  /** Quote currency, for a measure's pips. */
  quoteCurrency?: string;
  /** Where the crosshair legend starts, below the page's own buttons over the chart. */
  legendTop?: number;
  /** Loads the code of the indicators and drawings (ChartLoaders.studies); without it the chart shows none. */
  loadStudies?: ChartLoaders['studies'];
}

const NO_LINES: readonly ChartLine[] = [];
const NONE: readonly never[] = [];
const nothing = () => {};

const toBar = (c: Candle) => ({ ...c, time: c.time as UTCTimestamp });
const PRICE_BOTTOM_MARGIN = 0.08;

/**
 * Candles of one instrument from our candles API (daily unless another timeframe is chosen), dark, with the last bar
 * following the live bid. The symbol is chosen by the page (the chart itself offers no symbol change). Lines of the
 * trader's positions and pending orders are drawn on it, the SL/TP and pending ones draggable.
 */
export function PriceChart({
  symbol,
  digits,
  height,
  interval = '1d',
  lines = NO_LINES,
  onLineDrop,
  indicators = NONE,
  drawings = NONE,
  tool = null,
  onToolDone = nothing,
  quoteCurrency = 'USD',
  legendTop = 8,
  loadStudies,
}: PriceChartProps) {
  const { t } = useTranslation();
  const theme = useMantineTheme();
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  // The bar the live bid moves, tagged with its symbol so a tick never lands on another instrument's history.
  const lastRef = useRef<{ key: string; bar: Candle } | null>(null);
  // Every bar on the chart (the live one last), for the indicators, the drawings and the legend.
  const barsRef = useRef<Candle[]>([]);
  const [chartVersion, setChartVersion] = useState(0);
  const [hover, setHover] = useState<number | null>(null);
  const key = `${symbol}:${interval}`;
  const seconds = CHART_INTERVAL_SPECS[interval].seconds;
  const candles = useCandles(symbol, interval);
  const quote = useQuote(symbol);
  const studies = useChartStudies({
    chart: chartRef,
    series: seriesRef,
    bars: barsRef,
    chartVersion,
    symbol,
    digits,
    interval,
    quoteCurrency,
    indicators,
    drawings,
    tool,
    onToolDone,
    load: loadStudies,
  });
  const { barsChanged } = studies;

  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const dark = theme.colors.dark;
    const chart = createChart(el, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: dark[7] },
        textColor: dark[1],
        fontFamily: theme.fontFamily,
      },
      grid: { vertLines: { color: dark[5] }, horzLines: { color: dark[5] } },
      // Room at the top and bottom so the last price tag and the first axis label are never cut off (the top grows
      // with the legend: useLegendRoom).
      rightPriceScale: {
        borderColor: dark[4],
        scaleMargins: { top: PRICE_TOP_MARGIN, bottom: PRICE_BOTTOM_MARGIN },
        minimumWidth: 72,
      },
      timeScale: { borderColor: dark[4], timeVisible: false, rightOffset: 4 },
    });
    chartRef.current = chart;
    seriesRef.current = chart.addSeries(CandlestickSeries, {
      upColor: theme.colors.teal[6],
      downColor: theme.colors.red[6],
      borderVisible: false,
      wickUpColor: theme.colors.teal[6],
      wickDownColor: theme.colors.red[6],
    });
    // The legend follows the bar under the crosshair, and the last bar when the pointer leaves.
    chart.subscribeCrosshairMove((p) => setHover(p.point && p.logical !== undefined ? Math.round(p.logical) : null));
    setChartVersion((v) => v + 1);
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
    };
  }, [theme]);

  const holding = useChartLines(containerRef, chartRef, seriesRef, lines, digits, onLineDrop);

  useEffect(() => {
    seriesRef.current?.applyOptions({ priceFormat: { type: 'price', precision: digits, minMove: 1 / 10 ** digits } });
  }, [digits]);

  useEffect(() => {
    chartRef.current?.applyOptions({ timeScale: { timeVisible: seconds < 86_400 } });
  }, [seconds]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    const data = candles.data ?? [];
    series.setData(data.map(toBar));
    const last = data.at(-1);
    lastRef.current = last ? { key, bar: last } : null;
    barsRef.current = [...data];
    barsChanged(true);
    // All bars, with a few empty slots at the left so the first time label is not cut by the edge.
    if (data.length)
      chartRef.current
        ?.timeScale()
        .setVisibleLogicalRange({ from: -Math.max(3, data.length * 0.02), to: data.length + 3 });
  }, [candles.data, key, barsChanged]);

  useEffect(() => {
    const last = lastRef.current;
    if (!quote || !last || last.key !== key) return;
    // Prices from the catalogue carry no tick time; they belong to the current bar.
    const bar = liveBar(last.bar, quote.bid, quote.time > 0 ? quote.time : Date.now(), interval);
    lastRef.current = { key, bar };
    seriesRef.current?.update(toBar(bar));
    const bars = barsRef.current;
    if (bars.at(-1)?.time === bar.time) bars[bars.length - 1] = bar;
    else bars.push(bar);
    barsChanged(false);
  }, [quote, key, interval, barsChanged]);

  const bars = barsRef.current;
  const shown = hover !== null && hover >= 0 && hover < bars.length ? hover : bars.length - 1;
  const hasBars = (candles.data?.length ?? 0) > 0;
  const legendLines = studies.legendAt(shown);
  const legendRef = useRef<HTMLDivElement>(null);
  // The candles start below the legend, however many indicator lines it has.
  useLegendRoom(
    chartRef,
    containerRef,
    legendRef,
    PRICE_BOTTOM_MARGIN,
    `${chartVersion}|${hasBars}|${legendTop}|${legendLines.length}|${studies.indicators}`,
  );

  return (
    <Box
      pos="relative"
      h={height}
      data-testid="price-chart"
      data-lines={lines.map((l) => l.id).join(' ')}
      data-indicators={studies.indicators}
      data-drawings={studies.drawings}
      data-tool={studies.tool}
    >
      <Box ref={containerRef} pos="absolute" inset={0} />
      {hasBars && (
        <ChartLegend bar={bars[shown]} digits={digits} lines={legendLines} top={legendTop} boxRef={legendRef} />
      )}
      {studies.selected !== null && studies.selected > 0 && (
        <Button
          size="compact-xs"
          color="red"
          variant="light"
          pos="absolute"
          bottom={36}
          left={12}
          style={{ zIndex: 4 }}
          onClick={studies.deleteSelected}
        >
          {t('Delete drawing')}
        </Button>
      )}
      {(candles.isPending || candles.isError) && (
        <Center pos="absolute" inset={0} style={{ pointerEvents: 'none' }}>
          {candles.isError ? <Text c="dimmed">{t('The chart is unavailable right now.')}</Text> : <Loader size="sm" />}
        </Center>
      )}
      {holding && (
        // How to reach a price the pointer alone skips over (a pixel of a daily chart spans many steps).
        <Text
          size="xs"
          c="dimmed"
          pos="absolute"
          top={6}
          left="50%"
          px={6}
          bg="dark.7"
          style={{
            pointerEvents: 'none',
            borderRadius: 4,
            transform: 'translateX(-50%)',
            whiteSpace: 'nowrap',
            zIndex: 5,
          }}
          data-testid="line-drag-hint"
        >
          {t('Shift: one step a pixel · ↑ ↓: one step · Esc: put back')}
        </Text>
      )}
    </Box>
  );
}
