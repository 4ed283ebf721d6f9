// B99 Arena SDK for Node: a bot dials the referee, says hello, and answers every decision request.
//
//   const { Bot, run } = require("b99-arena-sdk");
//   class First extends Bot { choose(request) { return request.options[0].id; } }
//   run(new First());   // reads B99_ARENA_ADDRESS and B99_SEAT_TOKEN from the environment
//
// Views, option payloads and event data arrive as plain objects keyed by the game's proto field
// names (snake_case, as in proto/b99/games/<game>.proto), exactly like the Python SDK's dicts.
"use strict";

const path = require("path");
const fs = require("fs");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");
const protobuf = require("protobufjs");

const PROTOCOL_VERSION = 1;
const ADDRESS_VARIABLE = "B99_ARENA_ADDRESS";
const TOKEN_VARIABLE = "B99_SEAT_TOKEN";
/** Exit code of a bot whose seat token was rejected, and the wait before it exits (no restart storms). */
const EXIT_TOKEN_REJECTED = 3;
const REJECTED_BACKOFF_SECONDS = 10;
const TOKEN_METADATA = "b99-seat-token";

/**
 * Where the .proto files are: B99_PROTO_PATH, else this package's own copy (proto/, made by
 * `npm install`/`npm ci` through sync-protos.js), else the repository's proto/ beside this SDK.
 */
function protoRoot() {
  if (process.env.B99_PROTO_PATH) return process.env.B99_PROTO_PATH;
  const own = path.join(__dirname, "proto");
  return fs.existsSync(path.join(own, "b99", "arena.proto")) ? own : path.resolve(__dirname, "..", "..", "proto");
}

const LOADER_OPTIONS = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true };
const TO_OBJECT = { longs: Number, enums: String, defaults: true, arrays: true, oneofs: false };

let arenaService = null;
function arena() {
  if (arenaService === null) {
    const definition = protoLoader.loadSync("b99/arena.proto", { ...LOADER_OPTIONS, includeDirs: [protoRoot()] });
    arenaService = grpc.loadPackageDefinition(definition).b99.arena.Arena;
  }
  return arenaService;
}

const gameRoots = new Map();
/** The protobufjs root holding one game's View, OptionPayload and Event messages. */
function gameRoot(game) {
  if (!gameRoots.has(game)) {
    const file = path.join(protoRoot(), "b99", "games", `${game}.proto`);
    if (!fs.existsSync(file)) throw new Error(`no messages for game ${game}: ${file} is missing`);
    const root = new protobuf.Root();
    root.resolvePath = (origin, target) => (fs.existsSync(target) ? target : path.join(protoRoot(), target));
    root.loadSync(file, { keepCase: true });
    gameRoots.set(game, root);
  }
  return gameRoots.get(game);
}

/** The typed message inside a google.protobuf.Any, as a plain object (optional fields only when set). */
function unpack(game, any) {
  if (!any || !any.type_url) return {};
  const typeName = any.type_url.slice(any.type_url.lastIndexOf("/") + 1);
  const type = gameRoot(game).lookupType(typeName);
  const message = type.decode(any.value);
  return withPresence(type, message, type.toObject(message, TO_OBJECT));
}

/**
 * Drop what was not on the wire where presence matters, as the Python SDK does: proto3 `optional`
 * fields and singular message fields appear only when set (at every depth).
 */
function withPresence(type, message, object) {
  for (const field of type.fieldsArray) {
    const present = Object.prototype.hasOwnProperty.call(message, field.name);
    const optional = field.partOf && field.partOf.name === `_${field.name}`;
    const nested = field.resolvedType instanceof protobuf.Type ? field.resolvedType : null;
    if (!present && (optional || (nested && !field.repeated && !field.map))) {
      delete object[field.name];
    } else if (present && nested && field.repeated) {
      object[field.name] = message[field.name].map((item, i) => withPresence(nested, item, object[field.name][i]));
    } else if (present && nested && !field.map) {
      object[field.name] = withPresence(nested, message[field.name], object[field.name]);
    }
  }
  return object;
}

function structValue(value) {
  if (!value) return null;
  switch (value.kind) {
    case "null_value": return null;
    case "number_value": return value.number_value;
    case "string_value": return value.string_value;
    case "bool_value": return value.bool_value;
    case "struct_value": return structObject(value.struct_value);
    case "list_value": return (value.list_value.values || []).map(structValue);
    default: return null;
  }
}

function structObject(struct) {
  const out = {};
  for (const [key, value] of Object.entries((struct && struct.fields) || {})) out[key] = structValue(value);
  return out;
}

function eventInfo(game, event) {
  const data = unpack(game, event.data);
  return { sequence: event.sequence, kind: event.kind, data: data[event.kind] || {} };
}

/** Base class: implement choose(request); onGameStart and onGameOver are optional. */
class Bot {
  constructor(name) {
    this.name = name || this.constructor.name;
  }
  /** Return the chosen option's id, its index, or the option object (a Promise of one is fine too). */
  choose(request) {
    throw new Error("implement choose(request)");
  }
  onGameStart(start) {}
  onGameOver(over) {}
}

function decisionFor(request, answer) {
  const decision = { request_id: request.requestId };
  if (typeof answer === "number" && Number.isInteger(answer)) decision.option_index = answer;
  else if (answer && typeof answer === "object" && typeof answer.id === "string") decision.option_id = answer.id;
  else decision.option_id = String(answer);
  return decision;
}

/**
 * TLS when B99_ARENA_CA_FILE (a ladder's own certificate) or B99_ARENA_TLS=1 (a public one) is set,
 * as the Python SDK does; plaintext for a local referee.
 */
function channelCredentials() {
  const caFile = process.env.B99_ARENA_CA_FILE;
  const tls = process.env.B99_ARENA_TLS;
  if (caFile) return grpc.credentials.createSsl(require("fs").readFileSync(caFile));
  if (tls && tls !== "0") return grpc.credentials.createSsl();
  return grpc.credentials.createInsecure();
}

/**
 * Play one game for the seat named by the token. Resolves with the game over
 * ({ranks, scores, events, summary}) or null if the stream ended before it.
 */
function run(bot, options = {}) {
  const address = options.address || process.env[ADDRESS_VARIABLE];
  const token = options.token || process.env[TOKEN_VARIABLE];
  if (!address || !token) {
    return Promise.reject(new Error(`set ${ADDRESS_VARIABLE} and ${TOKEN_VARIABLE} (the referee sets both)`));
  }
  const Arena = arena();
  const client = new Arena(address, channelCredentials(), {
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
  });
  return new Promise((resolve, reject) => {
    // The token also goes in the call's metadata: the referee authenticates the stream before reading it.
    const metadata = new grpc.Metadata();
    metadata.set(TOKEN_METADATA, token);
    const call = client.Play(metadata);
    let start = null;
    let over = null;
    let pending = Promise.resolve();
    call.write({
      hello: { seat_token: token, bot_name: options.name || bot.name, bot_version: "js", protocol_version: PROTOCOL_VERSION },
    });
    const handle = async (message) => {
      if (message.game_start) {
        const s = message.game_start;
        start = {
          matchId: s.match_id,
          game: s.game,
          seat: s.seat,
          players: s.players,
          variants: structObject(s.variants),
          events: (s.events || []).map((e) => eventInfo(s.game, e)),
        };
        await bot.onGameStart(start);
      } else if (message.decision_request) {
        const r = message.decision_request;
        const game = start.game;
        const request = {
          requestId: r.request_id,
          game,
          seat: start.seat,
          players: start.players,
          variants: start.variants,
          decision: r.decision,
          view: unpack(game, r.view),
          options: (r.options || []).map((o, index) => ({ index, id: o.id, label: o.label, payload: unpack(game, o.payload) })),
          events: (r.events || []).map((e) => eventInfo(game, e)),
          clock: {
            perDecisionSeconds: r.clock ? r.clock.per_decision_seconds : 0,
            bankRemainingSeconds: r.clock ? r.clock.bank_remaining_seconds : 0,
            strikes: r.clock ? r.clock.strikes : 0,
            strikesAllowed: r.clock ? r.clock.strikes_allowed : 0,
          },
        };
        const answer = await bot.choose(request);
        call.write({ decision: decisionFor(request, answer) });
      } else if (message.game_over) {
        const o = message.game_over;
        over = {
          ranks: o.ranks,
          scores: o.scores,
          events: (o.events || []).map((e) => eventInfo(start ? start.game : "", e)),
          summary: o.summary,
        };
        await bot.onGameOver(over);
        call.end();
      } else if (message.error && message.error.code === "UNKNOWN_TOKEN" && start === null) {
        // Retrying with the same token cannot help: say why, wait, and exit non-zero.
        const backoff = options.backoffSeconds === undefined ? REJECTED_BACKOFF_SECONDS : options.backoffSeconds;
        console.error(`b99 sdk: the referee at ${address} rejected the seat token: ${message.error.message}`);
        console.error(`b99 sdk: exiting with code ${EXIT_TOKEN_REJECTED} after ${backoff} s (check ${TOKEN_VARIABLE})`);
        setTimeout(() => process.exit(EXIT_TOKEN_REJECTED), backoff * 1000);
      } else if (message.error) {
        console.error(`b99 referee: ${message.error.code}: ${message.error.message}`);
      }
    };
    call.on("data", (message) => {
      // Handle messages strictly in order, even when choose is asynchronous.
      pending = pending.then(() => handle(message)).catch((error) => {
        console.error(`b99 sdk: ${error && error.stack ? error.stack : error}`);
        call.end();
        reject(error);
      });
    });
    call.on("end", () => pending.then(() => { client.close(); resolve(over); }));
    call.on("error", (error) => {
      client.close();
      if (over) resolve(over);
      else if (error.code === grpc.status.CANCELLED || error.code === grpc.status.UNAVAILABLE) resolve(null);
      else reject(error);
    });
  });
}

module.exports = { Bot, run, unpack, PROTOCOL_VERSION, ADDRESS_VARIABLE, TOKEN_VARIABLE, EXIT_TOKEN_REJECTED };
