import type { MouseEvent } from 'react';
import { cellContent, truncateWidth, type DataTableColumn } from './cells.ts';

/**
 * A cut cell shows its whole text as the hover title; set when the pointer arrives, so it holds whatever the cell
 * renders (links, chips) and only when something is actually cut.
 */
function titleIfCut(e: MouseEvent<HTMLDivElement>): void {
  const el = e.currentTarget;
  const cut = el.scrollWidth > el.clientWidth;
  const text = el.textContent?.trim() ?? '';
  if (cut && text) el.title = text;
  else el.removeAttribute('title');
}

/** One cell of a DataTable: its content, on one line cut with an ellipsis past the column's width. */
export function DataCell<T>({ row, column }: { row: T; column: DataTableColumn<T> }) {
  const content = cellContent(row, column);
  if (column.stacked) return <div style={{ whiteSpace: 'pre-line' }}>{content}</div>;
  const width = truncateWidth(column);
  if (width === null) return content;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hovering only sets the title; nothing to operate
    <div
      data-truncate=""
      onMouseEnter={titleIfCut}
      style={{ maxWidth: width, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
    >
      {content}
    </div>
  );
}
