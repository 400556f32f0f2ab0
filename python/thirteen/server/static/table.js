// The web table of `thirteen serve`: one WebSocket, the protocol of docs/server.md.
// Cards are clicked from the hand into the active lane (front, middle, back) and back again;
// the server checks the lanes (categories, foul 相公) as soon as 13 cards are placed.
"use strict";

const SUITS = { s: "♠", h: "♥", c: "♣", d: "♦" };
const LANES = ["front", "middle", "back"];
const SIZE = { front: 3, middle: 5, back: 5 };
const $ = (id) => document.getElementById(id);
const enc = new TextEncoder();

const S = {
  ws: null, nonce: null, session: null, privateKey: null, connKey: null, key: null, seq: 0, mode: "play",
  chain: Promise.resolve(), state: null, you: null, hand: [], handText: "", lanes: { front: [], middle: [], back: [] },
  active: "front", pending: {}, selected: new Set(), special: null, clockAt: 0, clockLeft: null, reveal: 0,
};

// ---------------------------------------------------------------- keys and signatures
// The session is an ECDSA P-256 key pair made here; its private key cannot be exported and
// stays in this browser's IndexedDB. The server keeps only the public key. Each connection
// signs its messages with HMAC-SHA256 under the key the server sends in `welcome`.

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));

function keyStore(mode, work) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("thirteen", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("sessions");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("sessions", mode);
      const req = work(tx.objectStore("sessions"));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
    };
  });
}
const saveSession = (record) => keyStore("readwrite", (st) => st.put(record, "current"));
const loadSession = () => keyStore("readonly", (st) => st.get("current"));
const forgetSession = () => keyStore("readwrite", (st) => st.delete("current"));

async function hmacHex(text) {
  if (!S.key) {
    S.key = await crypto.subtle.importKey("raw", unhex(S.connKey), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }
  return hex(await crypto.subtle.sign("HMAC", S.key, enc.encode(text)));
}

async function resumeProof() {
  const data = enc.encode(`thirteen resume\n${S.nonce}\n${S.session}`);
  return hex(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, S.privateKey, data));
}

// Sends one action, signed; sends are chained so sequence numbers leave in order.
function send(action) {
  const job = S.chain.then(async () => {
    const body = JSON.stringify(action);
    const seq = ++S.seq;
    S.pending[seq] = action.type;
    const sig = await hmacHex(`${S.nonce}\n${seq}\n${body}`);
    S.ws.send(JSON.stringify({ type: "signed", seq, body, sig }));
    return seq;
  });
  S.chain = job.catch(() => {});
  return job;
}

// ---------------------------------------------------------------- connection

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  S.ws = new WebSocket(S.url || `${proto}//${location.host}/ws`);
  S.seq = 0;
  S.key = null;
  S.nonce = null;
  S.ws.onmessage = (ev) => onFrame(JSON.parse(ev.data));
  S.ws.onclose = () => {
    const moved = S.moved;
    S.moved = false;
    if (!moved) { S.url = null; log("connection closed; reconnecting…"); }
    if (S.session || S.rejoin) setTimeout(connect, moved ? 0 : 1500);
  };
}

async function onFrame(f) {
  switch (f.type) {
    case "hello":
      await S.loaded;
      S.nonce = f.nonce;
      S.mode = f.accounts;
      if (S.session && S.privateKey) {
        S.ws.send(JSON.stringify({ type: "resume", protocol: 3, session: S.session, proof: await resumeProof() }));
      } else if (S.rejoin) {
        S.ws.send(JSON.stringify(S.rejoin));
      }
      break;
    case "redirect":
      // another process plays the room: reconnect there (the server closes this socket)
      S.url = f.url || null;
      S.moved = true;
      log("the room is played by another server; moving there…");
      break;
    case "welcome":
      S.connKey = f.key; S.key = null; S.rejoin = null;
      if (S.session !== f.session) {
        S.session = f.session;
        await saveSession({ session: f.session, privateKey: S.privateKey, room: f.room });
      }
      $("join-panel").hidden = true;
      $("game").hidden = false;
      log(`welcome, ${f.name}: room ${f.room}`);
      if (S.autoSit) { S.autoSit = false; send({ type: "sit" }); }
      break;
    case "state": S.state = f; render(); break;
    case "you": S.you = f; render(); break;
    case "result": onResult(f); break;
    case "hints": showHints(f.hints); break;
    case "checked": showCheck(f); break;
    case "ok": onOk(f); break;
    case "pong": break;
    case "error": S.rejoin = null; onError(f); break;
    default: log(`unknown frame ${f.type}`);
  }
}

function onOk(f) {
  const what = S.pending[f.seq];
  delete S.pending[f.seq];
  if (f.action === "sit" && f.queued) say("The table is full: you sit when an AI seat frees after this round.");
  else if (what) log(`${what}: ok`);
}

function onError(f) {
  const what = f.seq ? S.pending[f.seq] : null;
  if (f.seq) delete S.pending[f.seq];
  if (!S.session) { $("join-error").textContent = f.message; return; }
  if (f.code === "unknown_session" || f.code === "bad_proof") {
    forgetSession();
    S.session = null; S.privateKey = null;
    $("join-panel").hidden = false; $("game").hidden = true;
  }
  say(`${what ? what + ": " : ""}${f.message}`);
  log(`error ${f.code}: ${f.message}`);
}

// ---------------------------------------------------------------- state

// The room (`state`, the same for everyone) and what only this player sees (`you`: the
// seat, the account, the own hand and play) are two frames; the page shows both.
function render() {
  const st = S.state, you = S.you;
  if (!st || !you) return;
  $("where").textContent = `room ${st.room} · ${st.rules.name} · stake ${st.stake}`;
  const seatInfo = you.seat !== null ? st.seats[you.seat] : null;
  $("me").textContent = `${you.name} · account ${fmt(you.account)}` + (seatInfo ? ` · at the table ${fmt(seatInfo.balance)} · ${seatInfo.levels.money.title}` : "");
  renderSeats(st, you);
  const r = st.round;
  const mine = you.round && r && you.round.number === r.number ? you.round : null;
  $("sit").hidden = you.seat !== null || you.waiting;
  $("stand").hidden = you.seat === null;
  $("surrender").hidden = !(st.rules.surrender && mine && mine.hand && !mine.play);
  $("give").hidden = !(r && r.phase === "swap" && mine && mine.hand);
  if (r) {
    S.clockLeft = r.deadline_in; S.clockAt = performance.now();
    if (r.phase === "swap") $("phase").textContent = mine && mine.hand ? `Round ${r.number}: swap — select up to ${st.rules.swap} cards to give (换三张)` : `Round ${r.number}: swapping`;
    else if (!mine || !mine.hand) $("phase").textContent = `Round ${r.number} in progress (you are not dealt in)`;
    else if (mine.play || mine.surrendered) $("phase").textContent = `Round ${r.number}: played${mine.auto ? " by the engine (代打)" : ""} — waiting for the others`;
    else $("phase").textContent = `Round ${r.number}: arrange your hand`;
  } else {
    S.clockLeft = null;
    $("phase").textContent = you.seat === null ? "Sit down to play." : "Waiting for the next deal…";
  }
  const handText = mine && mine.hand ? `${mine.number}|${mine.phase}|${mine.hand}` : "";
  if (handText !== S.handText) {
    S.handText = handText;
    if (handText && mine.phase !== "swap" && S.revealedRound !== mine.number) $("reveal").hidden = true;
    S.hand = mine && mine.hand ? mine.hand.split(" ") : [];
    S.lanes = { front: [], middle: [], back: [] };
    S.selected = new Set();
    S.special = null;
    setActive("front");
    $("hint-list").innerHTML = "";
    $("declare").hidden = true;
    showCheck(null);
  }
  if (mine && mine.play && mine.play.front && S.placedCount() === 0) {
    // Show what was played (after a reload, or by the engine).
    for (const lane of LANES) for (const c of mine.play[lane].split(" ")) {
      const i = S.hand.findIndex((h, k) => h === c && !S.isPlaced(k));
      if (i >= 0) S.lanes[lane].push(i);
    }
  }
  renderHand();
}

function myRound() {
  const r = S.state && S.state.round, you = S.you;
  return you && you.round && r && you.round.number === r.number ? you.round : null;
}

S.isPlaced = (i) => LANES.some((l) => S.lanes[l].includes(i));
S.placedCount = () => LANES.reduce((n, l) => n + S.lanes[l].length, 0);

function canPlay() {
  const r = myRound();
  return !!(r && r.phase === "arrange" && r.hand && !r.play && !r.surrendered);
}

function renderSeats(st, you) {
  const box = $("seats");
  box.innerHTML = "";
  st.seats.forEach((p, i) => {
    const d = document.createElement("div");
    d.className = "seat";
    if (!p) { d.classList.add("empty"); d.textContent = `seat ${i + 1}: free`; box.appendChild(d); return; }
    if (p.player === you.player) d.classList.add("you");
    let status = "";
    if (st.round && p.in_round) status = p.played ? "played ✓" : st.round.phase === "swap" ? (p.gave ? "gave ✓" : "swapping…") : "arranging…";
    if (!p.online) status += " · offline (断线)";
    if (p.stand_after_round) status += " · stands up after the round";
    d.innerHTML = `<div class="name"></div><div class="money"></div><div class="title"></div><div class="status"></div>`;
    d.querySelector(".name").textContent = `${p.name}${p.ai ? " (AI)" : ""}`;
    d.querySelector(".money").textContent = `${fmt(p.balance)} · ${p.points >= 0 ? "+" : ""}${p.points} pts`;
    d.querySelector(".title").textContent = `${p.levels.money.title} · ${p.levels.points.title}`;
    const s = d.querySelector(".status");
    s.textContent = status;
    if (p.played) s.classList.add("played");
    if (!p.online) s.classList.add("offline");
    box.appendChild(d);
  });
}

function cardEl(text, small) {
  const el = document.createElement(small ? "span" : "button");
  const suit = text.slice(-1).toLowerCase();
  el.className = "card" + (small ? " small" : "") + (suit === "h" || suit === "d" ? " red" : "");
  el.dataset.card = text;
  el.innerHTML = `<span class="rank"></span><span class="suit"></span>`;
  el.querySelector(".rank").textContent = text.slice(0, -1) === "T" ? "10" : text.slice(0, -1);
  el.querySelector(".suit").textContent = SUITS[suit] || suit;
  el.title = text;
  if (!small) el.type = "button";
  return el;
}

function renderHand() {
  const hand = $("hand");
  hand.innerHTML = "";
  const swapping = !!(myRound() && myRound().phase === "swap");
  S.hand.forEach((c, i) => {
    if (S.isPlaced(i)) return;
    const el = cardEl(c);
    el.dataset.index = i;
    if (S.selected.has(i)) el.classList.add("selected");
    el.onclick = () => (swapping ? toggleGive(i) : place(i));
    el.disabled = !(canPlay() || swapping);
    hand.appendChild(el);
  });
  for (const lane of LANES) {
    const slots = $(`lane-${lane}`);
    slots.innerHTML = "";
    S.lanes[lane].forEach((i) => {
      const el = cardEl(S.hand[i]);
      el.dataset.index = i;
      el.onclick = (ev) => { ev.stopPropagation(); unplace(lane, i); };
      el.disabled = !canPlay();
      slots.appendChild(el);
    });
    for (let k = S.lanes[lane].length; k < SIZE[lane]; k++) {
      const e = document.createElement("span"); e.className = "slot-empty"; slots.appendChild(e);
    }
  }
  const full = LANES.every((l) => S.lanes[l].length === SIZE[l]);
  $("submit").disabled = !(canPlay() && full && S.check && S.check.foul === false);
  $("hints").disabled = !canPlay();
  $("clear").disabled = !canPlay();
}

function setActive(lane) {
  S.active = lane;
  document.querySelectorAll(".lane").forEach((el) => el.classList.toggle("active", el.dataset.lane === lane));
}

function place(i) {
  if (!canPlay()) return;
  let lane = S.active;
  if (S.lanes[lane].length >= SIZE[lane]) lane = LANES.find((l) => S.lanes[l].length < SIZE[l]);
  if (!lane) return;
  S.lanes[lane].push(i);
  if (S.lanes[lane].length === SIZE[lane]) {
    const next = LANES.find((l) => S.lanes[l].length < SIZE[l]);
    if (next) setActive(next);
  }
  laneChanged();
}

function unplace(lane, i) {
  if (!canPlay()) return;
  S.lanes[lane] = S.lanes[lane].filter((k) => k !== i);
  setActive(lane);
  laneChanged();
}

function laneText(lane) { return S.lanes[lane].map((i) => S.hand[i]).join(" "); }

function laneChanged() {
  S.check = null;
  showCheck(null);
  const full = LANES.every((l) => S.lanes[l].length === SIZE[l]);
  if (full) send({ type: "check", front: laneText("front"), middle: laneText("middle"), back: laneText("back") });
  renderHand();
}

function showCheck(f) {
  S.check = f;
  const v = $("verdict");
  v.className = "";
  for (const lane of LANES) $(`cat-${lane}`).textContent = "";
  if (!f) { v.textContent = ""; return; }
  if (f.error) { v.textContent = f.message; v.className = "foul"; renderHand(); return; }
  f.lanes.forEach((cat, k) => { $(`cat-${LANES[k]}`).textContent = cat.replace(/_/g, " "); });
  if (f.foul) { v.textContent = "Fouled (相公): the front must not beat the middle, nor the middle the back."; v.className = "foul"; }
  else { v.textContent = `OK: ${f.label}`; v.className = "ok"; }
  renderHand();
}

function showHints(hints) {
  const box = $("hint-list");
  box.innerHTML = "";
  hints.forEach((h, k) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "hint";
    b.textContent = `${h.label} (${h.expected >= 0 ? "+" : ""}${h.expected.toFixed(1)})`;
    b.onclick = () => applyHint(h);
    box.appendChild(b);
    if (h.play.special) { S.special = h.play.special; $("declare").hidden = false; $("declare").textContent = `Declare ${h.play.special.replace(/_/g, " ")}`; }
  });
}

function applyHint(h) {
  if (!canPlay()) return;
  if (h.play.special) { say(`This hand holds a special: ${h.label}. Use "Declare".`); return; }
  if (h.play.surrender) { say(`Surrendering loses least: ${h.label}.`); return; }
  S.lanes = { front: [], middle: [], back: [] };
  for (const lane of LANES) for (const c of h.play[lane].split(" ")) {
    const i = S.hand.findIndex((x, k) => x === c && !S.isPlaced(k));
    S.lanes[lane].push(i);
  }
  laneChanged();
}

function toggleGive(i) {
  if (S.selected.has(i)) S.selected.delete(i);
  else if (S.selected.size < S.state.rules.swap) S.selected.add(i);
  renderHand();
}

// ---------------------------------------------------------------- reveal

function onResult(f) {
  const box = $("reveal-table");
  const events = $("reveal-events");
  $("reveal").hidden = false;
  S.revealedRound = f.round;
  $("reveal-title").textContent = `Round ${f.round}: the reveal`;
  box.innerHTML = ""; events.innerHTML = "";
  const token = ++S.reveal;
  const rows = {};
  f.seats.forEach((s) => {
    const row = document.createElement("div");
    row.className = "reveal-row";
    row.dataset.seat = s.seat;
    const name = document.createElement("span");
    name.textContent = `${s.name}${s.ai ? " (AI)" : ""}${s.auto ? " · 代打" : ""}`;
    row.appendChild(name);
    const lanes = {};
    for (const lane of LANES) {
      const d = document.createElement("span");
      d.className = "reveal-lane";
      d.dataset.lane = lane;
      const p = s.play;
      let cards = "";
      if (p && p.front) cards = p[lane];
      else if (p && p.special) cards = lane === "front" ? p.cards : "";
      for (const c of cards ? cards.split(" ") : []) d.appendChild(cardEl(c, true));
      if (p && p.special && lane === "middle") d.textContent = `special: ${p.special.replace(/_/g, " ")}`;
      if (s.escaped) d.textContent = lane === "front" ? "left (强退)" : "";
      if (s.surrendered) d.textContent = lane === "front" ? "surrendered" : "";
      row.appendChild(d);
      lanes[lane] = d;
    }
    const total = document.createElement("span");
    total.className = "reveal-total";
    row.appendChild(total);
    rows[s.seat] = { row, lanes, total, s };
    box.appendChild(row);
  });
  const st = f.settlement;
  const seatOf = (i) => f.settled_seats[i];
  const order = st ? st.reveal : [];
  const steps = [];
  order.forEach((lr) => {
    lr.order.forEach((i) => steps.push(() => rows[seatOf(i)].lanes[lr.lane].classList.add("shown")));
    steps.push(() => {
      for (const pair of st.pairs) for (const l of pair.lanes) {
        if (l.lane === lr.lane && l.winner !== null && l.winner !== undefined) rows[seatOf(l.winner)].lanes[l.lane].classList.add("won");
      }
    });
  });
  steps.push(() => {
    for (const k in rows) for (const lane of LANES) rows[k].lanes[lane].classList.add("shown");
    const name = (i) => rows[seatOf(i)].s.name;
    if (st) {
      st.specials.forEach((sp, i) => { if (sp) badge(`${name(i)}: ${String(sp.key || sp).replace(/_/g, " ")} (报到)`); });
      st.fouled.forEach((i) => badge(`${name(i)} fouled (相公)`));
      st.scoops.forEach(([a, b]) => badge(`${name(a)} scoops ${name(b)} (打枪)`));
      st.home_runs.forEach((i) => badge(`${name(i)}: home run! (全垒打)`));
    }
    f.seats.forEach((s) => {
      const t = rows[s.seat].total;
      t.textContent = `${s.units >= 0 ? "+" : ""}${s.units} units · ${s.money >= 0 ? "+" : ""}${fmt(s.money)} → ${fmt(s.balance)}` + (s.rake ? ` (rake ${fmt(s.rake)})` : "") + (s.stood_up ? ` · stood up: ${s.stood_up}` : "");
      t.classList.add(s.units > 0 ? "plus" : s.units < 0 ? "minus" : "even");
    });
    f.level_changes.forEach((c) => badge(`${nameOf(f, c.player)}: ${c.ladder.endsWith("points") ? "points" : "money"} level ${c.before.level} → ${c.after.level} (${c.after.title})`));
    const done = document.createElement("div");
    done.id = "result-done";
    done.textContent = "Next round soon…";
    events.appendChild(done);
    log(`round ${f.round} settled`);
  });
  const tick = (k) => {
    if (token !== S.reveal || k >= steps.length) return;
    steps[k]();
    setTimeout(() => tick(k + 1), 180);
  };
  tick(0);
  function badge(text) { const b = document.createElement("span"); b.className = "event"; b.textContent = text; events.appendChild(b); }
}

function nameOf(f, player) { const s = f.seats.find((x) => x.player === player); return s ? s.name : player; }

// ---------------------------------------------------------------- helpers and buttons

function fmt(v) { return v === null || v === undefined ? "–" : (v / 100).toFixed(2); }
function say(text) { $("message").textContent = text; }
function log(text) {
  const li = document.createElement("li");
  li.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  $("log").prepend(li);
}

setInterval(() => {
  if (S.clockLeft === null || S.clockLeft === undefined) { $("clock").textContent = ""; return; }
  const left = Math.max(0, S.clockLeft - (performance.now() - S.clockAt) / 1000);
  $("clock").textContent = `${Math.ceil(left)} s left`;
}, 250);

document.querySelectorAll(".lane").forEach((el) => { el.onclick = () => setActive(el.dataset.lane); });
// Resolves once the socket is open and its hello read (a click may come first).
function ready() {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    (function poll() {
      if (S.ws && S.ws.readyState === WebSocket.OPEN && S.nonce) resolve();
      else if (Date.now() - start > 20000) reject(new Error("no connection to the server"));
      else setTimeout(poll, 50);
    })();
  });
}

$("join").onclick = async () => {
  try { await ready(); } catch (e) { $("join-error").textContent = e.message; return; }
  const room = $("room").value.trim() || "lobby";
  const name = $("name").value.trim();
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (S.mode === "token" && !token) { $("join-error").textContent = "This table takes players from its operator's site: open it from there."; return; }
  if (S.mode !== "token" && !name) { $("join-error").textContent = "Enter your name."; return; }
  if (!window.crypto || !crypto.subtle || !window.indexedDB) { $("join-error").textContent = "This page needs a secure context (https, or http://127.0.0.1) to sign messages."; return; }
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  S.privateKey = pair.privateKey;
  const key = hex(await crypto.subtle.exportKey("raw", pair.publicKey));
  const join = { type: "join", protocol: 3, room, key };
  if (token) join.token = token; else join.name = name;
  S.rejoin = join;  // sent again to the process a redirect names
  S.ws.send(JSON.stringify(join));
  S.autoSit = true;
};
$("sit").onclick = () => send({ type: "sit" });
$("stand").onclick = () => send({ type: "stand" });
$("hints").onclick = () => send({ type: "hints", n: 5 });
$("clear").onclick = () => { S.lanes = { front: [], middle: [], back: [] }; setActive("front"); laneChanged(); };
$("submit").onclick = () => {
  say("");
  send({ type: "submit", front: laneText("front"), middle: laneText("middle"), back: laneText("back") });
};
$("declare").onclick = () => send({ type: "declare", special: S.special });
$("surrender").onclick = () => send({ type: "surrender" });
$("give").onclick = () => { send({ type: "give", cards: [...S.selected].map((i) => S.hand[i]).join(" ") }); };

(function start() {
  const q = new URLSearchParams(location.search);
  if (q.get("room")) $("room").value = q.get("room");
  // The saved session (if any) is read while the socket opens; the hello waits for it.
  S.loaded = loadSession().catch(() => null).then((saved) => {
    if (saved && (!q.get("room") || q.get("room") === saved.room)) { S.session = saved.session; S.privateKey = saved.privateKey; }
  });
  connect();
})();
