// Development stand-in for `chessplayx serve` while the server branch is not
// merged: serves web/dist and answers GET /api/version, POST /api/position
// and POST /api/ai-move by asking `chessplayx status` (the real rules).
// No rooms, no WebSockets; warnings only for moves that lose at once. Not used by `npm run e2e` unless E2E_MOCK=1.
// Usage: node e2e/mock-server.mjs <port> <path-to-chessplayx>
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const port = Number(process.argv[2] ?? 8099);
const bin = process.argv[3] ?? 'chessplayx';
const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../dist');

async function status(variant, fen, moves) {
  const args = ['status', '--variant', variant, '--moves', moves.join(' ')];
  if (fen) args.push('--fen', fen);
  const { stdout } = await run(bin, args);
  return JSON.parse(stdout);
}

async function position(body) {
  const st = await status(body.variant, body.fen, body.moves);
  const moves = [];
  const warnings = [];
  if (!st.outcome)
    for (const uci of st.legal_moves) {
      const after = await status(body.variant, body.fen, [...body.moves, uci]);
      const m = /^([a-i]\d+)([a-i]\d+)([a-z]?)$/.exec(uci);
      moves.push({ uci, san: after.san, from: m[1], to: m[2], promotion: m[3] || null });
      // a rough stand-in for the server's warnings: a move after which the mover has lost
      if (body.variant === 'xiangqi' && after.outcome && after.outcome.winner !== st.turn)
        warnings.push({ uci, outcome: after.outcome, loses: true, forbidden: false, check: null, chases: [] });
    }
  return { status: st, moves, warnings };
}

const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.map': 'application/json' };

http
  .createServer(async (req, res) => {
    try {
      if (req.url === '/api/version') return send(res, 200, { version: 'mock · 0000000' });
      if (req.method === 'POST' && (req.url === '/api/position' || req.url === '/api/ai-move')) {
        let raw = '';
        for await (const c of req) raw += c;
        const body = JSON.parse(raw);
        const p = await position(body);
        if (req.url === '/api/position') return send(res, 200, p);
        const m = p.moves[Math.floor(Math.random() * p.moves.length)];
        return m ? send(res, 200, { uci: m.uci, san: m.san }) : send(res, 409, { error: { code: 'game_over', message: 'over' } });
      }
      const file = path.join(dist, decodeURIComponent(new URL(req.url, 'http://x').pathname));
      let data;
      try {
        data = await readFile(file);
      } catch {
        data = await readFile(path.join(dist, 'index.html'));
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(data);
      }
      res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    } catch (e) {
      send(res, 400, { error: { code: 'bad_move', message: String(e) } });
    }
  })
  .listen(port, '127.0.0.1', () => console.log(`mock on ${port}`));

function send(res, code, obj) {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
}
