/**
 * The evaluation graph under the board and the evaluation bar beside it:
 * both draw White's (Red's) winning chances, the same curve the server
 * judges moves by (docs/protocol-http.md, `/api/analysis`), so a blunder is a visible
 * drop. Plain SVG; the graph is clicked to jump to a move.
 */
import type { Eval, Judgement } from './api';

/** lichess's logistic curve: centipawns to winning chances in [-1, 1]. */
export function winChances(e: Eval | null): number | null {
  if (!e) return null;
  const logistic = (cp: number): number => 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
  if ('mate' in e) {
    if (e.mate === 0) return e.winner === 'white' ? 1 : e.winner === 'black' ? -1 : 0;
    return logistic((21 - Math.min(10, Math.abs(e.mate))) * 100 * Math.sign(e.mate));
  }
  return logistic(Math.max(-1000, Math.min(1000, e.cp)));
}

/** An evaluation as text: `+1.3`, `−0.4`, `#3`, `#−2`, `1-0`. */
export function evalText(e: Eval | null): string {
  if (!e) return '…';
  if ('mate' in e) {
    if (e.mate === 0) return e.winner === 'white' ? '1-0' : e.winner === 'black' ? '0-1' : '½-½';
    return e.mate > 0 ? `#${e.mate}` : `#−${-e.mate}`;
  }
  if (e.winner === null) return '½-½';
  const p = e.cp / 100;
  return `${p > 0 ? '+' : p < 0 ? '−' : ''}${Math.abs(p).toFixed(1)}`;
}

const SVG = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 100;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** What the graph shows. */
export interface GraphData {
  /** Winning chances per position (`null`: not analysed yet). */
  chances: readonly (number | null)[];
  /** Judgement of move k at index k - 1. */
  judgements: readonly (Judgement | null)[];
  current: number;
}

/** The evaluation graph: an area of White's chances over the moves. */
export class EvalGraph {
  readonly el: SVGSVGElement;
  private readonly area = svg('path', { class: 'an-graph-area' });
  private readonly line = svg('path', { class: 'an-graph-line' });
  private readonly marks = svg('g', {});
  private readonly cursor = svg('line', { class: 'an-graph-cursor', y1: 0, y2: H });
  private count = 1;

  constructor(label: string, onPick: (ply: number) => void) {
    this.el = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'an-graph', role: 'img', 'aria-label': label });
    this.el.append(svg('rect', { x: 0, y: 0, width: W, height: H, class: 'an-graph-bg' }), this.area, svg('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'an-graph-mid' }), this.line, this.marks, this.cursor);
    this.el.addEventListener('click', (e) => {
      const r = this.el.getBoundingClientRect();
      if (r.width <= 0) return;
      const ply = Math.round(((e.clientX - r.left) / r.width) * (this.count - 1));
      onPick(Math.max(0, Math.min(this.count - 1, ply)));
    });
  }

  /** Redraws for these chances, marks and current position. */
  update(d: GraphData): void {
    this.count = Math.max(1, d.chances.length);
    const x = (i: number): number => (this.count === 1 ? W / 2 : (i / (this.count - 1)) * W);
    const y = (c: number): number => H / 2 - (c * H) / 2;
    const pts: string[] = [];
    d.chances.forEach((c, i) => {
      if (c !== null) pts.push(`${x(i).toFixed(1)},${y(c).toFixed(1)}`);
    });
    this.line.setAttribute('d', pts.length ? `M${pts.join('L')}` : '');
    // the white area: from the bottom up to the curve
    this.area.setAttribute('d', pts.length ? `M${pts[0]?.split(',')[0]},${H}L${pts.join('L')}L${pts[pts.length - 1]?.split(',')[0]},${H}Z` : '');
    this.marks.replaceChildren();
    d.judgements.forEach((j, i) => {
      const c = d.chances[i + 1];
      if (!j || c === null || c === undefined) return;
      this.marks.append(svg('circle', { cx: x(i + 1), cy: y(c), r: j === 'blunder' ? 5 : 4, class: `an-mark an-${j}` }));
    });
    const cx = x(d.current);
    this.cursor.setAttribute('x1', cx.toFixed(1));
    this.cursor.setAttribute('x2', cx.toFixed(1));
  }
}

/** The evaluation bar: White's share of the height, from White's side of the board. */
export class EvalBar {
  readonly el: HTMLElement;
  private readonly fill: HTMLElement;
  private readonly label: HTMLElement;

  constructor(name: string) {
    this.el = document.createElement('div');
    this.el.className = 'an-bar';
    this.el.setAttribute('role', 'meter');
    this.el.setAttribute('aria-label', name);
    this.el.setAttribute('aria-valuemin', '0');
    this.el.setAttribute('aria-valuemax', '100');
    this.fill = document.createElement('div');
    this.fill.className = 'an-bar-white';
    this.label = document.createElement('span');
    this.label.className = 'an-bar-text';
    this.el.append(this.fill, this.label);
  }

  /** Shows `e`; `whiteBottom`: White's side of the board is at the bottom. */
  update(e: Eval | null, whiteBottom: boolean): void {
    const c = winChances(e) ?? 0;
    const pct = Math.round(50 + 50 * c);
    this.fill.style.height = `${pct}%`;
    this.el.classList.toggle('flipped', !whiteBottom);
    this.label.textContent = evalText(e);
    this.el.setAttribute('aria-valuenow', String(pct));
    this.el.setAttribute('aria-valuetext', evalText(e));
  }
}
