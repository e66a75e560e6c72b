import { useEffect, useRef } from 'react';
import { Box, Center, Loader, Text, useMantineTheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { CHART_INTERVAL_SPECS, type Candle, type ChartInterval } from '@platform/domain';
import { useCandles } from './api.ts';
import { liveBar } from './chartBars.ts';
import type { ChartLine } from './chartLines.ts';
import { useQuote } from './quotes.ts';
import { useChartLines, type LineDropHandler } from './useChartLines.ts';

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
}

const NO_LINES: readonly ChartLine[] = [];

const toBar = (c: Candle) => ({ ...c, time: c.time as UTCTimestamp });

/**
 * Candles of one instrument from our candles API (daily unless another timeframe is chosen), dark, with the last bar
 * following the live bid. The symbol is chosen by the page (the chart itself offers no symbol change). Lines of the
 * trader's positions and pending orders are drawn on it, the SL/TP and pending ones draggable.
 */
export function PriceChart({ symbol, digits, height, interval = '1d', lines = NO_LINES, onLineDrop }: PriceChartProps) {
  const { t } = useTranslation();
  const theme = useMantineTheme();
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  // The bar the live bid moves, tagged with its symbol so a tick never lands on another instrument's history.
  const lastRef = useRef<{ key: string; bar: Candle } | null>(null);
  const key = `${symbol}:${interval}`;
  const seconds = CHART_INTERVAL_SPECS[interval].seconds;
  const candles = useCandles(symbol, interval);
  const quote = useQuote(symbol);

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
      // Room at the top and bottom so the last price tag and the first axis label are never cut off.
      rightPriceScale: { borderColor: dark[4], scaleMargins: { top: 0.12, bottom: 0.08 }, minimumWidth: 72 },
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
    // All bars, with a few empty slots at the left so the first time label is not cut by the edge.
    if (data.length)
      chartRef.current
        ?.timeScale()
        .setVisibleLogicalRange({ from: -Math.max(3, data.length * 0.02), to: data.length + 3 });
  }, [candles.data, key]);

  useEffect(() => {
    const last = lastRef.current;
    if (!quote || !last || last.key !== key) return;
    // Prices from the catalogue carry no tick time; they belong to the current bar.
    const bar = liveBar(last.bar, quote.bid, quote.time > 0 ? quote.time : Date.now(), seconds);
    lastRef.current = { key, bar };
    seriesRef.current?.update(toBar(bar));
  }, [quote, key, seconds]);

  return (
    <Box pos="relative" h={height} data-testid="price-chart" data-lines={lines.map((l) => l.id).join(' ')}>
      <Box ref={containerRef} pos="absolute" inset={0} />
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
