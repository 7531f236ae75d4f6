import { describe, expect, it } from 'vitest';
import { parseAnalysis, violationOf } from '../src/analysis/api';
import { evalText, winChances } from '../src/analysis/graph';

describe('analysis evaluations', () => {
  it('turns centipawns and mates into winning chances as the server judges them', () => {
    expect(winChances({ cp: 0 })).toBe(0);
    expect(winChances({ cp: 5000 })).toBeCloseTo(winChances({ cp: 1000 }) ?? 0);
    expect(winChances({ cp: -300 })).toBeCloseTo(-0.502, 2);
    expect(winChances({ mate: 2 }) ?? 0).toBeGreaterThan(winChances({ cp: 1000 }) ?? 1);
    expect(winChances({ mate: -1 }) ?? 0).toBeLessThan(-0.99);
    expect(winChances({ mate: 0, winner: 'black' })).toBe(-1);
    expect(winChances({ cp: 0, winner: null })).toBe(0);
    expect(winChances(null)).toBeNull();
  });

  it('writes evaluations as players read them', () => {
    expect(evalText({ cp: 130 })).toBe('+1.3');
    expect(evalText({ cp: -45 })).toBe('−0.5');
    expect(evalText({ mate: -2 })).toBe('#−2');
    expect(evalText({ mate: 0, winner: 'white' })).toBe('1-0');
    expect(evalText({ cp: 0, winner: null })).toBe('½-½');
  });

  it('reads an analysis reply and refuses a malformed one', () => {
    const reply = {
      id: 'ab',
      variant: 'chess',
      fen: 'x w - - 0 1',
      ucis: ['e2e4'],
      sans: ['e4'],
      total: 2,
      done: 1,
      complete: false,
      positions: [{ ply: 0, eval: { cp: 20 }, best: 'e2e4', best_san: 'e4', pv: ['e2e4'], pv_san: ['e4'], depth: 9 }, { ply: 1, eval: null, best: null, best_san: null, pv: [], pv_san: [], depth: 0 }],
      moves: [{ ply: 1, uci: 'e2e4', san: 'e4', loss: null, judgement: null, better: null, better_san: null, violation: null }],
    };
    const a = parseAnalysis(reply);
    expect(a.positions[0]?.eval).toEqual({ cp: 20, winner: undefined });
    expect(a.positions[1]?.eval).toBeNull();
    expect(() => parseAnalysis({ ...reply, variant: 'shogi' })).toThrow();
    expect(() => parseAnalysis({ ...reply, positions: [] })).toThrow();
  });

  it('names the perpetual rule a Xiangqi move would lose by, and only a losing move', () => {
    const w = (uci: string, loses: boolean, reason: string | null) => ({
      uci,
      loses,
      forbidden: false,
      outcome: reason ? { winner: 'black' as const, reason: reason as 'perpetual_check' } : null,
      check: null,
      chases: [],
    });
    const warnings = [w('h9h10', true, 'perpetual_check'), w('b1c3', true, 'perpetual_chase'), w('a1a2', true, 'perpetual_check_vs_chase'), w('e1e2', false, 'mutual_perpetual_check')];
    expect(violationOf(warnings, 'h9h10')).toBe('perpetual_check');
    expect(violationOf(warnings, 'b1c3')).toBe('perpetual_chase');
    expect(violationOf(warnings, 'a1a2')).toBe('perpetual_check');
    expect(violationOf(warnings, 'e1e2')).toBeNull();
    expect(violationOf(warnings, 'h9h8')).toBeNull();
  });
});
