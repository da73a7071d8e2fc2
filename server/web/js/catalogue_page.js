// /static/tiles.html: every tile type of the catalogue as the board draws it, with a dot and
// the id of each feature where a figure would stand: a way to check the drawing against
// the catalogue's topology (../shared/reference/tiles.md).
import { el, svg, clear } from './dom.js';
import { loadCatalogue, tileNode, geometry } from './tiles_svg.js';

const root = document.getElementById('catalogue');
const tiles = Object.values(await loadCatalogue());
clear(root);
const grid = el('div', { class: 'catalogue' });
root.append(el('p', { class: 'muted' }, `${tiles.length} tile types. Dots: where a figure stands on each feature.`), grid);
for (const t of tiles) {
  const defs = svg('defs');
  const picture = svg('svg', { viewBox: '-4 -4 108 108', width: 150, height: 150 }, defs, tileNode(defs, t.id, 0));
  for (const [feature, [x, y]] of Object.entries(geometry(t.id).anchors)) {
    picture.append(svg('circle', { cx: x, cy: y, r: 2.5, fill: '#000' }),
      svg('text', { x: x + 3, y: y - 2, class: 'coords', text: feature }));
  }
  grid.append(el('figure', { class: 'catalogue-tile', title: t.desc },
    picture, el('figcaption', {}, el('strong', {}, t.id), ` ×${t.count} `, el('span', { class: 'muted' }, t.sides))));
}
