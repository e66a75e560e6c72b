// The drawing tools, loaded on first use (a drawing to show or a tool chosen).
export { DrawingLayer, type DrawingLayerOptions } from './layer.ts';
export { createDrawing, deleteDrawings, updateDrawing } from './persist.ts';
