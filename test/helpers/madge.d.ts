// The part of madge's API (lib/api.js, untyped) that the import-cycle test uses.
declare module 'madge' {
  interface MadgeResult {
    obj(): Record<string, string[]>;
    circular(): string[][];
    depends(id: string): string[];
  }
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  export default function madge(path: string, config?: MadgeConfig): Promise<MadgeResult>;
}
