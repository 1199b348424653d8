#!/usr/bin/env node
// A random bot for a tajmahal arena, in Node.js without packages: it speaks WebSocket itself.
// Usage: node arena_bot.js http://localhost:8000 bot.token [GAMES]
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const https = require('https');

const [server, tokenFile, games = '1'] = process.argv.slice(2);
const token = fs.readFileSync(tokenFile, 'utf8').trim();
const wanted = Number(games);
const address = new URL('/api/arena/bot', server);
const request = (address.protocol === 'https:' ? https : http).request(address, {
  headers: {
    Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': crypto.randomBytes(16).toString('base64'),
    Authorization: `Bearer ${token}`, // the token goes in this header, never in the URL
  },
});

request.on('upgrade', (response, socket, head) => {
  let buffer = Buffer.alloc(0);
  let played = 0;
  const frame = (opcode, payload) => { // a client's frames are masked
    const data = Buffer.from(payload);
    const mask = crypto.randomBytes(4);
    const head = data.length < 126 ? Buffer.from([0x80 | opcode, 0x80 | data.length])
      : Buffer.from([0x80 | opcode, 0x80 | 126, data.length >> 8, data.length & 255]);
    for (let i = 0; i < data.length; i++) data[i] ^= mask[i % 4];
    socket.write(Buffer.concat([head, mask, data]));
  };
  const send = (message) => frame(1, JSON.stringify(message));
  const handle = (message) => {
    if (message.type === 'request') { // answer with one of the legal moves, at random
      const legal = message.legal_moves;
      const move = legal[Math.floor(Math.random() * legal.length)];
      send({ type: 'move', game: message.game, seat: message.seat, decision: message.decision, move });
    } else if (message.type === 'result') {
      played += 1;
      console.log(`game ${message.game} over: scores ${message.scores.join(', ')} (${played}/${wanted})`);
      if (played >= wanted) { frame(8, ''); socket.end(); process.exit(0); }
    } else if (message.type === 'error') {
      console.error(`the server says: ${message.message}`);
    }
  };
  const receive = (chunk) => { // the server's frames: unmasked, each message in one frame
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 2) {
      let length = buffer[1] & 127;
      let start = 2;
      if (length === 126) { length = buffer.readUInt16BE(2); start = 4; }
      if (length === 127) { length = Number(buffer.readBigUInt64BE(2)); start = 10; }
      if (buffer.length < start + length) return;
      const opcode = buffer[0] & 15;
      const payload = buffer.subarray(start, start + length);
      buffer = buffer.subarray(start + length);
      if (opcode === 1) handle(JSON.parse(payload.toString('utf8')));
      if (opcode === 9) frame(10, payload); // ping: pong
      if (opcode === 8) { console.error('the server closed the connection'); process.exit(1); }
    }
  };
  socket.on('data', receive);
  send({ type: 'ready', version: 1, name: 'random_js', concurrency: 1, games: wanted });
  receive(head); // what came with the handshake's answer
});
request.on('response', (response) => {
  console.error(`the server refused the connection: HTTP ${response.statusCode}`);
  process.exit(1);
});
request.end();
