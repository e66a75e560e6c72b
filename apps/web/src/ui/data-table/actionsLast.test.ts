import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { useColumnChoice } from './columnChoice.ts';

describe('the actions column', () => {
  it('stays at the right edge, where it is sticky, even when a column after it in the list is shown', () => {
    const columns = [
      { key: 'id', label: 'ID' },
      { key: 'name', label: 'NAME' },
      { key: 'actions', label: 'ACTIONS' },
      { key: 'agent', label: 'AGENT' },
      { key: 'city', label: 'CITY', hidden: true },
    ];
    const { result } = renderHook(() => useColumnChoice('actions-last-test', columns));
    expect(result.current.visible.map((c) => c.key)).toEqual(['id', 'name', 'agent', 'actions']);
  });
});
