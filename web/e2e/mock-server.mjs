// Development stand-in for `chessplayx serve` while the server branch is not
// merged: serves web/dist and answers GET /api/version, POST /api/position
// and POST /api/ai-move by asking `chessplayx status` (the real rules), and
// a minimal in-memory version of the rooms and the WebSocket protocol of
// docs/protocol.md (no clocks, no persistence, no rate limits). Warnings
// only for moves that lose at once. Not used by `npm run e2e` unless E2E_MOCK=1.
// Usage: node e2e/mock-server.mjs <port> <path-to-chessplayx>
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { WebSocketServer } from 'ws';

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

const server = http
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
      if (req.method === 'POST' && req.url === '/api/rooms') {
        let raw = '';
        for await (const c of req) raw += c;
        return send(res, 201, await createRoom(JSON.parse(raw)));
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

// ---- rooms ------------------------------------------------------------------
const rooms = new Map();
const lobbySockets = new Set();
const rid = () => Math.random().toString(36).slice(2, 10);
const other = (c) => (c === 'white' ? 'black' : 'white');

async function createRoom(req) {
  const id = rid();
  const color = req.color === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : req.color;
  const room = {
    id, variant: req.variant, public: !!req.public, v: 0, history: [], outcome: null, rematch: null,
    tokens: { [color]: rid() + rid() }, invite: rid() + rid(), inviteUsed: false,
    offers: { draw: null, takeback: null, rematch: null }, sockets: new Set(), events: [], start_fen: null,
  };
  room.pos = await position({ variant: room.variant, fen: null, moves: [] });
  room.start_fen = room.pos.status.fen;
  rooms.set(id, room);
  pushLobby();
  return { id, color, seat_token: room.tokens[color], invite_url: `/r/${id}?invite=${room.invite}`, spectate_url: `/r/${id}` };
}

const players = (r) => ({
  white: { seated: !!r.tokens.white, connected: [...r.sockets].some((s) => s.color === 'white'), ai: null },
  black: { seated: !!r.tokens.black, connected: [...r.sockets].some((s) => s.color === 'black'), ai: null },
});
const presence = (r) => ({
  white: { connected: players(r).white.connected, claim_in: null },
  black: { connected: players(r).black.connected, claim_in: null },
});
const stateOf = (r) => (r.outcome ? 'finished' : r.tokens.white && r.tokens.black ? 'playing' : 'waiting');

function snapshot(r, you) {
  return { v: r.v, id: r.id, variant: r.variant, you, public: r.public, ai_level: null, state: stateOf(r), start_fen: r.start_fen,
    history: r.history, status: r.pos.status, moves: r.pos.moves, warnings: r.pos.warnings, clock: null, players: players(r),
    offers: r.offers, outcome: r.outcome, rematch: r.rematch, presence: presence(r) };
}
function event(r, t, d) {
  r.v += 1;
  const msg = JSON.stringify({ t, v: r.v, d });
  r.events.push(msg);
  for (const s of r.sockets) s.ws.send(msg);
}
function broadcast(r, t, d) {
  const msg = JSON.stringify(d === undefined ? { t } : { t, d });
  for (const s of r.sockets) s.ws.send(msg);
}
function lobby() {
  const open = [...rooms.values()].filter((r) => r.public && stateOf(r) === 'waiting');
  return { counters: { players_online: 0, games_playing: [...rooms.values()].filter((r) => stateOf(r) === 'playing').length, rooms_waiting: open.length },
    rooms: open.map((r) => ({ id: r.id, variant: r.variant, clock: null, open_color: r.tokens.white ? 'black' : 'white', created_at: 0, invite_url: `/r/${r.id}?invite=${r.invite}` })) };
}
function pushLobby() {
  const msg = JSON.stringify({ t: 'lobby', d: lobby() });
  for (const ws of lobbySockets) ws.send(msg);
}

const wss = new WebSocketServer({ noServer: true });
server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url, 'http://x');
  wss.handleUpgrade(req, socket, head, (ws) => {
    if (url.pathname === '/ws/lobby') {
      lobbySockets.add(ws);
      ws.send(JSON.stringify({ t: 'lobby', d: lobby() }));
      ws.on('close', () => lobbySockets.delete(ws));
      return;
    }
    const room = rooms.get(url.pathname.split('/').pop());
    if (!room) return ws.close();
    const client = { ws, color: null };
    const token = url.searchParams.get('token');
    const invite = url.searchParams.get('invite');
    for (const c of ['white', 'black']) if (token && room.tokens[c] === token) client.color = c;
    let seated = null;
    if (!client.color && invite) {
      if (invite === room.invite && !room.inviteUsed) {
        const free = room.tokens.white ? 'black' : 'white';
        room.tokens[free] = rid() + rid();
        room.inviteUsed = true;
        client.color = free;
        seated = { color: free, token: room.tokens[free] };
      } else ws.send(JSON.stringify({ t: 'error', d: { code: 'invite_used', message: 'invite used' } }));
    }
    room.sockets.add(client);
    const v = url.searchParams.get('v');
    const n = v === null ? null : Number(v);
    if (n !== null && n <= room.v && room.v - n <= room.events.length) for (const e of room.events.slice(room.events.length - (room.v - n))) ws.send(e);
    else ws.send(JSON.stringify({ t: 'state', d: snapshot(room, client.color) }));
    if (seated) {
      ws.send(JSON.stringify({ t: 'seat', d: seated }));
      event(room, 'joined', { color: seated.color, players: players(room) });
      pushLobby();
    }
    broadcast(room, 'presence', presence(room));
    ws.on('close', () => {
      room.sockets.delete(client);
      broadcast(room, 'presence', presence(room));
    });
    ws.on('message', async (raw) => {
      let m;
      try { m = JSON.parse(String(raw)); } catch { return ws.send(JSON.stringify({ t: 'error', d: { code: 'bad_message', message: '' } })); }
      const err = (code) => ws.send(JSON.stringify({ t: 'error', d: { code, message: code } }));
      const me = client.color;
      if (m.t === 'ping') return ws.send('{"t":"pong"}');
      if (m.t === 'sync') return ws.send(JSON.stringify({ t: 'state', d: snapshot(room, me) }));
      if (!me) return err('not_a_player');
      const end = (outcome) => { room.outcome = outcome; event(room, 'end', { outcome, clock: null }); pushLobby(); };
      switch (m.t) {
        case 'move': {
          if (room.outcome) return err('game_over');
          if (room.pos.status.turn !== me) return err('not_your_turn');
          if (m.d.ply !== room.history.length) return err('stale');
          const info = room.pos.moves.find((x) => x.uci === m.d.uci);
          if (!info) return err('illegal_move');
          room.history.push({ uci: info.uci, san: info.san });
          room.pos = await position({ variant: room.variant, fen: null, moves: room.history.map((h) => h.uci) });
          room.offers.draw = null; room.offers.takeback = null;
          ws.send(JSON.stringify({ t: 'ack', d: { ply: m.d.ply, v: room.v + 1 } }));
          event(room, 'move', { ply: m.d.ply, uci: info.uci, san: info.san, by: me, ...room.pos, clock: null });
          if (room.pos.status.outcome) end(room.pos.status.outcome);
          return;
        }
        case 'resign': return end({ winner: other(me), reason: 'resignation' });
        case 'abort': return room.history.length < 2 ? end({ winner: null, reason: 'aborted' }) : err('cannot_abort');
        case 'draw_offer': case 'takeback_offer': case 'rematch_offer': {
          const kind = m.t.split('_')[0];
          if (room.offers[kind] === other(me)) return accept(kind);
          room.offers[kind] = me;
          return event(room, 'offer', { kind, by: me });
        }
        case 'draw_accept': case 'takeback_accept': case 'rematch_accept': {
          const kind = m.t.split('_')[0];
          return room.offers[kind] === other(me) ? accept(kind) : err('no_offer');
        }
        case 'draw_decline': case 'takeback_decline': case 'rematch_decline': {
          const kind = m.t.split('_')[0];
          room.offers[kind] = null;
          return event(room, 'decline', { kind, by: me });
        }
        default: return err('unknown_type');
      }
      async function accept(kind) {
        const by = room.offers[kind];
        room.offers[kind] = null;
        if (kind === 'draw') return end({ winner: null, reason: 'draw_agreement' });
        if (kind === 'takeback') {
          const undo = room.pos.status.turn === by ? 2 : 1;
          room.history = room.history.slice(0, Math.max(0, room.history.length - undo));
          room.pos = await position({ variant: room.variant, fen: null, moves: room.history.map((h) => h.uci) });
          return event(room, 'takeback', { undone: undo, ply: room.history.length, ...room.pos, clock: null });
        }
        const id = rid();
        const nr = { ...room, id, v: 0, history: [], outcome: null, rematch: null, events: [], sockets: new Set(), inviteUsed: true,
          offers: { draw: null, takeback: null, rematch: null }, tokens: { white: room.tokens.black, black: room.tokens.white } };
        nr.pos = await position({ variant: room.variant, fen: null, moves: [] });
        rooms.set(id, nr);
        room.rematch = id;
        event(room, 'rematch', { id });
      }
    });
  });
});
