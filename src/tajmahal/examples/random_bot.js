#!/usr/bin/env node
// A bot program for Node.js (no packages needed) that speaks the tajmahal bot protocol.
//
// It reads JSON lines on stdin and answers JSON lines on stdout: "ready" to
// "hello", one "move" per "request" (a seeded random legal move, so the same
// seed always gives the same game), and it exits when stdin closes.
//
// It comes with the library (tajmahal.examples); `python -m tajmahal.examples random_bot.js`
// prints where. Run it in a match:  tajmahal match "cmd:node /path/to/random_bot.js" greedy random
// The protocol: docs/protocol.md.
"use strict";

const readline = require("readline");

const PROTOCOL_VERSION = 1;

// mulberry32: a small seeded generator (Math.random cannot be seeded)
function generator(seed) {
  let state = Number(BigInt.asUintN(32, BigInt(seed)));
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

let random = null;
const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });

input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    if (message.version !== PROTOCOL_VERSION) {
      process.stderr.write(`I speak version ${PROTOCOL_VERSION} only\n`);
      process.exit(1);
    }
    random = generator(message.seed);
    send({ type: "ready", version: PROTOCOL_VERSION, name: "random_js", deterministic: true });
  } else if (message.type === "request") {
    const moves = message.legal_moves;
    const move = moves[Math.floor(random() * moves.length)];
    send({ type: "move", decision: message.decision, move: move });
  } else if (message.type === "result") {
    process.stderr.write(`game over: scores ${message.scores.join(", ")}\n`);
  }
});

input.on("close", () => process.exit(0));
