/** Types for the chaos persona's helpers (chaos.mjs), used by the drive that judges its runs. */
export const STATUSES: number[];
export const WIRE_SHAPES: string[];
export const SHAPES: string[];
export function chaosShape(seed: number, n: number): string;
export function statusOf(shape: string): number;
export function wordsOf(shape: string): string | undefined;
export const chaosPersonas: Record<string, unknown>;
