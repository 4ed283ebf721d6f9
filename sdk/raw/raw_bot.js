#!/usr/bin/env node
// A B99 Arena bot in Node on @grpc/grpc-js and @grpc/proto-loader alone (no SDK): dial, say hello,
// answer every request with a random legal option. Every game's .proto is loaded and `json: true`
// is set, so each google.protobuf.Any arrives unpacked: {"@type": "type.googleapis.com/...", ...fields}.
//
//   npm install @grpc/grpc-js @grpc/proto-loader
//   B99_PROTO_ROOT=/path/to/proto node raw_bot.js    # the referee sets B99_ARENA_ADDRESS and B99_SEAT_TOKEN
"use strict";
const fs = require("fs");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const root = process.env.B99_PROTO_ROOT || path.join(__dirname, "proto");
const games = fs.readdirSync(path.join(root, "b99", "games")).filter((f) => f.endsWith(".proto"));
const definition = protoLoader.loadSync(["b99/arena.proto", ...games.map((f) => `b99/games/${f}`)], {
  includeDirs: [root],
  keepCase: true, // proto field names (snake_case), as in the .proto files
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  json: true, // unpack Any into the typed message (its type must be among the loaded files)
});
const Arena = grpc.loadPackageDefinition(definition).b99.arena.Arena;

const address = process.env.B99_ARENA_ADDRESS;
const token = process.env.B99_SEAT_TOKEN;
if (!address || !token) {
  console.error("set B99_ARENA_ADDRESS and B99_SEAT_TOKEN (the referee sets both)");
  process.exit(2);
}
const client = new Arena(address, grpc.credentials.createInsecure());
const call = client.Play();
let seat = 0;
call.write({ hello: { seat_token: token, bot_name: "raw-node", protocol_version: 1 } });
call.on("data", (message) => {
  if (message.game_start) {
    seat = message.game_start.seat;
    console.error(`playing ${message.game_start.game} as seat ${seat}`);
  } else if (message.decision_request) {
    const request = message.decision_request;
    const view = request.view; // the typed View, for example {"@type": ".../b99.games.underground_dice.View", pot: 0, ...}
    if (view["@type"].endsWith("b99.games.underground_dice.View")) {
      console.error(`${request.decision}: pot ${view.pot}, my bills ${view.hands[seat].bills}`);
    }
    const option = request.options[Math.floor(Math.random() * request.options.length)];
    call.write({ decision: { request_id: request.request_id, option_id: option.id } });
  } else if (message.game_over) {
    console.error(`game over: rank ${message.game_over.ranks[seat]}`);
    call.end();
  } else if (message.error) {
    console.error(`referee: ${message.error.code}: ${message.error.message}`);
    if (message.error.code === "UNKNOWN_TOKEN") process.exit(3);
  }
});
call.on("end", () => client.close());
call.on("error", (error) => {
  if (error.code !== grpc.status.CANCELLED) console.error(`stream ended: ${error.message}`);
});
