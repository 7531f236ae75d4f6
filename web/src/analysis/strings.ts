/**
 * The analysis page's words in the app's four languages. Kept beside the
 * page (the app catalogue belongs to the rest of the app); the types make
 * every language carry every key.
 */
import { lang, type Lang } from '../i18n';

const en = {
  title: 'Analysis',
  graph: 'Evaluation graph: click to go to a move',
  bar: 'Evaluation',
  running: 'Analysing: {done} of {total} positions',
  complete: 'Analysis complete',
  missing: 'This analysis is no longer on the server. Start it again from the game.',
  first: 'First position',
  prev: 'Previous move',
  next: 'Next move',
  last: 'Last position',
  flip: 'Flip the board',
  moves: 'Moves',
  inaccuracy: 'Inaccuracy',
  mistake: 'Mistake',
  blunder: 'Blunder',
  best: 'Best was {move}',
  engine: 'Engine: {line}',
  depth: 'depth {depth}',
  perpetual_check: 'Loses by perpetual check',
  perpetual_chase: 'Loses by perpetual chase',
  loseCheck: 'Would lose by perpetual check: {moves}',
  loseChase: 'Would lose by perpetual chase: {moves}',
  explore: 'Your line from move {ply}',
  back: 'Back to the game',
  thinking: 'The engine is thinking…',
  busy: 'The engine is busy; it will try again on your next move.',
  home: 'Home',
  start: 'Start position',
} as const;

type Key = keyof typeof en;

const vi: Record<Key, string> = {
  title: 'Phân tích',
  graph: 'Biểu đồ đánh giá: bấm để đến một nước',
  bar: 'Đánh giá',
  running: 'Đang phân tích: {done} / {total} thế cờ',
  complete: 'Đã phân tích xong',
  missing: 'Phân tích này không còn trên máy chủ. Hãy bắt đầu lại từ ván cờ.',
  first: 'Thế cờ đầu',
  prev: 'Nước trước',
  next: 'Nước sau',
  last: 'Thế cờ cuối',
  flip: 'Lật bàn cờ',
  moves: 'Các nước',
  inaccuracy: 'Không chính xác',
  mistake: 'Sai lầm',
  blunder: 'Sai lầm nghiêm trọng',
  best: 'Nước tốt nhất: {move}',
  engine: 'Máy: {line}',
  depth: 'độ sâu {depth}',
  perpetual_check: 'Thua vì chiếu mãi',
  perpetual_chase: 'Thua vì đuổi bắt mãi',
  loseCheck: 'Sẽ thua vì chiếu mãi: {moves}',
  loseChase: 'Sẽ thua vì đuổi bắt mãi: {moves}',
  explore: 'Biến của bạn từ nước {ply}',
  back: 'Trở lại ván cờ',
  thinking: 'Máy đang tính…',
  busy: 'Máy đang bận; sẽ thử lại ở nước sau của bạn.',
  home: 'Trang chủ',
  start: 'Thế cờ ban đầu',
};

const pl: Record<Key, string> = {
  title: 'Analiza',
  graph: 'Wykres oceny: kliknij, aby przejść do ruchu',
  bar: 'Ocena',
  running: 'Analiza: {done} z {total} pozycji',
  complete: 'Analiza zakończona',
  missing: 'Tej analizy nie ma już na serwerze. Uruchom ją ponownie z partii.',
  first: 'Pierwsza pozycja',
  prev: 'Poprzedni ruch',
  next: 'Następny ruch',
  last: 'Ostatnia pozycja',
  flip: 'Obróć szachownicę',
  moves: 'Ruchy',
  inaccuracy: 'Niedokładność',
  mistake: 'Błąd',
  blunder: 'Poważny błąd',
  best: 'Najlepszy był {move}',
  engine: 'Silnik: {line}',
  depth: 'głębokość {depth}',
  perpetual_check: 'Przegrywa przez wieczny szach',
  perpetual_chase: 'Przegrywa przez wieczny pościg',
  loseCheck: 'Przegrywa przez wieczny szach: {moves}',
  loseChase: 'Przegrywa przez wieczny pościg: {moves}',
  explore: 'Twój wariant od ruchu {ply}',
  back: 'Wróć do partii',
  thinking: 'Silnik myśli…',
  busy: 'Silnik jest zajęty; spróbuje ponownie po twoim następnym ruchu.',
  home: 'Strona główna',
  start: 'Pozycja początkowa',
};

const pt: Record<Key, string> = {
  title: 'Análise',
  graph: 'Gráfico de avaliação: clique para ir a um lance',
  bar: 'Avaliação',
  running: 'A analisar: {done} de {total} posições',
  complete: 'Análise concluída',
  missing: 'Esta análise já não está no servidor. Comece-a de novo a partir do jogo.',
  first: 'Primeira posição',
  prev: 'Lance anterior',
  next: 'Lance seguinte',
  last: 'Última posição',
  flip: 'Virar o tabuleiro',
  moves: 'Lances',
  inaccuracy: 'Imprecisão',
  mistake: 'Erro',
  blunder: 'Erro grave',
  best: 'O melhor era {move}',
  engine: 'Motor: {line}',
  depth: 'profundidade {depth}',
  perpetual_check: 'Perde por xeque perpétuo',
  perpetual_chase: 'Perde por perseguição perpétua',
  loseCheck: 'Perderia por xeque perpétuo: {moves}',
  loseChase: 'Perderia por perseguição perpétua: {moves}',
  explore: 'A sua linha a partir do lance {ply}',
  back: 'Voltar ao jogo',
  thinking: 'O motor está pensando…',
  busy: 'O motor está ocupado; tentará de novo no seu próximo lance.',
  home: 'Início',
  start: 'Posição inicial',
};

/** Every language's words (for the completeness test). */
export const ANALYSIS_STRINGS: Record<Lang, Record<Key, string>> = { en, vi, pl, pt };

/** A word of the page in the current language, `{name}` filled in. */
export function s(key: Key, params: Record<string, string | number> = {}): string {
  const text = ANALYSIS_STRINGS[lang()][key];
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}
