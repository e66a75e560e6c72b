/**
 * One page of a list sorted by a figure some of its rows lack (a lead with no customer, a customer who has not
 * deposited yet): the rows with the figure first, in the figure's order, then the rows without it, by id. Each part
 * is its own query an index serves (a single ORDER BY over both would sort every row of the list), and the second
 * part is only read by the page where the first one ends, or past it.
 */
export interface FigureParts {
  /** Ids of rows with the figure, in its order: `limit` of them after skipping `offset`. */
  head(limit: number, offset: number): Promise<number[]>;
  /** How many rows have the figure, counting no further than `bound`. */
  countHead(bound: number): Promise<number>;
  /** Ids of rows without the figure, by id: `limit` of them after skipping `offset`. */
  tail(limit: number, offset: number): Promise<number[]>;
}

export async function figuresFirst(page: { limit: number; offset: number }, parts: FigureParts): Promise<number[]> {
  const first = await parts.head(page.limit, page.offset);
  if (first.length === page.limit) return first;
  // The head ends on this page (it has exactly offset + rows) or before it (count it, no further than the offset).
  const inHead = first.length > 0 ? page.offset + first.length : await parts.countHead(page.offset);
  const rest = await parts.tail(page.limit - first.length, Math.max(0, page.offset - inHead));
  return [...first, ...rest];
}
