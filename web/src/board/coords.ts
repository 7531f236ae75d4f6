/**
 * File and rank labels around a board, in the notation our UCI uses: files
 * `a`… and ranks `1`… (`10` on the Xiangqi board, never chessgroundx's
 * internal `:`). Drawn by us rather than by chessgroundx: its bundled CSS
 * styles `coords.ranks`/`coords.files` while its code emits
 * `coords.side`/`coords.bottom`, and the Xiangqi pieces cover the cell
 * corners where in-board labels would go, so the labels sit outside the
 * board, one per file (below) and one per rank (on the left).
 */
import type { Dims } from './keys';

/** Labels in screen order: files left to right, ranks top to bottom. */
export interface CoordLabels {
  readonly files: readonly string[];
  readonly ranks: readonly string[];
}

/** The labels of a board seen from `orientation`'s side. */
export function coordLabels(dims: Dims, orientation: 'white' | 'black'): CoordLabels {
  const white = orientation === 'white';
  // screen position i shows file i (white) or the mirrored one (black); same for ranks from the top
  const files = Array.from({ length: dims.width }, (_, i) => String.fromCharCode(97 + (white ? i : dims.width - 1 - i)));
  const ranks = Array.from({ length: dims.height }, (_, i) => String(white ? dims.height - i : i + 1));
  return { files, ranks };
}

/**
 * Fills (or refills, after a flip) the two label strips of a board; `box`
 * is the element the squares exactly cover (chessgroundx's container).
 */
export function renderCoords(box: HTMLElement, dims: Dims, orientation: 'white' | 'black'): void {
  const labels = coordLabels(dims, orientation);
  const strip = (cls: string, texts: readonly string[]): HTMLElement => {
    let el = box.querySelector<HTMLElement>(`:scope > .${cls}`);
    if (!el) {
      el = document.createElement('div');
      el.className = `coords ${cls}`;
      // the board's accessible name says what it is; labels are visual only
      el.setAttribute('aria-hidden', 'true');
      box.appendChild(el);
    }
    el.replaceChildren(
      ...texts.map((text) => {
        const s = document.createElement('span');
        s.textContent = text;
        return s;
      }),
    );
    return el;
  };
  strip('coords-files', labels.files);
  strip('coords-ranks', labels.ranks);
}
