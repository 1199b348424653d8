// tajmahal serve: the lobby. Creates games (3 to 5 seats, people or bots) and lists them.
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  let bots = ["greedy", "random"];
  let commands = false;
  const STORE = "tajmahal.games";  // the games this browser created: their links
  const WORDS = {
    random: "random bot: plays at random",
    greedy: "greedy bot: easy, takes what pays now",
    "ismcts:level=1": "level 1: a beginner (fast)",
    "ismcts:level=2": "level 2: casual",
    "ismcts:level=3": "level 3: a good player",
    "ismcts:level=4": "level 4: strong (thinks a few seconds)",
    "ismcts:level=5": "level 5: strongest (slow)",
  };
  function named(name, human) {  // a bot as the lobby names it: "level 3", not its spec
    const level = /^ismcts:level=(\d)$/.exec(name);
    return level && !human ? "level " + level[1] : name;
  }
  $("clock-kind").addEventListener("change", () => {
    $("clock-options").hidden = !$("clock-kind").value;
    $("clock-increment").disabled = $("clock-kind").value !== "bank";
  });
  function choices() {  // the bots for people: levels instead of iteration counts
    const named = bots.filter(name => name !== "ismcts" && !/-v\d+$/.test(name));
    const levels = bots.includes("ismcts") ? [1, 2, 3, 4, 5].map(n => "ismcts:level=" + n) : [];
    return [...named, ...levels];
  }
  function saved() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function copyButton(url) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "copy";
    button.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(url); button.textContent = "copied"; }
      catch (e) { window.prompt("Copy this link:", url); }
    });
    return button;
  }
  function linkItem(text, path, cls) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = path;
    link.className = cls;
    link.textContent = location.origin + path;
    item.append(text, link, " ", copyButton(location.origin + path));
    return item;
  }
  function showSaved(over) {
    const list = $("your-games");
    const games = saved();
    $("yours").hidden = !games.length;
    list.replaceChildren(...games.map(game => {
      const item = document.createElement("li");
      item.dataset.game = game.id;
      const when = new Date(game.created).toLocaleString();
      const head = document.createElement("div");
      const people = new Set((game.seats || []).filter(seat => seat.link).map(seat => seat.seat));
      head.textContent = game.players.map((name, seat) => named(name, people.has(seat))).join(", ") +
        " (" + when + ")" + (over[game.id] ? ": over" : "");
      const links = document.createElement("ul");
      for (const seat of game.seats)
        if (seat.link) links.append(linkItem("seat " + (seat.seat + 1) + ", " + seat.name + ": ", seat.link, "seat-link"));
      links.append(linkItem("watch: ", game.spectator, "watch-link"));
      if (over[game.id]) links.append(linkItem("replay: ", "/replay/" + game.spectator.split("/").pop(), "replay-link"));
      const forget = document.createElement("button");
      forget.type = "button";
      forget.textContent = "forget";
      forget.addEventListener("click", () => {
        localStorage.setItem(STORE, JSON.stringify(saved().filter(g => g.id !== game.id)));
        refresh();
      });
      item.append(head, links, forget);
      return item;
    }));
  }

  function seatRow(number, kind, name) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const label = document.createElement("label");
    label.textContent = "seat " + (number + 1);
    const select = document.createElement("select");
    select.className = "seat-kind";
    select.setAttribute("aria-label", "who plays seat " + (number + 1));
    for (const option of ["person", ...choices(), "other bot (spec)"]) {
      const item = document.createElement("option");
      item.value = option;
      item.textContent = option === "person" ? "a person" : (WORDS[option] || option);
      select.appendChild(item);
    }
    select.value = kind;
    const input = document.createElement("input");
    input.type = "text";
    input.className = "seat-name";
    input.maxLength = 200;
    input.value = name;
    function sync() {
      const person = select.value === "person";
      const other = select.value === "other bot (spec)";
      input.hidden = !(person || other);
      input.placeholder = person ? "name" : "e.g. ismcts:iterations=400" + (commands ? " or cmd:PROGRAM" : "");
    }
    select.addEventListener("change", sync);
    sync();
    row.append(label, select, input);
    return row;
  }
  function addSeat(kind, name) {
    const seats = $("seats");
    if (seats.children.length >= 5) return;
    seats.appendChild(seatRow(seats.children.length, kind, name));
  }
  function seats() {
    return [...document.querySelectorAll("#seats .seat-row")].map(row => {
      const kind = row.querySelector(".seat-kind").value;
      const text = row.querySelector(".seat-name").value.trim();
      if (kind === "person") return {human: true, name: text};
      return {human: false, name: kind === "other bot (spec)" ? text : kind};
    });
  }
  async function create(event) {
    event.preventDefault();
    $("error").textContent = "";
    const limit = $("time-limit").value;
    const request = {seats: seats(), hints: $("hints").checked, spectator_delay: $("delay").checked};
    if ($("clock-kind").value) {  // the people's time control (the server judges it)
      const kind = $("clock-kind").value;
      request.clock = {kind: kind, seconds: Math.round(Number($("clock-minutes").value) * 60),
                       increment: kind === "bank" ? Number($("clock-increment").value) : 0,
                       at_zero: $("clock-zero").value};
    }
    if (limit) request.time_limit = Number(limit);
    let reply;
    try {
      const response = await fetch("/api/games", {method: "POST", body: JSON.stringify(request),
                                                   headers: {"Content-Type": "application/json"}});
      reply = await response.json();
      if (!response.ok) { $("error").textContent = reply.error || "the server refused"; return; }
    } catch (e) {
      $("error").textContent = "the server cannot be reached";
      return;
    }
    const kept = saved().filter(g => g.id !== reply.id);
    kept.unshift({id: reply.id, created: Date.now(), players: reply.seats.map(seat => seat.name),
                  seats: reply.seats, spectator: reply.spectator});
    try { localStorage.setItem(STORE, JSON.stringify(kept.slice(0, 50))); } catch (e) { /* full */ }
    const links = $("links");
    links.replaceChildren();
    for (const seat of reply.seats) {
      const item = document.createElement("li");
      item.dataset.seat = String(seat.seat);
      if (seat.link) {
        const link = document.createElement("a");
        link.href = seat.link;
        link.className = "seat-link";
        link.textContent = location.origin + seat.link;
        item.append("seat " + (seat.seat + 1) + ", " + seat.name + ": ", link, " ",
                    copyButton(location.origin + seat.link));
      } else {
        item.textContent = "seat " + (seat.seat + 1) + ": " + seat.name + " (bot)";
      }
      links.appendChild(item);
    }
    const watch = document.createElement("li");
    const link = document.createElement("a");
    link.href = reply.spectator;
    link.id = "spectator-link";
    link.textContent = location.origin + reply.spectator;
    watch.append("spectators: ", link, " ", copyButton(location.origin + reply.spectator));
    links.appendChild(watch);
    $("created").hidden = false;
    refresh();
  }
  async function refresh() {
    let listed;
    try { listed = (await (await fetch("/api/games")).json()).games; } catch (e) { showSaved({}); return; }
    const over = {};
    for (const game of listed) over[game.id] = game.over;
    showSaved(over);
    const known = {};
    for (const game of saved()) known[game.id] = game;
    const rows = listed.map(game => {
      const row = document.createElement("tr");
      row.dataset.game = game.id;
      const when = new Date(game.created * 1000).toLocaleString();
      let progress = game.over ? "over" : "unfinished";
      if (game.visit !== undefined) progress += ", visit " + game.visit + ", scores " + game.scores.join("/");
      for (const text of [game.id + " (" + when + ")", game.players.map(name => named(name, false)).join(", "), progress]) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.appendChild(cell);
      }
      const cell = document.createElement("td");
      const mine = known[game.id];
      const spectator = game.watch || (mine && mine.spectator);
      if (spectator) {
        const watch = document.createElement("a");
        watch.href = spectator;
        watch.textContent = "watch";
        watch.className = "watch-link";
        cell.append(watch);
        if (game.over) {
          const replay = document.createElement("a");
          replay.href = "/replay/" + spectator.split("/").pop();
          replay.textContent = "replay";
          replay.className = "replay-link";
          cell.append(" ", replay);
        }
      } else cell.textContent = "";
      row.appendChild(cell);
      return row;
    });
    document.querySelector("#games tbody").replaceChildren(...rows);
  }
  async function showLimits() {
    let caps;
    try { caps = await (await fetch("/api/limits")).json(); } catch (e) { return; }
    $("limits").textContent = "This server's limits for bots: at most " + caps.iterations +
      " search iterations and " + caps.time_limit + " s per move, " + caps.game_time +
      " s per game; " + (caps.search_processes ? "search processes allowed" : "no search processes (jobs=1)") +
      "; " + (caps.commands ? "programs (cmd:) allowed" : "no programs") + "; at most " +
      caps.open_games_per_client + " unfinished games per address.";
    if (caps.arena) {  // a server with the arena: its bots to challenge
      const link = document.createElement("a");
      link.href = "/arena";
      link.textContent = "The arena: challenge a bot";
      document.querySelector("header").append(link);
    }
  }
  async function start() {
    try {
      const reply = await (await fetch("/api/bots")).json();
      bots = reply.bots;
      commands = reply.commands;
    } catch (e) { /* the defaults */ }
    addSeat("person", "");
    addSeat("person", "");
    addSeat(bots.includes("greedy") ? "greedy" : bots[0], "");
    $("add-seat").addEventListener("click", () => addSeat(choices()[0], ""));
    $("remove-seat").addEventListener("click", () => {
      const seats = $("seats");
      if (seats.children.length > 3) seats.lastChild.remove();
    });
    $("new-game").addEventListener("submit", create);
    showLimits();
    refresh();
    setInterval(refresh, 10000);
  }
  start();
})();
