/** Below this the panes cannot keep their borders and columns: one line says so instead. */
export const MIN = { cols: 60, rows: 20 } as const;

export const tooSmall = (s: { cols: number; rows: number }) => s.cols < MIN.cols || s.rows < MIN.rows;
