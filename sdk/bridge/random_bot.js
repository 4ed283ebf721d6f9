#!/usr/bin/env node
// A bot for the stdio bridge, in plain Node (no packages): `b99 bridge -- node random_bot.js`.
// Reads one JSON message from the referee per line; answers each decision_request with one line.
"use strict";
const readline = require("readline");

const lines = readline.createInterface({ input: process.stdin });
let seat = null;

lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.game_start) {
    seat = message.game_start.seat;
    console.error(`playing ${message.game_start.game} as seat ${seat}`);
  } else if (message.decision_request) {
    const request = message.decision_request;
    const pick = request.options[Math.floor(Math.random() * request.options.length)];
    process.stdout.write(JSON.stringify({ request_id: request.request_id, option_id: pick.id }) + "\n");
  } else if (message.game_over) {
    console.error(`game over: rank ${message.game_over.ranks[seat]}`);
  } else if (message.error) {
    console.error(`referee: ${message.error.code}: ${message.error.message}`);
  }
});
