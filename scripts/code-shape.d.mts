export interface Offender { file: string; line: number; kind: 'long' | 'any'; lines?: number; name?: string }
export const MAX_FUNCTION_LINES: number;
export function inspectFile(file: string, text?: string): Offender[];
export function inspectTree(root?: string): { files: number; offenders: Offender[] };
