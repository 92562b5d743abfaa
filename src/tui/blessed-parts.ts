// The parts of blessed the split view draws with, loaded alone. blessed's index (lib/blessed.js) loads all
// 34 of its widgets (forms, lists, images, a terminal, video...) where the split view draws a screen and
// boxes: a run server loads blessed with its first split view, while a person waits on that attach, and
// there the index took 30–40 ms where these parts take 18–25 ms (half a megabyte less stays loaded, too).
// blessed 0.1.81 has no exports map: its files are required by path (docs/libraries.md §2). They are the
// very modules its index loads, so blessed loaded whole elsewhere (a test) shares them, prototypes included.

import { createRequire } from 'node:module';
import type * as Blessed from 'blessed';

const require = createRequire(import.meta.url);

/** blessed.screen(options): its Screen, callable without `new` */
export const screen = require('blessed/lib/widgets/screen') as typeof Blessed.screen;
/** blessed.box(options) */
export const box = require('blessed/lib/widgets/box') as typeof Blessed.box;
/** blessed.escape(text): text shown as it is in a box with tags on (named so it shadows no global `escape`) */
export const escapeTags = (require('blessed/lib/helpers') as { escape: typeof Blessed.escape }).escape;
/** blessed.colors, whose match() returns the palette index (its typings say a string) */
export const colors = require('blessed/lib/colors') as { match(r: number, g: number, b: number): number };
/** blessed.unicode, not in its typings: the width table its draw() uses (lib/unicode.js) */
export const unicode = require('blessed/lib/unicode') as { charWidth(str: string | number, index?: number): number };
/** blessed.Tput, the terminfo compiler each screen's program has one of */
export const Tput = require('blessed/lib/tput') as { prototype: object };
