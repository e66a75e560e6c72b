import type { QueryClient } from '@tanstack/react-query';
import type { DrawingDto, DrawingResponse, DrawingShape } from '@platform/domain';
import { apiDelete, apiPost, apiPut } from '../../../api/client.ts';
import { chartKeys } from '../chartApi.ts';

/**
 * Saving drawings: each change shows at once (the query's data is updated before the server answers) and is put
 * back when the server refuses it; the caller shows the refusal.
 */

type List = readonly DrawingDto[];

const edit = (client: QueryClient, symbol: string, change: (list: List) => List) =>
  client.setQueryData<List>(chartKeys.drawings(symbol), (old) => change(old ?? []));

/** Temporary ids of drawings on their way to the server: negative, so never a saved one's. */
let nextTemporary = -1;

export async function createDrawing(client: QueryClient, symbol: string, shape: DrawingShape): Promise<DrawingDto> {
  const now = new Date().toISOString();
  const temporary: DrawingDto = { id: nextTemporary--, symbol, ...shape, created_at: now, updated_at: now };
  edit(client, symbol, (list) => [...list, temporary]);
  try {
    const { drawing } = await apiPost<DrawingResponse>('/dashboard/chart/drawings', { symbol, ...shape });
    edit(client, symbol, (list) => list.map((d) => (d.id === temporary.id ? drawing : d)));
    return drawing;
  } catch (err) {
    edit(client, symbol, (list) => list.filter((d) => d.id !== temporary.id));
    throw err;
  }
}

export async function updateDrawing(client: QueryClient, symbol: string, id: number, shape: DrawingShape) {
  const before = client.getQueryData<List>(chartKeys.drawings(symbol));
  edit(client, symbol, (list) => list.map((d) => (d.id === id ? { ...d, ...shape } : d)));
  try {
    const { drawing } = await apiPut<DrawingResponse>(`/dashboard/chart/drawings/${id}`, shape);
    edit(client, symbol, (list) => list.map((d) => (d.id === id ? drawing : d)));
  } catch (err) {
    if (before) client.setQueryData(chartKeys.drawings(symbol), before);
    throw err;
  }
}

export async function deleteDrawings(client: QueryClient, symbol: string, ids: readonly number[]) {
  const gone = new Set(ids);
  edit(client, symbol, (list) => list.filter((d) => !gone.has(d.id)));
  try {
    await Promise.all(ids.filter((id) => id > 0).map((id) => apiDelete(`/dashboard/chart/drawings/${id}`)));
  } finally {
    // A refusal or a drawing already gone elsewhere: the server's list is the truth.
    void client.invalidateQueries({ queryKey: chartKeys.drawings(symbol) });
  }
}
