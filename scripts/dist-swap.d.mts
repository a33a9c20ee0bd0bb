export function clearStaleBuilds(root: string): void;
export function swapIn(root: string, next: string, attempts?: number): void;
