/**
 * Piece and board images authored here, as SVG built in code: the Xiangqi
 * board (river, palaces, lines through the intersections the pieces stand
 * on) and the Xiangqi pieces (Chinese characters, or Western-style letters
 * as a setting). The 8×8 pieces are chessgroundx's own cburnett set.
 */

const svgUrl = (svg: string): string => `url("data:image/svg+xml;utf8,${encodeURIComponent(svg)}")`;

/** Red (white) and black characters per chessgroundx role letter. */
const CHARS: Record<string, { white: string; black: string; letter: string }> = {
  k: { white: '帥', black: '將', letter: 'K' },
  a: { white: '仕', black: '士', letter: 'A' },
  b: { white: '相', black: '象', letter: 'E' },
  n: { white: '傌', black: '馬', letter: 'H' },
  r: { white: '俥', black: '車', letter: 'R' },
  c: { white: '炮', black: '砲', letter: 'C' },
  p: { white: '兵', black: '卒', letter: 'P' },
};

/** One Xiangqi piece as an SVG document. */
export function xiangqiPieceSvg(role: string, color: 'white' | 'black', style: 'native' | 'western'): string {
  const c = CHARS[role];
  if (!c) return '';
  const ink = color === 'white' ? '#c0392b' : '#1c1c1c';
  const text = style === 'native' ? c[color] : c.letter;
  const font =
    style === 'native'
      ? `font-family="'Noto Serif CJK SC','Noto Sans CJK SC','Songti SC','SimSun',serif" font-size="50"`
      : `font-family="Georgia,serif" font-size="52" font-weight="bold"`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` +
    `<circle cx="50" cy="50" r="45" fill="#f6e3b4" stroke="${ink}" stroke-width="4"/>` +
    `<circle cx="50" cy="50" r="37" fill="none" stroke="${ink}" stroke-width="2"/>` +
    `<text x="50" y="52" text-anchor="middle" dominant-baseline="central" fill="${ink}" ${font}>${text}</text></svg>`
  );
}

/** The 9×10 board: 9 files × 10 ranks of intersections, one cell per intersection. */
export function xiangqiBoardSvg(): string {
  const l: string[] = [];
  const line = (x1: number, y1: number, x2: number, y2: number): void => {
    l.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`);
  };
  for (let j = 0; j < 10; j++) line(50, 50 + 100 * j, 850, 50 + 100 * j);
  for (let i = 0; i < 9; i++) {
    const x = 50 + 100 * i;
    if (i === 0 || i === 8) line(x, 50, x, 950);
    else {
      line(x, 50, x, 450);
      line(x, 550, x, 950);
    }
  }
  // palaces
  line(350, 50, 550, 250);
  line(550, 50, 350, 250);
  line(350, 750, 550, 950);
  line(550, 750, 350, 950);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 1000">` +
    `<rect width="900" height="1000" fill="#e8c887"/>` +
    `<g stroke="#5a3a1a" stroke-width="3">${l.join('')}</g>` +
    `<rect x="40" y="40" width="820" height="920" fill="none" stroke="#5a3a1a" stroke-width="6"/>` +
    `<g fill="#7a5230" font-size="54" font-family="serif" text-anchor="middle" dominant-baseline="central">` +
    `<text x="250" y="500">楚 河</text><text x="650" y="500">漢 界</text></g></svg>`
  );
}

/** The CSS for the Xiangqi board and pieces in the chosen style (scoped to `.xq`). */
export function xiangqiCss(style: 'native' | 'western'): string {
  const rules: string[] = [`.xq cg-board { background-image: ${svgUrl(xiangqiBoardSvg())}; }`];
  for (const role of Object.keys(CHARS))
    for (const color of ['white', 'black'] as const)
      rules.push(
        `.xq piece.${role}-piece.${color}, .xq .promo-${role}.${color} { background-image: ${svgUrl(xiangqiPieceSvg(role, color, style))}; }`,
      );
  return rules.join('\n');
}

/** chessgroundx's cburnett CSS names roles `pawn`, chessgroundx itself `p-piece`: rename the selectors. */
export function westernCss(cburnett: string): string {
  const names: Record<string, string> = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };
  return cburnett
    .replace(/piece\.(pawn|knight|bishop|rook|queen|king)\.(white|black)/g, (_m, role: string, color: string) => {
      const r = names[role] ?? 'p';
      // the promotion picker lies over the board but outside chessgroundx's wrap: its own selector
      return `piece.${r}-piece.${color}, .promotion-picker .promo-${r}.${color}`;
    })
    .replace(/\.cg-wrap \.cg-wrap/g, '.cg-wrap');
}
