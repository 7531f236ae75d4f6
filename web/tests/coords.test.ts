// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { coordLabels, renderCoords } from '../src/board/coords';
import { VARIANT_INFO } from '../src/variants';

const eight = VARIANT_INFO.chess.dims;
const xq = VARIANT_INFO.xiangqi.dims;

describe('board coordinate labels', () => {
  it('8×8 from White: files a–h left to right, ranks 8 down to 1', () => {
    expect(coordLabels(eight, 'white')).toEqual({ files: [...'abcdefgh'], ranks: ['8', '7', '6', '5', '4', '3', '2', '1'] });
  });
  it('8×8 from Black: mirrored both ways', () => {
    expect(coordLabels(eight, 'black')).toEqual({ files: [...'hgfedcba'], ranks: ['1', '2', '3', '4', '5', '6', '7', '8'] });
  });
  it('Xiangqi from Red: files a–i and ranks 10 down to 1, rank 10 written "10" (not chessgroundx\'s ":")', () => {
    const l = coordLabels(xq, 'white');
    expect(l.files).toEqual([...'abcdefghi']);
    expect(l.ranks).toEqual(['10', '9', '8', '7', '6', '5', '4', '3', '2', '1']);
  });
  it('Xiangqi from Black: i–a and 1 up to 10', () => {
    const l = coordLabels(xq, 'black');
    expect(l.files).toEqual([...'ihgfedcba']);
    expect(l.ranks).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  });
  it('every label names a square the server understands, in both orientations', () => {
    for (const dims of [eight, xq])
      for (const o of ['white', 'black'] as const) {
        const l = coordLabels(dims, o);
        expect(new Set(l.files).size).toBe(dims.width);
        expect(new Set(l.ranks).size).toBe(dims.height);
        for (const f of l.files) for (const r of l.ranks) expect(`${f}${r}`).toMatch(/^[a-i](10|[1-9])$/);
      }
  });
  it('renders two strips once and refills them on a flip', () => {
    const host = document.createElement('div');
    renderCoords(host, xq, 'white');
    const text = (cls: string): string[] => Array.from(host.querySelectorAll(`.${cls} span`), (s) => s.textContent ?? '');
    expect(text('coords-ranks')[0]).toBe('10');
    expect(text('coords-files')[0]).toBe('a');
    renderCoords(host, xq, 'black');
    expect(host.querySelectorAll('.coords').length).toBe(2);
    expect(text('coords-ranks')).toEqual(coordLabels(xq, 'black').ranks);
    expect(text('coords-files')[0]).toBe('i');
    expect(host.querySelector('.coords')?.getAttribute('aria-hidden')).toBe('true');
  });
});
