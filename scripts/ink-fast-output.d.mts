import type { Plugin } from 'esbuild';

export declare const inkFastOutput: Plugin;
