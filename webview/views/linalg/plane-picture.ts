// A 2 × 2 matrix drawn as what it does to the plane: the unit circle (muted), its image (an
// ellipse, a segment or a point), the singular directions (arrows σ·u: the ellipse's axes) and the
// real eigen-directions (dashed: the lines it only stretches). Shared by the Spectrum view's panels.
import type { PictureJson } from '../../../src/core/result/linalg-json.js';
import type { Theme } from '../../kit/colour.js';
import { fmt } from '../../kit/format.js';
import type { TipTable } from '../../kit/tips.js';
import type { G } from '../../kit/view.js';

/** `square`: the matrix maps the plane to itself, so its eigen-directions mean something (else they are not drawn). */
export function drawPlanePicture(g: G, theme: Theme, x: number, y: number, size: number, p: PictureJson, tips: TipTable, title: string, square: boolean): void {
  const box = g.append('g').attr('class', 'plane-picture').attr('transform', `translate(${x},${y})`);
  box.append('rect').attr('width', size).attr('height', size).attr('fill', 'none').attr('stroke', theme.grid);
  if (!p.finite) {
    box.append('text').attr('x', 6).attr('y', size / 2).attr('fill', theme.muted).attr('font-size', theme.fontSize - 1).text('numbers too large to draw');
    return;
  }
  // One scale for circle and image: the farthest point of either fits with a margin.
  let reach = 1;
  for (let i = 0; i < p.image.length; i++) reach = Math.max(reach, Math.abs(p.image[i]));
  const unit = (size * 0.42) / reach;
  const c = size / 2;
  const P = (vx: number, vy: number) => `${(c + vx * unit).toFixed(2)},${(c - vy * unit).toFixed(2)}`;
  const path = (pts: number[]) => {
    const parts: string[] = [];
    for (let i = 0; i + 1 < pts.length; i += 2) parts.push(P(pts[i], pts[i + 1]));
    return `M ${parts.join(' L ')} Z`;
  };
  box.append('line').attr('x1', 0).attr('x2', size).attr('y1', c).attr('y2', c).attr('stroke', theme.grid);
  box.append('line').attr('x1', c).attr('x2', c).attr('y1', 0).attr('y2', size).attr('stroke', theme.grid);
  box.append('path').attr('class', 'unit-circle').attr('d', path(p.circle)).attr('fill', 'none').attr('stroke', theme.muted).attr('stroke-dasharray', '3 3');
  const [[a, b], [cc, d]] = p.matrix;
  box.append('path').attr('class', 'image hot').attr('d', path(p.image)).attr('fill', 'none').attr('stroke', theme.accent).attr('stroke-width', 2)
    .attr('data-tip', tips.add({ lines: [`${title}: the unit circle times [[${fmt(a)}, ${fmt(b)}], [${fmt(cc)}, ${fmt(d)}]]`, 'each point x of the circle goes to x · M: the circle becomes this ellipse'] }));
  p.singular.forEach((s, k) => {
    const [ox, oy] = [s.output[0], s.output[1]];
    box.append('line').attr('class', 'singular hot').attr('x1', c).attr('y1', c)
      .attr('x2', c + ox * unit).attr('y2', c - oy * unit).attr('stroke', theme.heads[k % theme.heads.length]).attr('stroke-width', 2.5)
      .attr('data-tip', tips.add({ lines: [`σ${k + 1} = ${fmt(s.sigma)}: the unit direction (${fmt(s.input[0], 2)}, ${fmt(s.input[1], 2)}) goes to (${fmt(ox, 2)}, ${fmt(oy, 2)}), ${fmt(s.sigma)} long`, k === 0 ? 'the direction the matrix stretches most' : 'the direction it stretches least'] }));
  });
  for (const e of square ? p.eigenDirections : []) {
    const [dx, dy] = e.direction;
    // To the box's edge and no further: the line has no end, the picture has.
    const far = (size / 2) / Math.max(1e-9, Math.abs(dx), Math.abs(dy));
    box.append('line').attr('class', 'eigen hot').attr('x1', c - dx * far).attr('y1', c + dy * far).attr('x2', c + dx * far).attr('y2', c - dy * far)
      .attr('stroke', theme.fg).attr('stroke-dasharray', '6 4').attr('stroke-width', 1.2)
      .attr('data-tip', tips.add({ lines: [`eigen-direction (${fmt(dx, 2)}, ${fmt(dy, 2)}), λ = ${fmt(e.lambda)}`, 'x · M = λx: the matrix keeps this line, only stretching it (flipping it if λ < 0)'] }));
  }
}
