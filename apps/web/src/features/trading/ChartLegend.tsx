import { useEffect, type RefObject } from 'react';
import { Box, Group, Text } from '@mantine/core';
import type { IChartApi } from 'lightweight-charts';
import type { Candle } from '@platform/domain';

export interface LegendLine {
  label: string;
  color: string;
  values: string[];
}

/**
 * Open, high, low and close of the bar under the crosshair (the last bar when the pointer is elsewhere), and each
 * indicator's values at that bar.
 */
export function ChartLegend({
  bar,
  digits,
  lines,
  top,
  boxRef,
}: {
  bar: Candle | undefined;
  digits: number;
  lines: readonly LegendLine[];
  top: number;
  boxRef?: RefObject<HTMLDivElement | null>;
}) {
  if (!bar) return null;
  const tone = bar.close >= bar.open ? 'teal.5' : 'red.5';
  const figure = (name: string, value: number) => (
    <Text span size="xs" c="dimmed" key={name}>
      {name}{' '}
      <Text span size="xs" c={tone} ff="monospace">
        {value.toFixed(digits)}
      </Text>
    </Text>
  );
  return (
    <Box
      ref={boxRef}
      pos="absolute"
      top={top}
      left={12}
      style={{ pointerEvents: 'none', zIndex: 2, textShadow: '0 0 3px var(--mantine-color-dark-7)' }}
      data-testid="chart-legend"
    >
      <Group gap={8} wrap="nowrap">
        {figure('O', bar.open)}
        {figure('H', bar.high)}
        {figure('L', bar.low)}
        {figure('C', bar.close)}
      </Group>
      {lines.map((l) => (
        <Text key={l.label} size="xs" c={l.color} ff="monospace" lh={1.5}>
          {l.label} {l.values.join('  ')}
        </Text>
      ))}
    </Box>
  );
}

/** The price scale's usual top margin (a share of the price pane), when the legend needs no more. */
export const PRICE_TOP_MARGIN = 0.12;

/**
 * The top margin of the price scale that keeps the candles below the legend: its bottom edge plus a little air, as a
 * share of the price pane's height, never under the usual margin and never over half the pane (a tiny pane keeps
 * its candles; the legend then sits over them as before).
 */
export function legendScaleTop(legendBottom: number, paneHeight: number): number {
  if (!(paneHeight > 0) || !(legendBottom > 0)) return PRICE_TOP_MARGIN;
  return Math.min(0.5, Math.max(PRICE_TOP_MARGIN, (legendBottom + 8) / paneHeight));
}

/**
 * Keeps the candles clear of the crosshair legend: whenever the legend or the chart changes size (an indicator added,
 * a pane below the price, a smaller window), the price scale's top margin is set from the legend's bottom edge.
 */
export function useLegendRoom(
  chart: RefObject<IChartApi | null>,
  container: RefObject<HTMLDivElement | null>,
  legend: RefObject<HTMLDivElement | null>,
  bottomMargin: number,
  /** Changes when the legend or the panes may have changed (the chart, its bars, the indicators shown). */
  watchKey: string,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: watchKey says when to measure again
  useEffect(() => {
    const box = container.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    let frame = 0;
    const fit = () => {
      cancelAnimationFrame(frame);
      // After the chart has laid out its panes.
      frame = requestAnimationFrame(() => {
        const api = chart.current;
        const el = legend.current;
        if (!api) return;
        const pane = api.panes?.()[0]?.getHeight?.() ?? box.clientHeight;
        const top = legendScaleTop(el ? el.offsetTop + el.offsetHeight : 0, pane);
        api.priceScale?.('right')?.applyOptions({ scaleMargins: { top, bottom: bottomMargin } });
      });
    };
    fit();
    const watch = new ResizeObserver(fit);
    watch.observe(box);
    if (legend.current) watch.observe(legend.current);
    return () => {
      cancelAnimationFrame(frame);
      watch.disconnect();
    };
  }, [chart, container, legend, bottomMargin, watchKey]);
}
