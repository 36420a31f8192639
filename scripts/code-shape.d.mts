export interface Offender {
  file: string;
  line: number;
  kind: 'long' | 'any' | 'wide';
  lines?: number;
  name?: string;
  width?: number;
}
export const MAX_FUNCTION_LINES: number;
export const MAX_LINE_WIDTH: number;
export function inspectFile(file: string, text?: string): Offender[];
export function wideLines(file: string, text?: string): Offender[];
export function inspectTree(root?: string): { files: number; offenders: Offender[] };
