// Types of history.mjs for the benches' TypeScript.
export declare const historyDir: string;
export declare function historyFile(bench: string): string;
export declare function runDate(run: { date?: string; measuredAt?: string; file?: string }): string;
export declare function appendRun(bench: string, run: object): string;
export declare function readRuns(bench: string): Record<string, unknown>[];
export declare function latestRun(bench: string): Record<string, unknown> | undefined;
export declare function convert(resultsDir?: string): Record<string, number>;
