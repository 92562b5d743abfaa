// Types of scripts/report-screenshot.mjs for the TypeScript tests that import it.
export declare const CHROMIUM: string;
export interface ChromiumLoad {
  url: string;
  /** requests other than the page's own file: any is a failure */
  requests: string[];
  errors: string[];
  polylines: number;
  scripts: number;
  title: string;
  /** the page's width as laid out: more than the viewport's means it scrolls sideways */
  scrollWidth: number;
}
export declare function loadInChromium(
  htmlFile: string,
  pngFile: string,
  options?: { width?: number; height?: number; fullPage?: boolean },
): Promise<ChromiumLoad>;
