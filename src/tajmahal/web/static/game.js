// tajmahal serve: the game page. It shows what the server sends for this link's seat and
// sends the seat's moves; every message carries the link's token.
"use strict";
(function () {
  const parts = location.pathname.split("/");
  const role = parts[1];  // "play" or "watch"
  const token = parts[2];
  const body = document.body;
  const $ = id => document.getElementById(id);
  let socket = null;
  let state = null;
  let retry = 500;
  let selected = null;

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify(Object.assign({token: token}, message)));
  }
  function nameOf(seat) {
    return state ? state.players[seat] + (state.humans.includes(seat) ? "" : " (bot)") : "";
  }
  function cardClass(text) {
    return "card " + text.split(":")[0].split(" ")[0];
  }
  function playMove(move) {
    $("error").textContent = "";
    $("hint-text").textContent = "";
    for (const button of document.querySelectorAll("#moves button")) button.disabled = true;
    send({type: "move", decision: state.decision + 1, move: move});
  }
  function light(filter) {
    const matching = [];
    for (const button of document.querySelectorAll("#moves button")) {
      const hit = filter(button.dataset.move);
      button.classList.toggle("lit", hit);
      if (hit) matching.push(button.dataset.move);
    }
    return matching;
  }
  function cardClicked(card, button) {
    if (!state || state.turn !== state.seat) return;
    const uses = light(move => move.split(" ").slice(1).includes(card));
    if (uses.length === 1) { playMove(uses[0]); return; }
    selected = card;
    for (const other of document.querySelectorAll("#hand .card")) other.classList.remove("selected");
    button.classList.add("selected");
  }
  function boardClicked(event) {
    if (!state || state.turn !== state.seat || !state.legal.length) return;
    const city = event.target.closest("g.city[data-id]");
    const named = event.target.closest("[data-city]");
    const id = city ? city.dataset.id : named ? named.dataset.city : null;
    if (!id) return;
    const moves = light(move => move === "palace " + id || move === "crown " + id);
    if (moves.length === 1) playMove(moves[0]);
  }
  function render(frame) {
    state = frame;
    selected = null;
    body.dataset.decision = String(frame.decision);
    const mine = frame.seat !== null && frame.turn === frame.seat && !frame.over;
    body.dataset.turn = mine && frame.legal.length ? "yes" : "no";
    body.dataset.over = frame.over ? "yes" : "no";
    document.title = (mine ? "(your turn) " : "") + "Taj Mahal";
    let status;
    if (frame.over) status = "The game is over";
    else if (mine) status = "Your turn, " + frame.players[frame.seat];
    else status = "Waiting for " + nameOf(frame.turn);
    if (frame.seat === null) status = "Watching" + (frame.delayed ? " (one visit behind)" : "") + ": " + status.replace("Your turn", "turn");
    $("status").textContent = status;
    $("board").innerHTML = frame.board;
    for (const group of document.querySelectorAll("#board g.city[data-id]")) {
      const id = group.dataset.id;
      if (frame.legal.includes("palace " + id) || frame.legal.includes("crown " + id))
        group.classList.add("playable");
    }
    // the hand (or, for the spectator, nothing to play)
    $("actions").hidden = frame.seat === null;
    const hand = frame.view.hand || [];
    $("hand").replaceChildren(...hand.map(card => {
      const button = document.createElement("button");
      button.className = cardClass(card);
      button.textContent = card;
      button.dataset.card = card;
      button.addEventListener("click", () => cardClicked(card, button));
      return button;
    }));
    if (!hand.length) $("hand").textContent = "no cards";
    const ordered = frame.legal.filter(move => move === "withdraw")
      .concat(frame.legal.filter(move => move !== "withdraw"));
    $("moves").replaceChildren(...ordered.map(move => {
      const button = document.createElement("button");
      button.textContent = move;
      button.dataset.move = move;
      button.className = move.startsWith("take ") ? cardClass(move.slice(5)) : "";
      button.addEventListener("click", () => playMove(move));
      return button;
    }));
    if (!frame.legal.length) $("moves").textContent = frame.over ? "none: the game is over" : "wait for your turn";
    $("hint").hidden = !(frame.hints && mine);
    $("undo").hidden = !frame.undo;
    // scores
    $("scores").replaceChildren(...frame.players.map((_, seat) => {
      const row = document.createElement("tr");
      row.dataset.seat = String(seat);
      if (seat === frame.turn && !frame.over) row.className = "turn";
      const you = seat === frame.seat ? " (you)" : "";
      for (const text of [nameOf(seat) + you, String(frame.view.scores[seat]),
                          frame.view.hand_sizes[seat] + " cards"]) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.appendChild(cell);
      }
      return row;
    }));
    renderTable(frame.table);
    const events = $("events");
    events.replaceChildren(...frame.events.flatMap(step => step.lines.map(line => {
      const item = document.createElement("li");
      item.textContent = line;
      return item;
    })));
    events.scrollTop = events.scrollHeight;
    renderResult(frame);
  }
  function renderTable(table) {
    const panel = $("table-panel");
    panel.replaceChildren();
    if (!table) return;
    const title = document.createElement("h2");
    title.textContent = "The table";
    panel.appendChild(title);
    const lines = Array.isArray(table) ? table : (table.lines || []);
    for (const line of lines) {
      const item = document.createElement("div");
      item.textContent = line;
      panel.appendChild(item);
    }
  }
  function renderResult(frame) {
    const box = $("result");
    box.hidden = !frame.over;
    if (!frame.over || !frame.result) return;
    box.replaceChildren();
    const title = document.createElement("h2");
    const best = frame.result.winners.map(seat => frame.players[seat]).join(" and ");
    title.textContent = "The game is over: " + best + (frame.result.winners.length > 1 ? " win" : " wins");
    box.appendChild(title);
    const list = document.createElement("ol");
    list.id = "final-scores";
    const order = frame.players.map((_, seat) => seat)
      .sort((a, b) => frame.result.scores[b] - frame.result.scores[a] || a - b);
    for (const seat of order) {
      const item = document.createElement("li");
      item.dataset.seat = String(seat);
      item.dataset.score = String(frame.result.scores[seat]);
      item.textContent = nameOf(seat) + ": " + frame.result.scores[seat];
      list.appendChild(item);
    }
    box.appendChild(list);
    for (const [text, href] of [["download the record", "/record/" + token],
                                ["replay the game", "/replay/" + token],
                                ["analysis", "/analysis/" + token]]) {
      const link = document.createElement("a");
      link.textContent = text;
      link.href = href;
      link.id = "link-" + text.split(" ")[0];
      if (text.startsWith("download")) link.setAttribute("download", "");
      box.appendChild(link);
    }
  }
  function received(event) {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "state") render(message);
    else if (message.type === "error") {
      $("error").textContent = message.message;
      if (state) for (const button of document.querySelectorAll("#moves button")) button.disabled = false;
    } else if (message.type === "hint") {
      $("hint-text").textContent = "Hint: " + message.move + (message.reasons && message.reasons.length ? " - " + message.reasons.join("; ") : "");
      light(move => move === message.move);
    }
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/" + token);
    socket.addEventListener("open", () => {
      retry = 500;
      $("connection").textContent = "connected";
      $("connection").className = "";
    });
    socket.addEventListener("message", received);
    socket.addEventListener("close", event => {
      $("connection").className = "lost";
      if (event.code === 4404) {
        $("connection").textContent = "no game has this link";
        return;
      }
      $("connection").textContent = "connection lost: reconnecting...";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    });
  }
  $("board").addEventListener("click", boardClicked);
  $("hint").addEventListener("click", () => send({type: "hint", decision: state.decision + 1}));
  $("undo").addEventListener("click", () => send({type: "undo", decision: state.decision + 1}));
  if (role === "play" || role === "watch") connect();
})();
