// A blessed box's label without blessed's own renders: setLabel() hooks the box's 'scroll' and 'resize'
// to re-render the whole screen (at once on every scroll, a tick later on every resize; blessed 0.1.81,
// lib/widgets/element.js setLabel). The split view renders through its frame scheduler instead: a
// scroll or a new document or plan was one whole render more each time (the most costly part of an
// attach's first frame, and of every status change). The label keeps its place; the frame draws it.

import type { Widgets } from 'blessed';

interface LabelInternals {
  _label?: { rtop: number };
  _labelScroll?: () => void;
  _labelResize?: () => void;
  childBase?: number;
  itop: number;
  screen: { autoPadding: boolean };
}

const quieted = new WeakSet<Widgets.BoxElement>();

/** box.setLabel(text), its place kept on scroll and resize without a render of blessed's */
export function setQuietLabel(box: Widgets.BoxElement, text: string): void {
  box.setLabel(text);
  const el = box as unknown as LabelInternals;
  if (!el._label || !el._labelScroll || quieted.has(box)) return;
  quieted.add(box);
  box.removeListener('scroll', el._labelScroll);
  if (el._labelResize) box.removeListener('resize', el._labelResize);
  // What blessed's reposition does, less its screen.render().
  const quietReposition = (): void => {
    if (el._label) el._label.rtop = (el.childBase || 0) - (el.screen.autoPadding ? el.itop : 0);
  };
  el._labelScroll = quietReposition;
  el._labelResize = quietReposition;
  box.on('scroll', quietReposition);
  box.on('resize', quietReposition);
}
