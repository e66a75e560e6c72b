import { memo } from 'react';

/**
 * A small line of a series (the day's net exposure), drawn as an SVG polyline: no chart library for a few dozen
 * points per row. A dashed line marks zero when the series crosses it.
 */
export const Sparkline = memo(function Sparkline({
  values,
  width = 96,
  height = 24,
  label,
}: {
  values: readonly number[];
  width?: number;
  height?: number;
  label: string;
}) {
  const points = values.length === 1 ? [values[0], values[0]] : values;
  const min = Math.min(0, ...points);
  const max = Math.max(0, ...points);
  const span = max - min || 1;
  const x = (i: number) => (points.length <= 1 ? 0 : (i / (points.length - 1)) * (width - 2) + 1);
  const y = (v: number) => height - 1 - ((v - min) / span) * (height - 2);
  const last = points[points.length - 1] ?? 0;
  const color = last > 0 ? 'var(--mantine-color-teal-5)' : last < 0 ? 'var(--mantine-color-red-5)' : 'currentColor';
  return (
    <svg width={width} height={height} role="img" aria-label={label} data-points={values.length}>
      {min < 0 && max > 0 ? (
        <line x1={0} x2={width} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity={0.3} strokeDasharray="2 2" />
      ) : null}
      <polyline
        fill="none"
        stroke={color}
        strokeWidth={1.5}
        points={points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}
      />
    </svg>
  );
});
