import { describe, expect, it } from 'vitest';
import { cellContent, truncateWidth, type DataTableColumn } from './cells.ts';

type Row = { at: string | null };

describe('a stacked date column', () => {
  const column: DataTableColumn<Row> = { key: 'at', label: 'DATE', type: 'date', stacked: true };

  it('puts the day above the time and is never cut', () => {
    const text = String(cellContent({ at: '2026-11-09T14:23:00' }, column));
    expect(text).toBe('09/11/2026\n2:23 PM');
    expect(truncateWidth(column)).toBeNull();
  });

  it('still shows a dash for no date', () => {
    expect(cellContent({ at: null }, column)).toBe('-');
  });
});
